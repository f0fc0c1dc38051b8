// What the path solver (glm_path.h) keeps of its models and references,
// shared by the file of its passes (glm_path.cpp) and that of its steps
// (glm_path_steps.cpp).
#pragma once
#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "core/models/glm_path.h"

namespace askrff {

namespace glm_path_detail {

inline constexpr int kGridSize = 25;
inline constexpr int kMemorySlots = 8;
// the smoothing of a kinked loss along the final fit: each width a third
// of the last; once a width's fit took no more than its first two passes
// (the extrapolated start was its fit already), the next shrinks ten times
// more than that one did, by thirty at most; until the exact criterion
// changes by less than this share of itself, or after this many widths
inline constexpr double kWidthShrink = 3.0;
inline constexpr double kMaxWidthShrink = 30.0;
inline constexpr double kSmoothingTolerance = 1e-9;
inline constexpr int kMaxWidths = 40;
// the steps along a direction at which a kinked loss's passes probe it
inline const std::vector<double> kProbes = [] {
  std::vector<double> t;
  for (int i = 0; i < 16; ++i) t.push_back(std::ldexp(1.0, -i));
  return t;
}();
// passes of the final fit that take its Hessian at the point tried (for a
// loss with kinks of separate predictors every pass does: Newton's method)
inline constexpr int kFinalRefreshPasses[] = {1, 5, 15, 40, 100};
inline const double kNaN = std::numeric_limits<double>::quiet_NaN();
inline const double kInf = std::numeric_limits<double>::infinity();

inline Eigen::MatrixXd gather(const Eigen::MatrixXd& m, const std::vector<int>& models, int k) {
  Eigen::MatrixXd out(m.rows(), static_cast<Eigen::Index>(models.size()) * k);
  for (std::size_t i = 0; i < models.size(); ++i) {
    out.middleCols(static_cast<Eigen::Index>(i) * k, k) = m.middleCols(static_cast<Eigen::Index>(models[i]) * k, k);
  }
  return out;
}

// The sum over a model's columns of the products of two coefficient blocks,
// without the intercept row when `penalized`.
template <class A, class B>
double block_dot(const A& a, const B& b, bool penalized) {
  const Eigen::Index skip = penalized ? 1 : 0;
  return a.bottomRows(a.rows() - skip).cwiseProduct(b.bottomRows(b.rows() - skip)).sum();
}


}  // namespace glm_path_detail

using namespace glm_path_detail;

struct GlmPath::Reference {
  Eigen::MatrixXd rotation;  // K x K: the classes in the basis of A's eigenvectors
  Eigen::VectorXd scale;     // K: A's eigenvalues
  std::vector<std::shared_ptr<const GlmReference>> eigens;  // per class
  double lambda;             // where it was taken; Inf for the intercept-only model
};

struct GlmPath::Models {
  Models(std::vector<double> lambdas, std::vector<int> folds, const Eigen::MatrixXd& start, int k)
      : classes(k),
        lambda(std::move(lambdas)),
        fold(std::move(folds)),
        memory(kMemorySlots, start.rows(), static_cast<int>(lambda.size()), k) {
    const std::size_t n = lambda.size();
    const Eigen::Index columns = static_cast<Eigen::Index>(n) * k;
    beta = start.cols() == columns ? start : start.replicate(1, static_cast<Eigen::Index>(n));
    trial = beta;
    direction = gradient = Eigen::MatrixXd::Zero(beta.rows(), columns);
    objective.assign(n, kInf);
    step.assign(n, 1.0);
    deviance = exact = heldout = heldout_weight = std::vector<double>(n, kNaN);
    scale.assign(n, 1.0);
    decrement.assign(n, kInf);
    reference.assign(n, 0);
    age.assign(n, 0);
    converged.assign(n, 0);
    pruned.assign(n, 0);
    started.assign(n, 1);
  }
  int size() const { return static_cast<int>(lambda.size()); }
  Eigen::MatrixXd::ColsBlockXpr of(Eigen::MatrixXd& m, int model) const {
    return m.middleCols(static_cast<Eigen::Index>(model) * classes, classes);
  }
  Eigen::MatrixXd::ConstColsBlockXpr of(const Eigen::MatrixXd& m, int model) const {
    return m.middleCols(static_cast<Eigen::Index>(model) * classes, classes);
  }
  // the penalty's gradient lambda b (none on the intercept)
  Eigen::MatrixXd penalty_gradient(const Eigen::MatrixXd& b, double l) const {
    Eigen::MatrixXd g = l * b;
    g.row(0).setZero();
    return g;
  }

  int classes;
  std::vector<double> lambda;
  std::vector<int> fold;
  Eigen::MatrixXd beta, trial, direction, gradient;
  // deviance and exact: half the training rows' loss with and without the
  // smoothing of a kinked loss (equal for the others)
  std::vector<double> objective, step, deviance, exact, heldout, heldout_weight, scale, decrement;
  std::vector<int> reference, age;
  std::vector<char> converged, pruned, started;
  LbfgsMemory memory;
};

}  // namespace askrff
