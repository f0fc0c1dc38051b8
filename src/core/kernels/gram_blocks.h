// Pieces shared by the exact kernels' Gram blocks.
#pragma once
#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include "core/kernels/kernels.h"
#include "core/numerics/dense_product.h"

namespace askrff {

// ||x_i - y_j||^2 for a block of rows of x, by the GEMM expansion
// ||x||^2 + ||y||^2 - 2 x'y. Its rounding error is about eps (||x||^2 + ||y||^2),
// so where the distance is below 1e-6 of that (near-identical points) or the
// expansion overflows, the entry is recomputed from the differences: exact zero
// for equal points, and +Inf, not NaN, for points too far apart to square.
// Callers centre the data first (kernel_matrix does), which keeps the
// expansion accurate under any common offset. With a shift r the distances
// are ||x_i - y_j + r||^2, the differences taken before r is added so that
// r is not lost to the scale of the data.
// The result goes to out (x_rows.rows() by y.rows(), leading dimension ld);
// column_done(column) sees each column as soon as it is final, while it is
// in cache.
template <class ColumnDone>
void squared_distances(const Eigen::Ref<const Eigen::MatrixXd>& x_rows, const ConstMatrixMap& y,
                       const Eigen::VectorXd& y_sqnorm, const Eigen::VectorXd* shift, double* out, std::ptrdiff_t ld,
                       const ColumnDone& column_done) {
  const Eigen::MatrixXd moved = shift ? Eigen::MatrixXd(x_rows.rowwise() + shift->transpose()) : Eigen::MatrixXd(x_rows);
  const Eigen::VectorXd x_sqnorm = moved.rowwise().squaredNorm();
  gemm(-2.0, strided(moved), strided(y).transpose(), 0.0, out, ld);
  for (Eigen::Index j = 0; j < y.rows(); ++j) {
    double* column = out + j * ld;
    for (Eigen::Index i = 0; i < moved.rows(); ++i) {
      const double value = column[i] + x_sqnorm[i] + y_sqnorm[j];
      column[i] = value;
      if (std::isfinite(value) && value >= 1e-6 * (x_sqnorm[i] + y_sqnorm[j])) continue;
      double direct = 0.0;
      for (Eigen::Index k = 0; k < y.cols(); ++k) {
        const double diff = x_rows(i, k) - y(j, k) + (shift ? (*shift)[k] : 0.0);
        direct += diff * diff;
      }
      column[i] = direct;
    }
    column_done(column);
  }
}

inline Eigen::MatrixXd squared_distances(const Eigen::Ref<const Eigen::MatrixXd>& x_rows,
                                         const ConstMatrixMap& y, const Eigen::VectorXd& y_sqnorm,
                                         const Eigen::VectorXd* shift = nullptr) {
  Eigen::MatrixXd dist2(x_rows.rows(), y.rows());
  squared_distances(x_rows, y, y_sqnorm, shift, dist2.data(), dist2.rows(), [](double*) {});
  return dist2;
}

// A block's data in units of the kernel's length scales: coordinate k divided
// by sigma_k, and all by one power of two 2^exponent, which is 1 unless the
// largest scaled coordinate is beyond 2^+-480, where squares would overflow
// or underflow; then it brings that coordinate near 1. Dividing before
// squaring keeps r = ||D^-1 (x - y)|| as accurate as for sigma = 1 where
// sigma^2 or ||x - y||^2 leaves the doubles (sigma below 1e-154, data and
// sigma near 1e300), and a power of two changes no digit. Only pairs
// closer than 2^-500 of the block's largest scaled coordinate lose their
// distance to underflow, as they would with sigma = 1.
struct UnitData {
  Eigen::MatrixXd x, y;
  Eigen::VectorXd y_sqnorm;
  int exponent = 0;
  // ||x_i - y_j + shift||^2 in these units, the shift given in units of the
  // scales (not yet divided by 2^exponent).
  Eigen::MatrixXd squared_distances(const Eigen::VectorXd* shift = nullptr) const;
  // The same, unshifted, into out (leading dimension ld), each column
  // passed to column_done(column) when final.
  template <class ColumnDone>
  void squared_distances(double* out, std::ptrdiff_t ld, const ColumnDone& column_done) const {
    askrff::squared_distances(x, ConstMatrixMap(y.data(), y.rows(), y.cols()), y_sqnorm, nullptr, out, ld,
                              column_done);
  }
  // r, or r^2, from a squared distance in these units: Inf only where it overflows.
  double distance(double squared) const {
    return exponent == 0 ? std::sqrt(squared) : std::ldexp(std::sqrt(squared), exponent);
  }
  double squared(double squared) const { return exponent == 0 ? squared : std::ldexp(squared, 2 * exponent); }
};

// One scale for all coordinates, or one per coordinate.
UnitData unit_data(const Eigen::Ref<const Eigen::MatrixXd>& x_rows, const ConstMatrixMap& y,
                   const std::vector<double>& scales);

// Rows [row_begin, row_begin + rows) of the column-major n_x by n_y result.
using OutputBlock = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
inline OutputBlock output_block(double* out, Eigen::Index n_x, Eigen::Index row_begin,
                                Eigen::Index rows, Eigen::Index n_y) {
  return OutputBlock(out + row_begin, rows, n_y, Eigen::OuterStride<>(n_x));
}

}  // namespace askrff
