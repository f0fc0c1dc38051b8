// Pieces shared by the exact kernels' Gram blocks.
#pragma once
#include <Eigen/Dense>
#include <cmath>

#include "coordinate_scaling.h"
#include "kernels.h"

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
inline Eigen::MatrixXd squared_distances(const Eigen::Ref<const Eigen::MatrixXd>& x_rows,
                                         const ConstMatrixMap& y, const Eigen::VectorXd& y_sqnorm,
                                         const Eigen::VectorXd* shift = nullptr) {
  const Eigen::MatrixXd moved = shift ? Eigen::MatrixXd(x_rows.rowwise() + shift->transpose()) : Eigen::MatrixXd(x_rows);
  const Eigen::VectorXd x_sqnorm = moved.rowwise().squaredNorm();
  Eigen::MatrixXd dist2 = -2.0 * (moved * y.transpose());
  dist2.colwise() += x_sqnorm;
  dist2.rowwise() += y_sqnorm.transpose();
  for (Eigen::Index j = 0; j < dist2.cols(); ++j) {
    for (Eigen::Index i = 0; i < dist2.rows(); ++i) {
      const double value = dist2(i, j);
      if (std::isfinite(value) && value >= 1e-6 * (x_sqnorm[i] + y_sqnorm[j])) continue;
      double direct = 0.0;
      for (Eigen::Index k = 0; k < y.cols(); ++k) {
        const double diff = x_rows(i, k) - y(j, k) + (shift ? (*shift)[k] : 0.0);
        direct += diff * diff;
      }
      dist2(i, j) = direct;
    }
  }
  return dist2;
}

// ||D^-1 (x_i - y_j)||^2 with D = diag(scales): one scale for all
// coordinates, or one per coordinate (the data rescaled, then as above).
inline Eigen::MatrixXd scaled_squared_distances(const Eigen::Ref<const Eigen::MatrixXd>& x_rows,
                                                const ConstMatrixMap& y, const Eigen::VectorXd& y_sqnorm,
                                                const std::vector<double>& scales) {
  if (scales.size() == 1) return squared_distances(x_rows, y, y_sqnorm) / (scales[0] * scales[0]);
  const Eigen::MatrixXd ys = scaled_rows(y, scales);
  const Eigen::VectorXd ys_sqnorm = ys.rowwise().squaredNorm();
  return squared_distances(scaled_rows(x_rows, scales), ConstMatrixMap(ys.data(), ys.rows(), ys.cols()), ys_sqnorm);
}

// Rows [row_begin, row_begin + rows) of the column-major n_x by n_y result.
using OutputBlock = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
inline OutputBlock output_block(double* out, Eigen::Index n_x, Eigen::Index row_begin,
                                Eigen::Index rows, Eigen::Index n_y) {
  return OutputBlock(out + row_begin, rows, n_y, Eigen::OuterStride<>(n_x));
}

}  // namespace askrff
