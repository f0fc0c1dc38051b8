// Conversions between R objects and the core's types.
#pragma once
#include <Rcpp.h>

#include <cstdint>

#include "core/kernels.h"

namespace askrff {

// R's kernel object: list(name = "gaussian", params = list(sigma = 1), ...).
inline KernelSpec kernel_spec(const Rcpp::List& kernel) {
  KernelSpec spec;
  spec.name = Rcpp::as<std::string>(kernel["name"]);
  const Rcpp::List params = kernel["params"];
  const Rcpp::CharacterVector names = params.names();
  for (R_xlen_t i = 0; i < params.size(); ++i) {
    spec.params[Rcpp::as<std::string>(names[i])] = Rcpp::as<std::vector<double>>(params[i]);
  }
  return spec;
}

// Two 32-bit words drawn in R (from its RNG or from `seed`) make the 64-bit seed.
inline std::uint64_t seed_from_words(const Rcpp::NumericVector& words) {
  return (static_cast<std::uint64_t>(words[0]) << 32) | static_cast<std::uint64_t>(words[1]);
}

inline ConstMatrixMap as_map(const Rcpp::NumericMatrix& m) {
  return ConstMatrixMap(m.begin(), m.nrow(), m.ncol());
}

}  // namespace askrff
