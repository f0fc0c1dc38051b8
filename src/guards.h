// Checks the glue makes before any pointer arithmetic: R validates objects
// first, but memory safety must not depend on it. A failed check throws, and
// Rcpp turns the exception into an R error.
#pragma once
#include <Rcpp.h>

#include <stdexcept>
#include <string>

namespace askrff {

inline void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

inline void require_threads(int n_threads) { require(n_threads >= 1, "n_threads must be at least 1"); }

inline void require_length(R_xlen_t length, R_xlen_t expected, const char* what) {
  require(length == expected, std::string(what) + " must have one entry per frequency");
}

// A matrix whose dimensions cover exactly its entries: one read back from a
// damaged file can claim more than it holds.
inline void require_whole(const Rcpp::NumericMatrix& m, const char* what) {
  require(static_cast<double>(m.nrow()) * static_cast<double>(m.ncol()) == static_cast<double>(Rf_xlength(m)),
          std::string(what) + "'s dimensions must match its number of entries");
}

// Every point of a data side has the map's dimension.
inline void require_data(const Rcpp::NumericMatrix& x, int d, const char* what) {
  require_whole(x, what);
  require(x.ncol() == d && x.nrow() >= 1, std::string(what) + " must have one column per map dimension and a row");
}

}  // namespace askrff
