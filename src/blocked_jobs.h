// Feature matrices and approximate Gram matrices in fixed blocks of rows on
// RcppParallel's threads, written straight into the R result.
#pragma once
#include <Rcpp.h>

#include <algorithm>
#include <atomic>

#include "core/features/approx_gram.h"
#include "core/numerics/dense_product.h"
#include "parallel.h"
#include "result_matrix.h"

namespace askrff {

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

// Runs f(begin, end) over consecutive ranges of kGramBlockRows rows.
template <class RangeFunction>
void run_product_blocks(std::size_t n_rows, int n_threads, const RangeFunction& f) {
  run_blocks((n_rows + kGramBlockRows - 1) / kGramBlockRows, n_threads, [&](std::size_t b) {
    const std::size_t begin = b * kGramBlockRows;
    f(begin, std::min(n_rows, begin + kGramBlockRows));
  });
}

// scale * L R' in blocks of the left side's rows, R stored whole.
inline Rcpp::NumericMatrix gram_by_left_rows(const FeatureRows& left, const ConstFeatures& right_features,
                                             double scale, int n_threads) {
  const std::size_t n = left.n_rows();
  Rcpp::NumericMatrix out = uninitialized_matrix(static_cast<int>(n), static_cast<int>(right_features.rows()));
  double* op = out.begin();
  run_product_blocks(n, n_threads, [&](std::size_t begin, std::size_t end) {
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
  run_product_blocks(n, n_threads, [&](std::size_t begin, std::size_t end) {
    approx_gram_columns(left_features, right, begin, end, scale, op, n_x);
  });
  return out;
}

// Whether every row of `left` equals the same row of `right_features` bit for
// bit: the two sides of a symmetric kernel's map on the same data.
inline bool same_rows(const FeatureRows& left, const ConstFeatures& right_features, int n_threads) {
  const std::size_t n = left.n_rows();
  if (static_cast<std::size_t>(right_features.rows()) != n || right_features.cols() != left.n_columns()) return false;
  std::atomic<bool> same{true};
  run_product_blocks(n, n_threads, [&](std::size_t begin, std::size_t end) {
    if (!same.load()) return;
    const Eigen::Index rows = static_cast<Eigen::Index>(end - begin);
    Eigen::MatrixXd block(rows, left.n_columns());
    left.rows(begin, end, block.data(), static_cast<std::size_t>(rows));
    if (block != right_features.middleRows(static_cast<Eigen::Index>(begin), rows)) same.store(false);
  });
  return same.load();
}

// scale * F F', from the lower triangle's tiles, each computed once and
// copied onto its mirror image by the thread that computed it.
inline Rcpp::NumericMatrix symmetric_gram(const ConstFeatures& f, double scale, int n_threads) {
  const std::size_t n = static_cast<std::size_t>(f.rows()), tiles = (n + kGramBlockRows - 1) / kGramBlockRows;
  Rcpp::NumericMatrix out = uninitialized_matrix(static_cast<int>(n), static_cast<int>(n));
  double* op = out.begin();
  const std::ptrdiff_t ld = static_cast<std::ptrdiff_t>(n);
  // tile b is (i, j), j <= i, in the order (0, 0), (1, 0), (1, 1), (2, 0), ...
  run_blocks(tiles * (tiles + 1) / 2, n_threads, [&](std::size_t b) {
    std::size_t i = 0;
    while ((i + 1) * (i + 2) / 2 <= b) ++i;
    const std::size_t j = b - i * (i + 1) / 2;
    const std::ptrdiff_t r0 = static_cast<std::ptrdiff_t>(i * kGramBlockRows), c0 = static_cast<std::ptrdiff_t>(j * kGramBlockRows);
    const std::ptrdiff_t rows = std::min<std::ptrdiff_t>(kGramBlockRows, ld - r0), cols = std::min<std::ptrdiff_t>(kGramBlockRows, ld - c0);
    const StridedMatrix a = strided(f.middleRows(r0, rows)), bt = strided(f.middleRows(c0, cols)).transpose();
    double* tile = op + r0 + c0 * ld;
    if (i == j) {
      gemm_lower(scale, a, bt, 0.0, tile, ld);
      mirror_lower(tile, rows, ld);
      return;
    }
    gemm(scale, a, bt, 0.0, tile, ld);
    for (std::ptrdiff_t c = 0; c < cols; ++c) {
      for (std::ptrdiff_t r = 0; r < rows; ++r) op[(c0 + c) + (r0 + r) * ld] = tile[r + c * ld];
    }
  });
  return out;
}

}  // namespace askrff
