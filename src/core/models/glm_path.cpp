#include "core/models/glm_path.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace askrff {

namespace {

constexpr int kGridSize = 25;
constexpr int kMemorySlots = 8;
// passes of the final fit that take its Hessian at the point tried, for
// several classes (for one, every pass does: Newton's method, whose few
// steps each cost one Hessian)
constexpr int kFinalRefreshPasses[] = {1, 5, 15, 40, 100};
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

Eigen::MatrixXd gather(const Eigen::MatrixXd& m, const std::vector<int>& models, int k) {
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

}  // namespace

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
    deviance = heldout = heldout_weight = null_half = std::vector<double>(n, kNaN);
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
  std::vector<double> objective, step, deviance, heldout, heldout_weight, scale, null_half, decrement;
  std::vector<int> reference, age;
  std::vector<char> converged, pruned, started;
  LbfgsMemory memory;
};

GlmPath::~GlmPath() = default;

GlmPath::GlmPath(const GlmPathSetup& setup, const Poll& poll, const Progress& progress) {
  classes_ = static_cast<int>(setup.mean.size());
  p_ = 1 + setup.gram.zz.rows();
  total_weight_ = setup.gram.weight;
  const bool counts = setup.family.response == ResponseKind::counts;
  if (classes_ != 1 && setup.family.response != ResponseKind::classes) {
    throw std::invalid_argument("a family of one predictor needs one mean response");
  }
  for (const double m : setup.mean) {
    if (!(m > 0.0) || !std::isfinite(m) || (!counts && !(m < 1.0))) {
      throw std::invalid_argument("the mean responses must be positive and finite, and below 1 for classes");
    }
  }
  if (setup.nfolds < 2) throw std::invalid_argument("the number of folds must be at least 2");
  for (const double l : setup.lambda) {
    if (!(l > 0.0) || !std::isfinite(l)) throw std::invalid_argument("every lambda must be positive and finite");
  }
  Eigen::VectorXd intercept(classes_);
  Eigen::MatrixXd a_matrix(classes_, classes_);
  setup.family.null_model(setup.mean.data(), classes_, intercept.data(), a_matrix.data());
  auto gram = std::make_shared<const GlmReference>(glm_reference(setup.gram, poll, progress));
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> a(a_matrix);
  Reference null;
  null.rotation = a.eigenvectors().rowwise().reverse();
  null.scale = a.eigenvalues().reverse().cwiseMax(0.0);
  null.eigens.assign(static_cast<std::size_t>(classes_), gram);
  null.lambda = kInf;
  null_reference_ = std::make_shared<const Reference>(std::move(null));
  double top = gram->values(0) * a.eigenvalues().maxCoeff();
  if (!(top > 0.0)) top = 1.0;
  if (setup.lambda.empty()) {
    for (int i = 0; i < kGridSize; ++i) grid_.push_back(top * std::pow(10.0, 1.0 - 0.25 * i));
  } else {
    grid_ = setup.lambda;
    std::sort(grid_.begin(), grid_.end(), std::greater<double>());
  }
  Eigen::MatrixXd start = Eigen::MatrixXd::Zero(p_, classes_);
  start.row(0) = intercept.transpose();
  if (grid_.size() > 1) {
    // references after the first passes: about one lambda in a hundred,
    // from the smallest up to a tenth of the intercept-only model's largest
    // curvature (larger penalties leave that model nearly as it is, and its
    // Hessian serves them)
    const double smallest = grid_.back();
    for (double wanted = smallest; wanted <= std::max(smallest, top / 10.0); wanted *= 100.0) {
      const auto nearest = std::min_element(grid_.begin(), grid_.end(), [&](double u, double v) {
        return std::abs(std::log(u) - std::log(wanted)) < std::abs(std::log(v) - std::log(wanted));
      });
      if (std::find(reference_lambdas_.begin(), reference_lambdas_.end(), *nearest) == reference_lambdas_.end()) {
        reference_lambdas_.push_back(*nearest);
      }
    }
    std::vector<double> lambdas;
    std::vector<int> folds;
    for (const double l : grid_) {
      for (int f = 0; f <= setup.nfolds; ++f) {
        lambdas.push_back(l);
        folds.push_back(f);
      }
    }
    models_ = std::make_unique<Models>(std::move(lambdas), std::move(folds), start, classes_);
    for (int m = 0; m < models_->size(); ++m) models_->started[static_cast<std::size_t>(m)] = models_->lambda[m] == grid_[0];
    result_.cross_validated = true;
    start_run(false);
  } else {
    models_ = std::make_unique<Models>(grid_, std::vector<int>{0}, start, classes_);
    start_run(true);
  }
}

