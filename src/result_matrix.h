// Large results are allocated without R's zero fill: the kernels write every
// entry, and the worker threads then take the first-touch page faults in
// parallel instead of one thread zeroing hundreds of megabytes first.
#pragma once
#include <Rcpp.h>

namespace askrff {

inline Rcpp::NumericMatrix uninitialized_matrix(int rows, int cols) {
  return Rcpp::NumericMatrix(Rcpp::no_init(rows, cols));
}

}  // namespace askrff
