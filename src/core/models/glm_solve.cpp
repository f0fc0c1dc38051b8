#include "core/models/glm_solve.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/numerics/symmetric_eigen.h"

namespace askrff {

GlmReference glm_reference(const CrossProducts& sums, const Poll& poll, const Progress& progress) {
  if (!(sums.weight > 0.0) || !std::isfinite(sums.weight)) {
    throw std::invalid_argument("the reference Hessian needs a positive finite sum of weights");
  }
  GlmReference reference;
  reference.weight = sums.weight;
  reference.mean = sums.z_sum / sums.weight;
  Eigen::MatrixXd gram = sums.zz;
  gram.triangularView<Eigen::Lower>() -= sums.weight * reference.mean * reference.mean.transpose();
  SymmetricEigen eigen = symmetric_eigen(std::move(gram), true, poll, progress);
  reference.values = eigen.values.reverse().cwiseMax(0.0);
  reference.vectors = eigen.vectors.rowwise().reverse();
  return reference;
}

GlmReference penalty_reference(const GlmReference& last) {
  const Eigen::Index d = last.vectors.rows();
  GlmReference reference;
  reference.weight = last.weight;
  reference.mean = Eigen::VectorXd::Zero(d);
  reference.values = Eigen::VectorXd::Zero(d);
  reference.vectors = Eigen::MatrixXd::Identity(d, d);
  return reference;
}

Eigen::MatrixXd glm_solve(const GlmReference& reference, const Eigen::MatrixXd& q, const Eigen::VectorXd& scale,
                          const Eigen::VectorXd& lambda) {
  const Eigen::Index d = reference.vectors.rows(), columns = q.cols();
  if (q.rows() != 1 + d || scale.size() != columns || lambda.size() != columns) {
    throw std::invalid_argument("the right-hand sides must have 1 + D rows and one scale and lambda per column");
  }
  const Eigen::MatrixXd rhs = q.bottomRows(d) - reference.mean * q.row(0);
  Eigen::MatrixXd c = reference.vectors.transpose() * rhs;
  for (Eigen::Index j = 0; j < columns; ++j) {
    if (!(lambda(j) > 0.0) || !(scale(j) >= 0.0)) throw std::invalid_argument("lambda must be positive and scales nonnegative");
    c.col(j).array() /= scale(j) * reference.values.array() + lambda(j);
  }
  Eigen::MatrixXd step(1 + d, columns);
  step.bottomRows(d).noalias() = reference.vectors * c;
  for (Eigen::Index j = 0; j < columns; ++j) {
    step(0, j) = scale(j) > 0.0 ? q(0, j) / (scale(j) * reference.weight) - reference.mean.dot(step.col(j).tail(d)) : 0.0;
  }
  return step;
}

}  // namespace askrff
