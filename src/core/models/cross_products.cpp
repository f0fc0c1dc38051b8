#include "core/models/cross_products.h"

#include <algorithm>

#include "core/numerics/dense_product.h"

namespace askrff {

CrossProducts::CrossProducts(int n_columns, int n_responses)
    : zz(Eigen::MatrixXd::Zero(n_columns, n_columns)),
      zy(Eigen::MatrixXd::Zero(n_columns, n_responses)),
      z_sum(Eigen::VectorXd::Zero(n_columns)),
      y_sum(Eigen::VectorXd::Zero(n_responses)),
      y_squares(Eigen::VectorXd::Zero(n_responses)) {}

int n_panels(int n_columns) { return (n_columns + kPanelWidth - 1) / kPanelWidth; }

void add_panel(CrossProducts& sums, const Eigen::MatrixXd& z, const Eigen::MatrixXd& weighted_z,
               const Eigen::MatrixXd& y, int panel) {
  const Eigen::Index columns = z.cols();
  const Eigen::Index begin = static_cast<Eigen::Index>(panel) * kPanelWidth;
  const Eigen::Index width = std::min<Eigen::Index>(kPanelWidth, columns - begin);
  // Rows begin.. of these columns: the panel's part of the lower triangle,
  // with the strict upper part of its diagonal block, which is never read.
  gemm(1.0, strided(z.rightCols(columns - begin)).transpose(), strided(weighted_z.middleCols(begin, width)), 1.0,
       &sums.zz(begin, begin), sums.zz.rows());
  if (y.cols() > 0) {  // the GLM's Hessians carry no response
    gemm(1.0, strided(weighted_z.middleCols(begin, width)).transpose(), strided(y), 1.0, &sums.zy(begin, 0),
         sums.zy.rows());
  }
  sums.z_sum.segment(begin, width) += weighted_z.middleCols(begin, width).colwise().sum().transpose();
}

void add_responses(CrossProducts& sums, const Eigen::MatrixXd& y, const Eigen::VectorXd& w) {
  sums.y_sum.noalias() += y.transpose() * w;
  sums.y_squares.noalias() += y.array().square().matrix().transpose() * w;
  sums.weight += w.sum();
  sums.n += static_cast<double>((w.array() > 0.0).count());
  sums.log_weight += (w.array() > 0.0).select(w.array().log(), 0.0).sum();
}

}  // namespace askrff