bool GlmPath::done() const { return done_; }

const GlmPassRequest& GlmPath::request() const {
  if (done_) throw std::logic_error("the path is solved: it needs no more passes");
  return request_;
}

const GlmPathResult& GlmPath::result() const {
  if (!done_) throw std::logic_error("the path is not solved yet");
  return result_;
}

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

void GlmPath::start_run(bool final) {
  final_ = final;
  tolerance_ = final ? 1e-20 : 1e-8;
  passes_ = 0;
  first_ = true;
  references_.assign(1, *null_reference_);
  Models& s = *models_;
  active_.clear();
  for (int m = 0; m < s.size(); ++m) {
    s.reference[static_cast<std::size_t>(m)] = nearest_reference(s.lambda[static_cast<std::size_t>(m)]);
    if (s.started[static_cast<std::size_t>(m)]) active_.push_back(m);
  }
  prepare_pass();
}

void GlmPath::prepare_pass() {
  ++passes_;
  const Models& s = *models_;
  refresh_.clear();
  if (final_) {
    // the Hessian at the point tried
    if (classes_ == 1 || std::find(std::begin(kFinalRefreshPasses), std::end(kFinalRefreshPasses), passes_) !=
                             std::end(kFinalRefreshPasses)) {
      refresh_ = active_;
    }
  } else {
    // at each reference lambda's full-data fit three passes after it starts
    for (int m = 0; m < s.size(); ++m) {
      const std::size_t i = static_cast<std::size_t>(m);
      if (s.fold[i] == 0 && !s.pruned[i] && s.age[i] == 3 &&
          std::find(reference_lambdas_.begin(), reference_lambdas_.end(), s.lambda[i]) != reference_lambdas_.end()) {
        refresh_.push_back(m);
      }
    }
  }
  request_.coefficients = gather(s.trial, active_, classes_);
  request_.fold.clear();
  for (const int m : active_) request_.fold.push_back(s.fold[static_cast<std::size_t>(m)]);
  request_.references = gather(final_ ? s.trial : s.beta, refresh_, classes_);
}

