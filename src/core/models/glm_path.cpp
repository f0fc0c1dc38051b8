#include "core/models/glm_path.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/models/glm_path_hessian.h"
#include "core/models/glm_path_state.h"

namespace askrff {

GlmPath::~GlmPath() = default;

GlmPath::GlmPath(const GlmPathSetup& setup, const Poll& poll, const Progress& progress)
    : family_(&setup.family), parameters_(setup.parameters) {
  classes_ = static_cast<int>(setup.mean.size());
  if (setup.hessian_every < 1) throw std::invalid_argument("hessian_every must be at least 1");
  hessian_every_ = setup.hessian_every;
  fit_chosen_ = setup.fit_chosen;
  if (setup.hessian && !setup.fit_chosen) {
    throw std::invalid_argument("the covariance is that of the chosen lambda's fit, which fit_chosen = false skips");
  }
  softmax_ = classes_ > 1 && setup.family.response == ResponseKind::classes;
  p_ = 1 + setup.gram.zz.rows();
  total_weight_ = setup.gram.weight;
  sample_rows_ = setup.gram.n / hessian_every_;
  band_rows_ = setup.gram.n;
  const ResponseKind kind = setup.family.response;
  const bool values = kind == ResponseKind::values;
  // any finite numbers: values or real numbers
  const bool numbers = values || kind == ResponseKind::real;
  // one-vs-rest's K problems are separate: no softmax Hessian joins them; a
  // loss with kinks or of numbers has no likelihood, whose covariance it is;
  // a Cox model's passes take a bound of its Hessian, not the Hessian
  const bool survival = kind == ResponseKind::survival;
  hessian_ = setup.hessian && (classes_ == 1 || softmax_) && !setup.family.kinked && !numbers && !survival;
  result_.df = kNaN;
  result_.null_deviance = kNaN;
  // a Cox model's mean is the share of events, at most 1
  const bool counts = kind == ResponseKind::counts || survival;
  if (!takes_predictors(setup.family, classes_)) {
    throw std::invalid_argument("a family of one predictor needs one mean response");
  }
  for (const double m : setup.mean) {
    const bool fits = numbers ? std::isfinite(m)
                             : m > 0.0 && std::isfinite(m) && (counts || m < 1.0);
    if (!fits) {
      throw std::invalid_argument("the mean responses must be finite, positive for classes and counts, and below 1 for classes");
    }
  }
  if (parameters_.tau.size() != (values ? static_cast<std::size_t>(classes_) : 0u)) {
    throw std::invalid_argument("a family of values needs a level tau per predictor, the others none");
  }
  for (std::size_t j = 0; j < parameters_.tau.size(); ++j) {
    if (!(parameters_.tau[j] > 0.0 && parameters_.tau[j] < 1.0) || (j > 0 && !(parameters_.tau[j] > parameters_.tau[j - 1]))) {
      throw std::invalid_argument("the levels tau must increase within (0, 1)");
    }
  }
  if (setup.family.kinked ? !(parameters_.width > 0.0 && std::isfinite(parameters_.width)) : parameters_.width != 0.0) {
    throw std::invalid_argument("a loss with kinks needs a positive finite smoothing width, the others none");
  }
  if (numbers && setup.intercept.size() == 0) {
    throw std::invalid_argument("the intercept-only fit of numbers must be given: it is no function of their mean");
  }
  if (setup.nfolds < 2) throw std::invalid_argument("the number of folds must be at least 2");
  for (const double l : setup.lambda) {
    if (!(l > 0.0) || !std::isfinite(l)) throw std::invalid_argument("every lambda must be positive and finite");
  }
  Eigen::VectorXd intercept(classes_);
  Eigen::MatrixXd a_matrix(classes_, classes_);
  setup.family.null_model(setup.mean.data(), classes_, parameters_, intercept.data(), a_matrix.data());
  if (setup.intercept.size() > 0) {
    if (setup.intercept.size() != classes_ || setup.curvature.rows() != classes_ || setup.curvature.cols() != classes_ ||
        !setup.intercept.allFinite() || !setup.curvature.allFinite()) {
      throw std::invalid_argument("the offset's intercept-only fit must have one finite intercept and curvature row per class");
    }
    intercept = setup.intercept;
    a_matrix = (setup.curvature + setup.curvature.transpose()) / 2.0;
  }
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
  if (setup.start.size() > 0) {
    if (grid_.size() != 1 || setup.start.rows() != p_ || setup.start.cols() != classes_ || !setup.start.allFinite()) {
      throw std::invalid_argument("a start is a finite (1 + D) x K matrix of coefficients, for one lambda");
    }
    // the intercept-only model's pass needs no Hessian
    pending_start_ = setup.start;
    refresh_.clear();
    request_.references.resize(p_, 0);
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

void GlmPath::start_run(bool final, bool keep_references) {
  final_ = final;
  tolerance_ = final ? 1e-20 : 1e-8;
  passes_ = 0;
  first_ = true;
  if (!keep_references) references_.assign(1, *null_reference_);
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
    // the Hessian at the point tried: at every pass for a loss with kinks
    // whose predictors' Hessians are separate (one predictor, or levels),
    // the generalized Newton method its smoothing's continuation needs;
    // else at the scheduled passes, limited-memory BFGS between them (a
    // Hessian costs n D^2 and an eigendecomposition, some D / d passes'
    // worth of features: at 2,048 columns Newton's fewer passes took 3x
    // the time, bench/svm.R)
    const bool separate = !softmax_ && family_->kinked;
    const bool scheduled = std::find(std::begin(kFinalRefreshPasses), std::end(kFinalRefreshPasses), passes_) !=
                           std::end(kFinalRefreshPasses);
    if (separate || scheduled) refresh_ = active_;
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
  request_.width = parameters_.width;
  // Newton's steps of a kinked loss need the Hessian itself, which a
  // sample of the rows in its band gives while they are many: at the first
  // widths, whose band holds a share of all rows (its Newton steps then
  // converge linearly at the sample's relative error, some 1 / sqrt(sample
  // rows)); the last widths' bands, of the few rows near a kink, sum all
  request_.hessian_every = final_ && family_->kinked
                               ? static_cast<int>(std::max(1.0, std::floor(band_rows_ / sample_rows_)))
                               : hessian_every_;
  // a kinked loss's line search, from the second pass (the first has no directions)
  const bool probing = family_->kinked && !first_;
  request_.directions = probing ? gather(s.direction, active_, classes_) : Eigen::MatrixXd(p_, 0);
  request_.steps.clear();
  if (probing) {
    for (const int m : active_) request_.steps.push_back(s.step[static_cast<std::size_t>(m)]);
  }
  request_.probes = probing ? kProbes : std::vector<double>();
}

void GlmPath::advance(const GlmSums& sums, const Poll& poll, const Progress& progress) {
  if (done_) throw std::logic_error("the path is solved: it needs no more passes");
  if (hessian_pass_) {
    finish_covariance(sums.hessians, poll);
    return;
  }
  Models& s = *models_;
  const int k = classes_;
  const std::size_t n_active = active_.size();
  if (sums.gradient.rows() != p_ || sums.gradient.cols() != static_cast<Eigen::Index>(n_active) * k ||
      sums.deviance.size() != static_cast<Eigen::Index>(n_active) || sums.exact.size() != sums.deviance.size() ||
      sums.heldout.size() != sums.deviance.size() ||
      sums.heldout_weight.size() != sums.deviance.size() || sums.hessians.size() != refresh_.size() * k) {
    throw std::invalid_argument("the pass's sums must be those of the models and references requested");
  }
  if (pending_start_.size() > 0) {
    // the intercept-only model's pass: its null deviance, then the run
    // starts afresh at the start, with its own Hessians from its first pass
    result_.null_deviance = 2.0 * sums.exact(0);
    models_ = std::make_unique<Models>(grid_, std::vector<int>{0}, pending_start_, k);
    pending_start_.resize(0, 0);
    start_run(true, true);
    return;
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
      if (s.fold[m] == 0 && std::isnan(result_.null_deviance)) {
        result_.null_deviance = 2.0 * sums.exact(static_cast<Eigen::Index>(at));
      }
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
      // gradient still shows: a step that halves the gradient's norm is taken
      // too, and once the decrease expected is below the criterion's rounding,
      // any step that lowers the gradient's norm
      const Eigen::Index c = static_cast<Eigen::Index>(i) * k;
      const double now = gradient.middleCols(c, k).squaredNorm(), before = s.of(s.gradient, m).squaredNorm();
      const bool rounding = -slope[i] * s.step[m] <= 1e-13 * std::max(1.0, std::abs(s.objective[m]));
      accepted[i] = accepted[i] || now < (rounding ? before : before / 4.0);
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
    // back to where the probes put the minimum along the direction, or to
    // the minimum of the quadratic through the criterion's value and slope,
    // within a tenth and a half of the step
    const double t = s.step[m], curvature = objective[i] - s.objective[m] - slope[i] * t;
    const double shrink = std::isfinite(objective[i]) && curvature > 0.0 ? -slope[i] * t / (2.0 * curvature) : 0.1;
    const double probed = sums.probe_slope.cols() > 0 ? probed_step(sums, static_cast<Eigen::Index>(i), m) : kNaN;
    s.step[m] = std::isnan(probed) ? t * std::min(0.5, std::max(0.1, shrink)) : probed;
    s.of(s.trial, m) = s.of(s.beta, m) + s.step[m] * s.of(s.direction, m);
    // no decrease is left but rounding
    if (s.step[m] < 1e-12 || (final_ && -slope[i] <= 1e-12 * std::max(1.0, std::abs(s.objective[m])))) {
      s.converged[m] = 1;
    }
  }
  if (!good.empty()) {
    // (a kinked loss's Newton steps cross pieces of other curvature, whose
    // pairs would spoil the Hessian at the point)
    if (!first_ && !(final_ && family_->kinked)) {
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
      s.exact[m] = sums.exact(i);
      s.heldout[m] = sums.heldout(i);
      s.heldout_weight[m] = sums.heldout_weight(i);
    }
  }
  if (!refresh_.empty()) {
    // a reference per point from its classes' diagonal blocks (the whole
    // Hessian for one class), each eigendecomposed; a point where a class
    // has no curvature (every row's mean saturated, or every row past a
    // piecewise-quadratic loss's kink) or an overflowing one (a trial point
    // too far) gives none, and its models keep the reference they have;
    // but where the classes' Hessians are separate (no softmax) and the
    // model's reference is itself of separate blocks, such a class keeps
    // its block and the others are refreshed (a machine of one-vs-rest whose
    // rows all left the band must not hold back the others' Newton steps).
    // In the final fit of a loss with kinks, a class whose rows all left
    // the band takes the penalty's Hessian alone (penalty_reference()): its
    // loss is linear there, and a kept Hessian of rows since left would
    // shorten every step toward the fit (on 5 rows: 200 passes at a width,
    // converging linearly, against 2)
    std::vector<Reference> fresh;
    const double parts = static_cast<double>(sums.hessians.size());
    if (final_ && family_->kinked) {
      band_rows_ = 0.0;
      for (const CrossProducts& h : sums.hessians) band_rows_ = std::max(band_rows_, h.n * request_.hessian_every);
    }
    for (std::size_t j = 0; j < refresh_.size(); ++j) {
      std::vector<char> curved(static_cast<std::size_t>(k));
      for (int c = 0; c < k; ++c) {
        const double weight = sums.hessians[j * k + c].weight;
        curved[static_cast<std::size_t>(c)] =
            weight > 0.0 && std::isfinite(weight) && sums.hessians[j * k + c].zz.allFinite();
      }
      const Reference& held = references_[static_cast<std::size_t>(s.reference[refresh_[j]])];
      const bool blocks = !softmax_ && held.rotation.isIdentity() && (held.scale.array() == 1.0).all();
      const bool all = std::all_of(curved.begin(), curved.end(), [](char c) { return c != 0; });
      const bool any = std::any_of(curved.begin(), curved.end(), [](char c) { return c != 0; });
      const bool kinked_final = final_ && family_->kinked;
      if (!all && !(blocks && any) && !kinked_final) continue;
      Reference r;
      r.rotation = Eigen::MatrixXd::Identity(k, k);
      r.scale = Eigen::VectorXd::Ones(k);
      r.lambda = s.lambda[refresh_[j]];
      for (int c = 0; c < k; ++c) {
        const std::size_t h = j * k + c;
        if (!curved[static_cast<std::size_t>(c)]) {
          const std::shared_ptr<const GlmReference>& last = held.eigens[static_cast<std::size_t>(c)];
          r.eigens.push_back(kinked_final ? std::make_shared<const GlmReference>(penalty_reference(*last)) : last);
          continue;
        }
        const Progress part = [&, h](double f) { progress((static_cast<double>(h) + f) / parts); };
        // a kinked loss's Newton steps solve for the fit's one lambda only
        r.eigens.push_back(std::make_shared<const GlmReference>(
            kinked_final ? glm_factored_reference(sums.hessians[h], r.lambda, poll, part)
                         : glm_reference(sums.hessians[h], poll, part)));
      }
      fresh.push_back(std::move(r));
    }
    if (final_) {
      if (accepted[0] && !fresh.empty()) {
        references_ = std::move(fresh);
        std::fill(s.reference.begin(), s.reference.end(), 0);
        // for one class the whole Hessian, at the coefficients just
        // accepted, unless it was a sample's
        if (k == 1 && request_.hessian_every == 1) final_at_ = request_.references;
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

// The step along model m's direction where its criterion's slope, summed
// at the probes (sums' entry i), changes sign: linear between the probes
// on either side (the slope is piecewise linear); NaN where the probes do
// not bracket it (the direction rises from its start, or the criterion
// falls all the way to the step of 1).
double GlmPath::probed_step(const GlmSums& sums, Eigen::Index i, int m) const {
  const Models& s = *models_;
  const auto beta = s.of(s.beta, m), direction = s.of(s.direction, m);
  const double lambda = s.lambda[static_cast<std::size_t>(m)];
  double above = kNaN, above_slope = kNaN;
  for (std::size_t p = 0; p < kProbes.size(); ++p) {
    const double t = kProbes[p];
    const double slope = sums.probe_slope(i, static_cast<Eigen::Index>(p)) +
                         lambda * (block_dot(beta, direction, true) + t * block_dot(direction, direction, true));
    if (!std::isfinite(slope)) return kNaN;
    if (slope <= 0.0) {
      if (std::isnan(above)) return kNaN;
      return t + (above - t) * (-slope) / (above_slope - slope);
    }
    above = t;
    above_slope = slope;
  }
  return kNaN;
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
    if (!fit_chosen_) {
      const std::size_t f = static_cast<std::size_t>(full);
      result_.coefficients = s.of(s.beta, full);
      result_.lambda = chosen;
      result_.deviance = 2.0 * s.exact[f];
      result_.converged = s.converged[f] != 0;
      done_ = true;
      return;
    }
    models_ = std::make_unique<Models>(std::vector<double>{chosen}, std::vector<int>{0}, Eigen::MatrixXd(s.of(s.beta, full)),
                                       classes_);
    start_run(true);
    return;
  }
  if (family_->kinked) {
    result_.smoothing.push_back(GlmSmoothingStep{parameters_.width, passes_});
    const double objective = s.exact[0] + s.lambda[0] / 2.0 * block_dot(s.beta, s.beta, true);
    const bool settled = std::abs(objective - last_width_objective_) <= kSmoothingTolerance * std::abs(objective);
    if (!settled && static_cast<int>(result_.smoothing.size()) < kMaxWidths) {
      // the next width from this one's fit and the last one's, extrapolated
      // to it linearly in h; the curvature memory was another loss's
      const double width = parameters_.width;
      shrink_ = passes_ <= 2 && shrink_ > 0.0 ? std::min(shrink_ * 10.0, kMaxWidthShrink) : kWidthShrink;
      parameters_.width = width / shrink_;
      Eigen::MatrixXd start = s.beta;
      if (last_width_fit_.size() > 0) {
        start += (s.beta - last_width_fit_) * ((width - parameters_.width) / (last_width_ - width));
      }
      last_width_fit_ = s.beta;
      last_width_ = width;
      last_width_objective_ = objective;
      models_ = std::make_unique<Models>(s.lambda, std::vector<int>{0}, start, classes_);
      // the last width's Hessians, not the intercept-only model's, until
      // this width's own
      start_run(true, true);
      return;
    }
  }
  if (!result_.cross_validated) {
    result_.path.push_back(GlmPathRow{grid_[0], kNaN, kNaN, 0.0, false});
    result_.grid_size = 1;
    best_ = 0;
  }
  GlmPathRow& row = result_.path[static_cast<std::size_t>(best_)];
  row.deviance = 2.0 * s.exact[0];
  row.converged = (result_.cross_validated ? row.converged : true) && s.converged[0];
  result_.coefficients = s.beta;
  result_.lambda = row.lambda;
  result_.deviance = 2.0 * s.exact[0];
  result_.converged = s.converged[0];
  if (!hessian_) {
    done_ = true;
    return;
  }
  const Eigen::MatrixXd beta = s.beta;
  if (classes_ == 1 && final_at_.rows() == beta.rows() && final_at_.cols() == 1 && final_at_ == beta) {
    const GlmCovariance laplace = laplace_covariance(*references_[0].eigens[0], result_.lambda);
    result_.covariance = laplace.covariance;
    result_.df = laplace.df;
    done_ = true;
    return;
  }
  // one more pass, of no models, for the Hessian at the fit: for K classes
  // every block (glm_path_hessian.h), for one class (whose last Hessian was
  // taken elsewhere) the one block
  hessian_pass_ = true;
  refresh_.clear();
  active_.clear();
  request_.coefficients.resize(p_, 0);
  request_.fold.clear();
  request_.references = classes_ == 1 ? beta : class_hessian_references(beta);
  request_.hessian_every = 1;
}

void GlmPath::finish_covariance(const std::vector<CrossProducts>& sums, const Poll& poll) {
  const std::size_t k = static_cast<std::size_t>(classes_);
  if (sums.size() != (k == 1 ? 1 : k * k)) {
    throw std::invalid_argument("the pass's sums must be those of the Hessian requested");
  }
  const GlmCovariance laplace = laplace_covariance(whole_hessian(sums, classes_), classes_, result_.lambda, poll);
  result_.covariance = laplace.covariance;
  result_.df = laplace.df;
  hessian_pass_ = false;
  done_ = true;
}

}  // namespace askrff
