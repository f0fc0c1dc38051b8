// The steps of the path solver (glm_path.h) between passes: moves along a
// fold's path, the start of the next penalty, the L-BFGS directions from the
// references, and the cross-validated path that stops it.
#include <algorithm>
#include <cmath>

#include "core/models/glm_path.h"
#include "core/models/glm_path_state.h"

namespace askrff {

int GlmPath::nearest_reference(double lambda) const {
  int best = -1, null = -1;
  double top = -kInf;
  for (std::size_t r = 0; r < references_.size(); ++r) {
    const double at = references_[r].lambda;
    if (!std::isfinite(at)) {
      if (null < 0) null = static_cast<int>(r);
      continue;
    }
    top = std::max(top, at);
    if (best < 0 || std::abs(std::log(at) - std::log(lambda)) <
                        std::abs(std::log(references_[static_cast<std::size_t>(best)].lambda) - std::log(lambda))) {
      best = static_cast<int>(r);
    }
  }
  return best < 0 || lambda > 10.0 * top ? null : best;
}

// The models of one fold differ only in lambda, so every accepted point of
// the fold's path is a point of each of its models, whose criterion there is
// known without a pass: half the deviance + lambda / 2 ||b||^2. A model moves
// to the best of them when that is lower than its own, so the small
// penalties, the slowest to converge, start from where the larger ones have
// got to.
void GlmPath::share_points(const std::vector<int>& active, std::vector<int>& moved) {
  Models& s = *models_;
  // the points as they were before any model moves
  struct {
    Eigen::MatrixXd beta, gradient;
    std::vector<double> objective, deviance, exact, heldout, heldout_weight;
  } const before{s.beta, s.gradient, s.objective, s.deviance, s.exact, s.heldout, s.heldout_weight};
  std::vector<double> norms(static_cast<std::size_t>(s.size()));
  for (int m = 0; m < s.size(); ++m) norms[m] = block_dot(s.of(before.beta, m), s.of(before.beta, m), true);
  std::vector<int> folds;
  for (const int m : active) {
    if (std::find(folds.begin(), folds.end(), s.fold[m]) == folds.end()) folds.push_back(s.fold[m]);
  }
  for (const int f : folds) {
    std::vector<int> points;
    for (int m = 0; m < s.size(); ++m) {
      if (s.fold[m] == f && std::isfinite(before.objective[m])) points.push_back(m);
    }
    for (const int m : active) {
      if (s.fold[m] != f) continue;
      int best = -1;
      double value = kInf;
      for (const int q : points) {
        const double v = before.deviance[q] + s.lambda[m] / 2.0 * norms[q];
        if (best < 0 || v < value) {
          best = q;
          value = v;
        }
      }
      if (best < 0 || best == m || !(value < s.objective[m] - 1e-12 * std::abs(s.objective[m]))) continue;
      s.of(s.beta, m) = s.of(before.beta, best);
      s.of(s.gradient, m) = s.of(before.gradient, best) + s.penalty_gradient(s.of(before.beta, best), s.lambda[m] - s.lambda[best]);
      s.objective[m] = value;
      s.deviance[m] = before.deviance[best];
      s.exact[m] = before.exact[best];
      s.heldout[m] = before.heldout[best];
      s.heldout_weight[m] = before.heldout_weight[best];
      if (std::find(moved.begin(), moved.end(), m) == moved.end()) moved.push_back(m);
    }
  }
}

// The next penalty of the path starts once the models of the smallest
// started one are near their minimum (a relative decrease of 1e-3 left):
// each of its models from the point, the curvature memory and the reference
// of the same fold's model there. Started all at once from the
// intercept-only fit, the small penalties would spend many passes far from
// their minimum.
void GlmPath::start_next() {
  Models& s = *models_;
  std::size_t frontier = 0;
  for (std::size_t l = 0; l < grid_.size(); ++l) {
    for (int m = 0; m < s.size(); ++m) {
      if (s.started[m] && s.lambda[m] == grid_[l]) frontier = l;
    }
  }
  if (frontier + 1 == grid_.size()) return;
  std::vector<int> from, to;
  for (int m = 0; m < s.size(); ++m) {
    if (s.lambda[m] == grid_[frontier]) {
      if (!(s.converged[m] || s.pruned[m] || s.decrement[m] < 1e-3)) return;
      from.push_back(m);
    }
    if (s.lambda[m] == grid_[frontier + 1] && !s.pruned[m]) to.push_back(m);
  }
  if (to.empty()) return;
  for (const int t : to) {
    const int f = *std::find_if(from.begin(), from.end(), [&](int m) { return s.fold[m] == s.fold[t]; });
    s.of(s.beta, t) = s.of(s.beta, f);
    s.of(s.gradient, t) = s.of(s.gradient, f) + s.penalty_gradient(s.of(s.beta, f), s.lambda[t] - s.lambda[f]);
    s.objective[t] = s.deviance[f] + s.lambda[t] / 2.0 * block_dot(s.of(s.beta, f), s.of(s.beta, f), true);
    s.deviance[t] = s.deviance[f];
    s.exact[t] = s.exact[f];
    s.heldout[t] = s.heldout[f];
    s.heldout_weight[t] = s.heldout_weight[f];
    s.memory.copy(f, t);
    s.reference[t] = nearest_reference(s.lambda[t]);
    s.started[t] = 1;
  }
  const Eigen::MatrixXd d = directions(to);
  for (std::size_t j = 0; j < to.size(); ++j) {
    const int t = to[j];
    s.of(s.direction, t) = d.middleCols(static_cast<Eigen::Index>(j) * classes_, classes_);
    s.step[t] = 1.0;
    s.of(s.trial, t) = s.of(s.beta, t) + s.of(s.direction, t);
  }
}

// Limited-memory BFGS directions for models `ms` at their accepted points,
// each with the initial inverse Hessian of its reference.
Eigen::MatrixXd GlmPath::directions(const std::vector<int>& ms) const {
  const Models& s = *models_;
  return -s.memory.apply(ms, gather(s.gradient, ms, classes_),
                         [&](const Eigen::MatrixXd& q) { return precondition(q, ms); });
}

// (a H + lambda P)^{-1} q for the columns of models `ms`, each with its
// reference: classes rotated into the reference's basis, solved class by
// class, rotated back; the softmax's coefficients sum to zero over the
// classes (the penalty drives them there, and centering never raises the
// criterion); one-vs-rest's classes and the predictors of levels are
// separate problems.
Eigen::MatrixXd GlmPath::precondition(const Eigen::MatrixXd& q, const std::vector<int>& ms) const {
  const Models& s = *models_;
  const int k = classes_;
  Eigen::MatrixXd out(q.rows(), q.cols());
  std::vector<int> used;
  for (const int m : ms) {
    if (std::find(used.begin(), used.end(), s.reference[m]) == used.end()) used.push_back(s.reference[m]);
  }
  for (const int r : used) {
    const Reference& ref = references_[static_cast<std::size_t>(r)];
    std::vector<Eigen::Index> these;
    for (std::size_t i = 0; i < ms.size(); ++i) {
      if (s.reference[ms[i]] == r) these.push_back(static_cast<Eigen::Index>(i));
    }
    const Eigen::Index n = static_cast<Eigen::Index>(these.size());
    std::vector<Eigen::MatrixXd> solved(static_cast<std::size_t>(k));
    for (int j = 0; j < k; ++j) {
      Eigen::MatrixXd rotated = Eigen::MatrixXd::Zero(q.rows(), n);
      Eigen::VectorXd scale(n), lambda(n);
      for (Eigen::Index i = 0; i < n; ++i) {
        for (int c = 0; c < k; ++c) rotated.col(i) += ref.rotation(c, j) * q.col(these[i] * k + c);
        scale(i) = ref.scale(j) * s.scale[ms[these[i]]];
        lambda(i) = s.lambda[ms[these[i]]];
      }
      solved[static_cast<std::size_t>(j)] = glm_solve(*ref.eigens[static_cast<std::size_t>(j)], rotated, scale, lambda);
    }
    for (Eigen::Index i = 0; i < n; ++i) {
      for (int c = 0; c < k; ++c) {
        auto column = out.col(these[i] * k + c);
        column.setZero();
        for (int j = 0; j < k; ++j) column += ref.rotation(c, j) * solved[static_cast<std::size_t>(j)].col(i);
      }
    }
  }
  if (softmax_) {
    for (Eigen::Index i = 0; i < out.cols() / k; ++i) {
      auto block = out.middleCols(i * k, k);
      const Eigen::VectorXd mean = block.rowwise().sum() / k;
      block.colwise() -= mean;
    }
  }
  return out;
}

// The cross-validated deviance per unit weight at the first `lambdas` of the
// grid, with its standard error across folds; NaN where the path stopped
// before the lambda.
std::vector<GlmPathRow> GlmPath::cv_path(int lambdas) const {
  const Models& s = *models_;
  std::vector<GlmPathRow> rows;
  for (int l = 0; l < lambdas; ++l) {
    const double lambda = grid_[static_cast<std::size_t>(l)];
    GlmPathRow row{lambda, kNaN, kNaN, kNaN, true};
    bool pruned = false;
    double heldout = 0.0, weight = 0.0, deviance = kNaN;
    std::vector<double> per_fold;
    for (int m = 0; m < s.size(); ++m) {
      if (s.lambda[m] != lambda) continue;
      pruned = pruned || s.pruned[m];
      row.converged = row.converged && s.converged[m];
      if (s.fold[m] == 0) deviance = 2.0 * s.exact[m];
      // folds whose rows all have zero weight hold nothing out
      if (s.fold[m] > 0 && s.heldout_weight[m] > 0.0) {
        heldout += s.heldout[m];
        weight += s.heldout_weight[m];
        per_fold.push_back(2.0 * s.heldout[m] / s.heldout_weight[m]);
      }
    }
    if (pruned) {
      row.converged = false;
    } else {
      row.cv = 2.0 * heldout / weight;
      row.deviance = deviance;
      row.cv_se = 0.0;
      if (per_fold.size() > 1) {
        double mean = 0.0, squares = 0.0;
        for (const double v : per_fold) mean += v;
        mean /= static_cast<double>(per_fold.size());
        for (const double v : per_fold) squares += (v - mean) * (v - mean);
        row.cv_se = std::sqrt(squares / static_cast<double>(per_fold.size() - 1) / static_cast<double>(per_fold.size()));
      }
    }
    rows.push_back(row);
  }
  return rows;
}

// The models to leave: like glmnet's, the path stops early, once the
// penalties from the largest down have converged and their cross-validated
// deviance has risen at each of the last two past its minimum; the fits at
// smaller penalties overfit more, and near-separable data make them the
// slowest to converge.
std::vector<int> GlmPath::pruned() const {
  const Models& s = *models_;
  const int size = static_cast<int>(grid_.size());
  int prefix = 0;
  while (prefix < size) {
    bool all = true;
    for (int m = 0; m < s.size(); ++m) all = all && (s.lambda[m] != grid_[static_cast<std::size_t>(prefix)] || s.converged[m]);
    if (!all) break;
    ++prefix;
  }
  if (prefix < 4 || prefix == size) return {};
  const std::vector<GlmPathRow> rows = cv_path(prefix);
  int lowest = -1;
  for (int l = 0; l < prefix; ++l) {
    if (!std::isnan(rows[l].cv) && (lowest < 0 || rows[l].cv < rows[lowest].cv)) lowest = l;
  }
  const bool rising = lowest >= 0 && lowest <= prefix - 3 && rows[prefix - 2].cv - rows[prefix - 3].cv > 0.0 &&
                      rows[prefix - 1].cv - rows[prefix - 2].cv > 0.0;
  std::vector<int> out;
  if (!rising) return out;
  for (int m = 0; m < s.size(); ++m) {
    if (s.lambda[m] < grid_[static_cast<std::size_t>(prefix - 1)] && !s.converged[m]) out.push_back(m);
  }
  return out;
}

}  // namespace askrff
