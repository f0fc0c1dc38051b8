// Pieces shared by the exact kernels' Gram blocks.
#pragma once
#include <Eigen/Dense>

#include "kernels.h"

namespace askrff {

// ||x_i - y_j||^2 for a block of rows of x, by the GEMM expansion; clamped at
// 0 because rounding can make it slightly negative for near-identical points.
inline Eigen::MatrixXd squared_distances(const Eigen::Ref<const Eigen::MatrixXd>& x_rows,
                                         const ConstMatrixMap& y, const Eigen::VectorXd& y_sqnorm) {
  Eigen::MatrixXd dist2 = -2.0 * (x_rows * y.transpose());
  dist2.colwise() += x_rows.rowwise().squaredNorm();
  dist2.rowwise() += y_sqnorm.transpose();
  return dist2.cwiseMax(0.0);
}

// Rows [row_begin, row_begin + rows) of the column-major n_x by n_y result.
using OutputBlock = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
inline OutputBlock output_block(double* out, Eigen::Index n_x, Eigen::Index row_begin,
                                Eigen::Index rows, Eigen::Index n_y) {
  return OutputBlock(out + row_begin, rows, n_y, Eigen::OuterStride<>(n_x));
}

}  // namespace askrff