void GlmPath::advance(const GlmSums& sums, const Poll& poll, const Progress& progress) {
  if (done_) throw std::logic_error("the path is solved: it needs no more passes");
  Models& s = *models_;
  const int k = classes_;
  const std::size_t n_active = active_.size();
  if (sums.gradient.rows() != p_ || sums.gradient.cols() != static_cast<Eigen::Index>(n_active) * k ||
      sums.deviance.size() != static_cast<Eigen::Index>(n_active) || sums.heldout.size() != sums.deviance.size() ||
      sums.heldout_weight.size() != sums.deviance.size() || sums.hessians.size() != refresh_.size() * k) {
    throw std::invalid_argument("the pass's sums must be those of the models and references requested");
  }
  std::vector<double> objective(n_active), slope(n_active);
  Eigen::MatrixXd gradient(p_, static_cast<Eigen::Index>(n_active) * k);
  for (std::size_t i = 0; i < n_active; ++i) {
    const int m = active_[i];
    const Eigen::Index c = static_cast<Eigen::Index>(i) * k;
    const auto trial = s.of(s.trial, m);
    objective[i] = sums.deviance(static_cast<Eigen::Index>(i)) + s.lambda[m] / 2.0 * block_dot(trial, trial, true);
    gradient.middleCols(c, k) = -sums.gradient.middleCols(c, k) + s.penalty_gradient(trial, s.lambda[m]);
    slope[i] = block_dot(s.of(s.gradient, m), s.of(s.direction, m), false);
  }
  if (first_) {
    // every model starts at the intercept-only fit of its fold
    for (int m = 0; m < s.size(); ++m) {
      const std::size_t at = static_cast<std::size_t>(
          std::find_if(active_.begin(), active_.end(), [&](int a) { return s.fold[a] == s.fold[m]; }) - active_.begin());
      if (at == n_active) continue;
      s.null_half[m] = sums.deviance(static_cast<Eigen::Index>(at));
      s.scale[m] = s.fold[m] == 0 ? 1.0 : (total_weight_ - sums.heldout_weight(static_cast<Eigen::Index>(at))) / total_weight_;
    }
  }
  for (int m = 0; m < s.size(); ++m) s.age[m] += s.started[m] ? 1 : 0;
  std::vector<char> accepted(n_active);
  for (std::size_t i = 0; i < n_active; ++i) {
    const int m = active_[i];
    accepted[i] = std::isfinite(objective[i]) && (first_ || objective[i] <= s.objective[m] + 1e-4 * s.step[m] * slope[i]);
    if (final_ && !first_ && std::isfinite(objective[i])) {
      // near the minimum the criterion's rounding hides a decrease that the
      // gradient still shows: a step that halves the gradient's norm is taken too
      const Eigen::Index c = static_cast<Eigen::Index>(i) * k;
      const double now = gradient.middleCols(c, k).squaredNorm(), before = s.of(s.gradient, m).squaredNorm();
      accepted[i] = accepted[i] || now < before / 4.0;
    }
  }
  std::vector<int> good, good_local;
  for (std::size_t i = 0; i < n_active; ++i) {
    const int m = active_[i];
    if (accepted[i]) {
      good.push_back(m);
      good_local.push_back(static_cast<int>(i));
      continue;
    }
    // backtrack to the minimum of the quadratic through the criterion's
    // value and slope, within a tenth and a half of the step
    const double t = s.step[m], curvature = objective[i] - s.objective[m] - slope[i] * t;
    const double shrink = std::isfinite(objective[i]) && curvature > 0.0 ? -slope[i] * t / (2.0 * curvature) : 0.1;
    s.step[m] = t * std::min(0.5, std::max(0.1, shrink));
    s.of(s.trial, m) = s.of(s.beta, m) + s.step[m] * s.of(s.direction, m);
    // no decrease is left but rounding
    if (s.step[m] < 1e-12 || (final_ && -slope[i] <= 1e-12 * std::max(1.0, std::abs(s.objective[m])))) {
      s.converged[m] = 1;
    }
  }
  if (!good.empty()) {
    if (!first_) {
      const Eigen::MatrixXd step = gather(s.trial, good, k) - gather(s.beta, good, k);
      const Eigen::MatrixXd change = gather(gradient, good_local, k) - gather(s.gradient, good, k);
      s.memory.remember(good, step, change);
    }
    for (std::size_t j = 0; j < good.size(); ++j) {
      const int m = good[j], i = good_local[j];
      s.of(s.beta, m) = s.of(s.trial, m);
      s.of(s.gradient, m) = gradient.middleCols(static_cast<Eigen::Index>(i) * k, k);
      s.objective[m] = objective[static_cast<std::size_t>(i)];
      s.deviance[m] = sums.deviance(i);
      s.heldout[m] = sums.heldout(i);
      s.heldout_weight[m] = sums.heldout_weight(i);
    }
  }
  if (!refresh_.empty()) {
    // a reference per point from its classes' diagonal blocks (the whole
    // Hessian for one class), each eigendecomposed
    std::vector<Reference> fresh;
    const double parts = static_cast<double>(sums.hessians.size());
    for (std::size_t j = 0; j < refresh_.size(); ++j) {
      Reference r;
      r.rotation = Eigen::MatrixXd::Identity(k, k);
      r.scale = Eigen::VectorXd::Ones(k);
      r.lambda = s.lambda[refresh_[j]];
      for (int c = 0; c < k; ++c) {
        const std::size_t h = j * k + c;
        const Progress part = [&, h](double f) { progress((static_cast<double>(h) + f) / parts); };
        r.eigens.push_back(std::make_shared<const GlmReference>(glm_reference(sums.hessians[h], poll, part)));
      }
      fresh.push_back(std::move(r));
    }
    if (final_) {
      if (accepted[0]) {
        references_ = std::move(fresh);
        std::fill(s.reference.begin(), s.reference.end(), 0);
      }
    } else {
      for (Reference& r : fresh) {
        const auto same = std::find_if(references_.begin(), references_.end(), [&](const Reference& o) { return o.lambda == r.lambda; });
        if (same != references_.end()) *same = std::move(r); else references_.push_back(std::move(r));
      }
      for (int m = 0; m < s.size(); ++m) s.reference[m] = nearest_reference(s.lambda[m]);
    }
  }
  first_ = false;
  if (!final_) share_points(active_, good);
  if (!good.empty()) {
    Eigen::MatrixXd d = directions(good);
    std::vector<int> lost, lost_at;
    std::vector<double> decrement(good.size());
    for (std::size_t j = 0; j < good.size(); ++j) {
      decrement[j] = -block_dot(s.of(s.gradient, good[j]), d.middleCols(static_cast<Eigen::Index>(j) * k, k), false);
      // rounding can spoil the memory's curvature; then start it again
      if (!(decrement[j] > 0.0) && s.memory.has_pairs(good[j])) {
        lost.push_back(good[j]);
        lost_at.push_back(static_cast<int>(j));
      }
    }
    if (!lost.empty()) {
      for (const int m : lost) s.memory.forget(m);
      const Eigen::MatrixXd again = directions(lost);
      for (std::size_t j = 0; j < lost.size(); ++j) {
        const Eigen::Index c = static_cast<Eigen::Index>(lost_at[j]) * k;
        d.middleCols(c, k) = again.middleCols(static_cast<Eigen::Index>(j) * k, k);
        decrement[static_cast<std::size_t>(lost_at[j])] = -block_dot(s.of(s.gradient, lost[j]), d.middleCols(c, k), false);
      }
    }
    for (std::size_t j = 0; j < good.size(); ++j) {
      const int m = good[j];
      s.of(s.direction, m) = d.middleCols(static_cast<Eigen::Index>(j) * k, k);
      s.decrement[m] = decrement[j] / std::max(1.0, std::abs(s.objective[m]));
      if (!(s.decrement[m] > tolerance_)) s.converged[m] = 1;
      s.step[m] = 1.0;
      s.of(s.trial, m) = s.of(s.beta, m) + s.of(s.direction, m);
    }
  }
  if (!final_) {
    for (const int m : pruned()) s.pruned[m] = 1;
    start_next();
  }
  poll();
  active_.clear();
  for (int m = 0; m < s.size(); ++m) {
    if (s.started[m] && !s.converged[m] && !s.pruned[m]) active_.push_back(m);
  }
  if (active_.empty() || passes_ >= kMaxPasses) {
    finish_run();
  } else {
    prepare_pass();
  }
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
    std::vector<double> objective, deviance, heldout, heldout_weight;
  } const before{s.beta, s.gradient, s.objective, s.deviance, s.heldout, s.heldout_weight};
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
// class, rotated back; multinomial coefficients sum to zero over the classes
// (the penalty drives them there, and centering never raises the criterion).
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
  if (k > 1) {
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
      if (s.fold[m] == 0) deviance = 2.0 * s.deviance[m];
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

void GlmPath::finish_run() {
  Models& s = *models_;
  if (!final_) {
    for (const GlmPathRow& row : cv_path(static_cast<int>(grid_.size()))) {
      if (!std::isnan(row.cv)) result_.path.push_back(row);
    }
    if (result_.path.empty()) throw std::runtime_error("no lambda of the path has a cross-validated deviance");
    best_ = 0;
    for (std::size_t l = 1; l < result_.path.size(); ++l) {
      if (result_.path[l].cv < result_.path[static_cast<std::size_t>(best_)].cv) best_ = static_cast<int>(l);
    }
    for (const GlmPathRow& row : result_.path) result_.unconverged += row.converged ? 0 : 1;
    result_.grid_size = static_cast<int>(grid_.size());
    const double chosen = result_.path[static_cast<std::size_t>(best_)].lambda;
    int full = 0;
    while (!(s.fold[full] == 0 && s.lambda[full] == chosen)) ++full;
    result_.null_deviance = 2.0 * s.null_half[0];
    models_ = std::make_unique<Models>(std::vector<double>{chosen}, std::vector<int>{0}, Eigen::MatrixXd(s.of(s.beta, full)),
                                       classes_);
    start_run(true);
    return;
  }
  if (!result_.cross_validated) {
    result_.path.push_back(GlmPathRow{grid_[0], kNaN, kNaN, 0.0, false});
    result_.null_deviance = 2.0 * s.null_half[0];
    result_.grid_size = 1;
    best_ = 0;
  }
  GlmPathRow& row = result_.path[static_cast<std::size_t>(best_)];
  row.deviance = 2.0 * s.deviance[0];
  row.converged = (result_.cross_validated ? row.converged : true) && s.converged[0];
  result_.coefficients = s.beta;
  result_.lambda = row.lambda;
  result_.deviance = 2.0 * s.deviance[0];
  result_.converged = s.converged[0];
  done_ = true;
}

}  // namespace askrff
