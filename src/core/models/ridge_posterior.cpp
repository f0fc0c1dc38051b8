#include "core/models/ridge_posterior.h"

#include <algorithm>

namespace askrff {

Eigen::VectorXd posterior_quadratic_form(const Eigen::MatrixXd& z, const RidgePosterior& posterior) {
  const Eigen::MatrixXd centered = z.rowwise() - posterior.z_mean.transpose();
  const Eigen::MatrixXd a = centered * posterior.vectors;
  const Eigen::ArrayXd inverse = (posterior.values.array() + posterior.lambda).inverse();
  const Eigen::VectorXd within = a.array().square().matrix() * inverse.matrix();
  if (posterior.vectors.cols() == posterior.vectors.rows()) return within;
  // Outside the span: |z - m|^2 - |a|^2, which rounding may leave slightly negative.
  const Eigen::ArrayXd outside =
      (centered.rowwise().squaredNorm() - a.rowwise().squaredNorm()).array().max(0.0);
  return within + (outside / posterior.lambda).matrix();
}

}  // namespace askrff
