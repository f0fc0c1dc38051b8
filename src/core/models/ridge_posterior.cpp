#include "core/models/ridge_posterior.h"

#include <algorithm>

#include "core/numerics/dense_product.h"

namespace askrff {

Eigen::MatrixXd posterior_quadratic_form(const Eigen::MatrixXd& z, const RidgePosterior& posterior) {
  const Eigen::MatrixXd centered = z.rowwise() - posterior.z_mean.transpose();
  Eigen::MatrixXd a(centered.rows(), posterior.vectors.cols());
  gemm(1.0, strided(centered), strided(posterior.vectors), 0.0, a.data(), a.rows());
  const Eigen::Index lambdas = posterior.lambda.size();
  Eigen::MatrixXd inverse(posterior.values.size(), lambdas);
  for (Eigen::Index l = 0; l < lambdas; ++l) {
    inverse.col(l) = (posterior.values.array() + posterior.lambda(l)).inverse().matrix();
  }
  Eigen::MatrixXd within = a.array().square().matrix() * inverse;
  if (posterior.vectors.cols() == posterior.vectors.rows()) return within;
  // Outside the span: |z - m|^2 - |a|^2, which rounding may leave slightly negative.
  const Eigen::VectorXd outside =
      (centered.rowwise().squaredNorm() - a.rowwise().squaredNorm()).array().max(0.0).matrix();
  for (Eigen::Index l = 0; l < lambdas; ++l) within.col(l) += outside / posterior.lambda(l);
  return within;
}

}  // namespace askrff
