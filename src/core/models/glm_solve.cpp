#include "core/models/glm_solve.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/numerics/symmetric_eigen.h"

namespace askrff {

namespace {

// A reference's h and m, and its G's lower triangle.
GlmReference centered(const CrossProducts& sums, Eigen::MatrixXd& gram) {
  if (!(sums.weight > 0.0) || !std::isfinite(sums.weight)) {
    throw std::invalid_argument("the reference Hessian needs a positive finite sum of weights");
  }
  GlmReference reference;
  reference.weight = sums.weight;
  reference.mean = sums.z_sum / sums.weight;
  gram = sums.zz;
  gram.triangularView<Eigen::Lower>() -= sums.weight * reference.mean * reference.mean.transpose();
  return reference;
}

}  // namespace

GlmReference glm_factored_reference(const CrossProducts& sums, double lambda, const Poll& poll,
                                    const Progress& progress) {
  if (!(lambda > 0.0) || !std::isfinite(lambda)) throw std::invalid_argument("lambda must be positive and finite");
  Eigen::MatrixXd gram;
  GlmReference reference = centered(sums, gram);
  gram.diagonal().array() += lambda;
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> cholesky(gram);  // in place: gram's lower triangle becomes L
  if (cholesky.info() != Eigen::Success) return glm_reference(sums, poll, progress);
  reference.factor = std::move(gram);
  reference.factored_lambda = lambda;
  progress(1.0);
  return reference;
}

GlmReference glm_reference(const CrossProducts& sums, const Poll& poll, const Progress& progress) {
  Eigen::MatrixXd gram;
  GlmReference reference = centered(sums, gram);
  SymmetricEigen eigen = symmetric_eigen(std::move(gram), true, poll, progress);
  reference.values = eigen.values.reverse().cwiseMax(0.0);
  reference.vectors = eigen.vectors.rowwise().reverse();
  return reference;
}

GlmReference penalty_reference(const GlmReference& last) {
  const Eigen::Index d = last.mean.size();
  GlmReference reference;
  reference.weight = last.weight;
  reference.mean = Eigen::VectorXd::Zero(d);
  reference.values = Eigen::VectorXd::Zero(d);
  reference.vectors = Eigen::MatrixXd::Identity(d, d);
  return reference;
}

Eigen::MatrixXd glm_solve(const GlmReference& reference, const Eigen::MatrixXd& q, const Eigen::VectorXd& scale,
                          const Eigen::VectorXd& lambda) {
  const Eigen::Index d = reference.mean.size(), columns = q.cols();
  if (q.rows() != 1 + d || scale.size() != columns || lambda.size() != columns) {
    throw std::invalid_argument("the right-hand sides must have 1 + D rows and one scale and lambda per column");
  }
  const bool factored = reference.factored_lambda > 0.0;
  for (Eigen::Index j = 0; j < columns; ++j) {
    if (!(lambda(j) > 0.0) || !(scale(j) >= 0.0)) throw std::invalid_argument("lambda must be positive and scales nonnegative");
    if (factored && (scale(j) != 1.0 || lambda(j) != reference.factored_lambda)) {
      throw std::invalid_argument("a factored reference solves for its own lambda at scale 1 only");
    }
  }
  const Eigen::MatrixXd rhs = q.bottomRows(d) - reference.mean * q.row(0);
  Eigen::MatrixXd step(1 + d, columns);
  if (factored) {
    const auto lower = reference.factor.triangularView<Eigen::Lower>();
    step.bottomRows(d) = lower.adjoint().solve(lower.solve(rhs));
  } else {
    Eigen::MatrixXd c = reference.vectors.transpose() * rhs;
    for (Eigen::Index j = 0; j < columns; ++j) c.col(j).array() /= scale(j) * reference.values.array() + lambda(j);
    step.bottomRows(d).noalias() = reference.vectors * c;
  }
  for (Eigen::Index j = 0; j < columns; ++j) {
    step(0, j) = scale(j) > 0.0 ? q(0, j) / (scale(j) * reference.weight) - reference.mean.dot(step.col(j).tail(d)) : 0.0;
  }
  return step;
}

}  // namespace askrff
