// Feature matrices and approximate Gram matrices in fixed blocks of rows on
// RcppParallel's threads, written straight into the R result.
#pragma once
#include <Rcpp.h>

#include <algorithm>

#include "core/features/approx_gram.h"
#include "parallel.h"
#include "result_matrix.h"

namespace askrff {

constexpr std::size_t kFeatureBlockRows = 128;
constexpr std::size_t kGramBlockRows = 64;

// Every row of `side` as an R matrix.
inline Rcpp::NumericMatrix features(const FeatureRows& side, int n_threads) {
  const std::size_t n = side.n_rows();
  Rcpp::NumericMatrix out = uninitialized_matrix(static_cast<int>(n), side.n_columns());
  double* op = out.begin();
  run_row_blocks(n, side.row_cost(), kFeatureBlockRows, n_threads,
                 [&](std::size_t begin, std::size_t end) { side.rows(begin, end, op + begin, n); });
  return out;
}

inline Rcpp::NumericMatrix features(const Rcpp::NumericMatrix& x, const FeatureMap& map, int n_threads) {
  return features(MappedRows(map, x.begin(), x.nrow()), n_threads);
}

inline ConstFeatures as_features(const Rcpp::NumericMatrix& m) { return ConstFeatures(m.begin(), m.nrow(), m.ncol()); }

// scale * L R' in blocks of the left side's rows, R stored whole.
inline Rcpp::NumericMatrix gram_by_left_rows(const FeatureRows& left, const ConstFeatures& right_features,
                                             double scale, int n_threads) {
  const std::size_t n = left.n_rows();
  Rcpp::NumericMatrix out = uninitialized_matrix(static_cast<int>(n), static_cast<int>(right_features.rows()));
  double* op = out.begin();
  const double row_cost = left.row_cost() + kProductWeight * 2.0 * right_features.rows() * left.n_columns();
  run_row_blocks(n, row_cost, kGramBlockRows, n_threads, [&](std::size_t begin, std::size_t end) {
    approx_gram_rows(left, begin, end, right_features, scale, op, n);
  });
  return out;
}

// scale * L R' in blocks of the right side's rows, L stored whole.
inline Rcpp::NumericMatrix gram_by_right_rows(const ConstFeatures& left_features, const FeatureRows& right,
                                              double scale, int n_threads) {
  const std::size_t n = right.n_rows();
  const std::size_t n_x = static_cast<std::size_t>(left_features.rows());
  Rcpp::NumericMatrix out = uninitialized_matrix(static_cast<int>(n_x), static_cast<int>(n));
  double* op = out.begin();
  const double row_cost = right.row_cost() + kProductWeight * 2.0 * n_x * right.n_columns();
  run_row_blocks(n, row_cost, kGramBlockRows, n_threads, [&](std::size_t begin, std::size_t end) {
    approx_gram_columns(left_features, right, begin, end, scale, op, n_x);
  });
  return out;
}

}  // namespace askrff
