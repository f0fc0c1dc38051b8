#include "core/models/ridge_posterior.h"

#include <algorithm>

#include "core/numerics/dense_product.h"

namespace askrff {

Eigen::VectorXd posterior_quadratic_form(const Eigen::MatrixXd& z, const RidgePosterior& posterior) {
  const Eigen::MatrixXd centered = z.rowwise() - posterior.z_mean.transpose();
  Eigen::MatrixXd a(centered.rows(), posterior.vectors.cols());
  gemm(1.0, strided(centered), strided(posterior.vectors), 0.0, a.data(), a.rows());
  const Eigen::ArrayXd inverse = (posterior.values.array() + posterior.lambda).inverse();
  const Eigen::VectorXd within = a.array().square().matrix() * inverse.matrix();
  if (posterior.vectors.cols() == posterior.vectors.rows()) return within;
  // Outside the span: |z - m|^2 - |a|^2, which rounding may leave slightly negative.
  const Eigen::ArrayXd outside =
      (centered.rowwise().squaredNorm() - a.rowwise().squaredNorm()).array().max(0.0);
  return within + (outside / posterior.lambda).matrix();
}

}  // namespace askrff
