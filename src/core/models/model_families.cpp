// The table of model families (model_family.h): one entry each.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/models/model_family.h"

namespace askrff {

namespace {

const double kInf = std::numeric_limits<double>::infinity();

// log(1 + exp(x)) without overflow or loss of small values.
double softplus(double x) { return x > 0.0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

// Logistic regression: mu = 1 / (1 + exp(-eta)).
double binomial_row(const double* eta, const double* y, int, const FamilyParameters&, double* residual, double* curvature) {
  const double e = eta[0];
  // 1 / (1 + exp(-e)) and its complement, each without cancellation
  const double p = e >= 0.0 ? 1.0 / (1.0 + std::exp(-e)) : std::exp(e) / (1.0 + std::exp(e));
  const double q = e >= 0.0 ? std::exp(-e) / (1.0 + std::exp(-e)) : 1.0 / (1.0 + std::exp(e));
  residual[0] = y[0] - p;
  if (curvature) curvature[0] = p * q;
  return y[0] * softplus(-e) + (1.0 - y[0]) * softplus(e);
}

void binomial_mean(const double* eta, int, double* mu) { mu[0] = 1.0 / (1.0 + std::exp(-eta[0])); }

void binomial_null(const double* m, int, const FamilyParameters&, double* intercept, double* a) {
  intercept[0] = std::log(m[0]) - std::log1p(-m[0]);
  a[0] = m[0] * (1.0 - m[0]);
}

// The K-class softmax: mu the softmax of the K predictors, whose Hessian
// diag(mu) - mu mu' has the variances mu (1 - mu) on its diagonal.
double multinomial_row(const double* eta, const double* y, int k, const FamilyParameters&, double* residual, double* curvature) {
  const double top = *std::max_element(eta, eta + k);
  double total = 0.0;
  for (int j = 0; j < k; ++j) total += std::exp(eta[j] - top);
  const double log_sum = top + std::log(total);
  double half = 0.0;
  for (int j = 0; j < k; ++j) {
    const double p = std::exp(eta[j] - log_sum);
    residual[j] = y[j] - p;
    if (curvature) curvature[j] = p * (1.0 - p);
    if (y[j] != 0.0) half += y[j] * (log_sum - eta[j]);
  }
  return half;
}

void multinomial_mean(const double* eta, int k, double* mu) {
  const double top = *std::max_element(eta, eta + k);
  double total = 0.0;
  for (int j = 0; j < k; ++j) total += (mu[j] = std::exp(eta[j] - top));
  for (int j = 0; j < k; ++j) mu[j] /= total;
}

// the coefficients of K classes are identifiable through the penalty, which
// makes them sum to zero: so do the intercepts
void multinomial_null(const double* m, int k, const FamilyParameters&, double* intercept, double* a) {
  double mean_log = 0.0;
  for (int j = 0; j < k; ++j) mean_log += std::log(m[j]) / k;
  for (int j = 0; j < k; ++j) {
    intercept[j] = std::log(m[j]) - mean_log;
    for (int i = 0; i < k; ++i) a[i + j * k] = (i == j ? m[j] : 0.0) - m[i] * m[j];
  }
}

// Log-linear regression for counts: mu = exp(eta).
double poisson_row(const double* eta, const double* y, int, const FamilyParameters&, double* residual, double* curvature) {
  const double mu = std::exp(eta[0]);
  residual[0] = y[0] - mu;
  if (curvature) curvature[0] = mu;
  if (!std::isfinite(mu)) return kInf;
  return (y[0] > 0.0 ? y[0] * (std::log(y[0]) - eta[0]) : 0.0) - y[0] + mu;
}

void poisson_mean(const double* eta, int, double* mu) { mu[0] = std::exp(eta[0]); }

void poisson_null(const double* m, int, const FamilyParameters&, double* intercept, double* a) {
  intercept[0] = std::log(m[0]);
  a[0] = m[0];
}

// The Cox model's rows: at eta + log Lambda0(t), with Lambda0 the Breslow
// (or Efron) cumulative baseline hazard at the row's time from the pass of
// risk sums (cox_risk.h), the Poisson row of the event indicator, whose
// residual delta - exp(eta) Lambda0(t) (the martingale residual) is minus
// the partial likelihood's gradient in eta, and whose curvature bounds its
// Hessian's diagonal part from above. Its half loss is not the partial
// likelihood's, which the risk sums give instead.
double cox_row(const double* eta, const double* y, int k, const FamilyParameters& p, double* residual, double* curvature) {
  return poisson_row(eta, y, k, p, residual, curvature);
}

// The relative risk exp(eta).
void cox_mean(const double* eta, int, double* mu) { mu[0] = std::exp(eta[0]); }

// The partial likelihood does not change with an intercept, which the
// baseline hazard absorbs: it stays at 0, and at beta = 0 the rows'
// curvatures exp(eta) Lambda0(t) average the share m of events (the
// martingale residuals sum to zero).
void cox_null(const double* m, int, const FamilyParameters&, double* intercept, double* a) {
  intercept[0] = 0.0;
  a[0] = m[0];
}

// The squared hinge loss of the L2-loss support vector machine (Lin, Weng
// and Keerthi 2008): with s = 2y - 1 in {-1, 1}, half the loss is
// max(0, 1 - s eta)^2 / 2, whose generalized Hessian is 1 inside the margin
// and 0 outside (and at its edge, as LIBLINEAR takes it). For K classes the
// sum of K such losses, class j against the rest.
double squared_hinge_row(const double* eta, const double* y, int k, const FamilyParameters&, double* residual,
                         double* curvature) {
  double half = 0.0;
  for (int j = 0; j < k; ++j) {
    const double s = 2.0 * y[j] - 1.0, margin = 1.0 - s * eta[j];
    const bool inside = margin > 0.0;
    residual[j] = inside ? s * margin : 0.0;
    if (curvature) curvature[j] = inside ? 1.0 : 0.0;
    if (inside) half += margin * margin / 2.0;
  }
  return half;
}

// with a share m of a class, the intercept 2m - 1 in (-1, 1) leaves every
// row inside its margin, where the loss is quadratic
void squared_hinge_null(const double* m, int k, const FamilyParameters&, double* intercept, double* a) {
  for (int j = 0; j < k; ++j) {
    intercept[j] = 2.0 * m[j] - 1.0;
    for (int i = 0; i < k; ++i) a[i + j * k] = i == j ? 1.0 : 0.0;
  }
}

// The check loss rho_tau(r) = r (tau - 1{r < 0}) of the residual r = y - eta
// (the hinge max(0, u) is tau = 1), smoothed within |r| <= h by the
// parabola that meets its two lines with their slopes, r^2 / (4h) +
// (tau - 1/2) r + h / 4 (Huber's construction), and exact outside: it
// exceeds the check loss by (h - |r|)^2 / (4h), at most h / 4 (at the kink),
// and is once continuously differentiable and convex, with second derivative
// 1 / (2h) within the band (its edges included: the inner one-sided value)
// and 0 outside. h = 0 is the exact loss, with the slope tau at the kink.
struct CheckValue {
  double loss, slope, curvature;
};

CheckValue smoothed_check(double r, double tau, double h) {
  if (r > h || (h == 0.0 && r >= 0.0)) return {tau * r, tau, 0.0};
  if (r < -h || h == 0.0) return {(tau - 1.0) * r, tau - 1.0, 0.0};
  // the check loss plus the excess, both nonnegative: no cancellation
  const double excess = (h - std::abs(r)) * (h - std::abs(r)) / (4.0 * h);
  return {(r < 0.0 ? (tau - 1.0) * r : tau * r) + excess, r / (2.0 * h) + tau - 0.5, 1.0 / (2.0 * h)};
}

// The hinge loss of the L1-loss support vector machine: with s = 2y - 1 in
// {-1, 1}, half of max(0, 1 - s eta), smoothed within the width of the
// margin's edge. For K classes the sum of K such losses, class j against
// the rest.
double hinge_row(const double* eta, const double* y, int k, const FamilyParameters& p, double* residual,
                 double* curvature) {
  double half = 0.0;
  for (int j = 0; j < k; ++j) {
    const double s = 2.0 * y[j] - 1.0;
    const CheckValue c = smoothed_check(1.0 - s * eta[j], 1.0, p.width);
    residual[j] = s * c.slope / 2.0;
    if (curvature) curvature[j] = c.curvature / 2.0;
    half += c.loss / 2.0;
  }
  return half;
}

// The intercept-only fit of each machine, with a share m of its class:
// b = 1 for m >= 1/2 puts the majority's rows at the margin's edge, its
// kink, and the minority's at margin 2, a loss of 2 min(m, 1 - m) per unit
// weight, the least (b = -1 for m < 1/2). The path smoothed at width h < 2
// starts there, with the curvature of the majority's rows, all within the
// band.
void hinge_null(const double* m, int k, const FamilyParameters& p, double* intercept, double* a) {
  for (int j = 0; j < k; ++j) {
    intercept[j] = m[j] >= 0.5 ? 1.0 : -1.0;
    for (int i = 0; i < k; ++i) {
      a[i + j * k] = i == j && p.width > 0.0 ? std::max(m[j], 1.0 - m[j]) / (4.0 * p.width) : 0.0;
    }
  }
}

// Quantile regression: one predictor per level tau_j, half the check loss
// rho_tau_j(y - eta_j) of each, smoothed as above.
double quantile_row(const double* eta, const double* y, int k, const FamilyParameters& p, double* residual,
                    double* curvature) {
  double half = 0.0;
  for (int j = 0; j < k; ++j) {
    const CheckValue c = smoothed_check(y[j] - eta[j], p.tau[static_cast<std::size_t>(j)], p.width);
    half += c.loss / 2.0;
    residual[j] = c.slope / 2.0;
    if (curvature) curvature[j] = c.curvature / 2.0;
  }
  return half;
}

// Expectile regression, asymmetric least squares (Newey and Powell 1987):
// half of |tau_j - 1{r < 0}| r^2 for r = y - eta_j, once differentiable,
// with generalized Hessian |tau_j - 1{r < 0}| (tau_j at r = 0). tau = 1/2 is
// a quarter of the squared error.
double expectile_row(const double* eta, const double* y, int k, const FamilyParameters& p, double* residual,
                     double* curvature) {
  double half = 0.0;
  for (int j = 0; j < k; ++j) {
    const double r = y[j] - eta[j], tau = p.tau[static_cast<std::size_t>(j)], a = r < 0.0 ? 1.0 - tau : tau;
    half += a * r * r / 2.0;
    residual[j] = a * r;
    if (curvature) curvature[j] = a;
  }
  return std::isfinite(half) ? half : kInf;
}

// Support vector regression's L1 loss, epsilon-insensitive (kernlab's
// eps-svr, LIBLINEAR's type 13): half of max(0, |r| - epsilon) for
// r = y - eta, the sum of two hinges max(0, r - epsilon) + max(0, -r -
// epsilon), at most one of them positive. Each is smoothed as the check
// loss of tau = 1 above, so the sum stays convex, once continuously
// differentiable and at least the exact loss. Where the two bands overlap
// (epsilon < h) both excesses add, most at a kink, r = +-epsilon: the
// smoothed loss exceeds the exact one by at most (h^2 + max(0, h -
// 2 epsilon)^2) / (4h), h / 2 at epsilon = 0 and h / 4 (one hinge's) once
// epsilon >= h / 2; the path shrinks h to the exact fit (glm_path.h).
double epsilon_insensitive_row(const double* eta, const double* y, int, const FamilyParameters& p, double* residual,
                               double* curvature) {
  const double r = y[0] - eta[0];
  const CheckValue above = smoothed_check(r - p.epsilon, 1.0, p.width), below = smoothed_check(-r - p.epsilon, 1.0, p.width);
  residual[0] = (above.slope - below.slope) / 2.0;
  if (curvature) curvature[0] = (above.curvature + below.curvature) / 2.0;
  return (above.loss + below.loss) / 2.0;
}

// Support vector regression's L2 loss (LIBLINEAR's types 11 and 12): half
// of max(0, |r| - epsilon)^2, once differentiable as the squared hinge,
// with generalized Hessian 1 outside the tube and 0 within it (and at its
// edge).
double squared_epsilon_insensitive_row(const double* eta, const double* y, int, const FamilyParameters& p,
                                       double* residual, double* curvature) {
  const double r = y[0] - eta[0], outside = std::abs(r) - p.epsilon;
  const bool out = outside > 0.0;
  residual[0] = out ? (r > 0.0 ? outside : -outside) : 0.0;
  if (curvature) curvature[0] = out ? 1.0 : 0.0;
  const double half = out ? outside * outside / 2.0 : 0.0;
  return std::isfinite(half) ? half : kInf;
}

// The predicted value of support vector regression: eta itself.
void identity_mean(const double* eta, int k, double* mu) { std::copy(eta, eta + k, mu); }

// The levels' predictions in increasing order in each row: the
// rearrangement of Chernozhukov, Fernandez-Val and Galichon (2010), so that
// they never cross. For the check loss it is never worse: at every y the
// sum over the levels of rho_tau_j(y - q_j) differs between orders of the q
// only by -sum tau_j q_j, least when the q increase with the tau.
void rearranged(const double* eta, int k, double* mu) {
  std::copy(eta, eta + k, mu);
  std::sort(mu, mu + k);
}

// A quantile or expectile of the responses, or the intercept of support
// vector regression, is no function of their mean (m holds it once per
// level): R fits the intercepts by Newton's method from it (glm_null.h).
void values_null(const double* m, int k, const FamilyParameters&, double* intercept, double* a) {
  for (int j = 0; j < k; ++j) {
    intercept[j] = m[j];
    for (int i = 0; i < k; ++i) a[i + j * k] = 0.0;
  }
}

}  // namespace

const std::vector<ModelFamily>& model_families() {
  static const std::vector<ModelFamily> table = {
      {"binomial", "logistic", ResponseKind::two_classes, "probability", true, false, binomial_row, binomial_mean,
       binomial_null},
      {"multinomial", "multinomial", ResponseKind::classes, "probability", true, false, multinomial_row,
       multinomial_mean, multinomial_null},
      {"poisson", "Poisson", ResponseKind::counts, "mean", true, false, poisson_row, poisson_mean, poisson_null},
      {"squared_hinge", "squared hinge", ResponseKind::one_vs_rest, "", false, false, squared_hinge_row, nullptr,
       squared_hinge_null},
      {"hinge", "hinge", ResponseKind::one_vs_rest, "", false, true, hinge_row, nullptr, hinge_null},
      {"quantile", "quantile", ResponseKind::values, "quantile", false, true, quantile_row, rearranged, values_null},
      {"expectile", "expectile", ResponseKind::values, "expectile", false, false, expectile_row, rearranged,
       values_null},
      {"epsilon_insensitive", "epsilon-insensitive", ResponseKind::real, "value", false, true,
       epsilon_insensitive_row, identity_mean, values_null},
      {"squared_epsilon_insensitive", "squared epsilon-insensitive", ResponseKind::real, "value", false, false,
       squared_epsilon_insensitive_row, identity_mean, values_null},
      {"cox", "Cox", ResponseKind::survival, "risk", true, false, cox_row, cox_mean, cox_null},
  };
  return table;
}

const ModelFamily& model_family(const std::string& name) {
  for (const ModelFamily& family : model_families()) {
    if (name == family.name) return family;
  }
  throw std::invalid_argument("unknown model family \"" + name + "\"");
}

const char* response_kind_name(ResponseKind kind) {
  switch (kind) {
    case ResponseKind::two_classes: return "two_classes";
    case ResponseKind::classes: return "classes";
    case ResponseKind::counts: return "counts";
    case ResponseKind::one_vs_rest: return "one_vs_rest";
    case ResponseKind::values: return "values";
    case ResponseKind::real: return "real";
    case ResponseKind::survival: return "survival";
  }
  return "";
}

bool takes_predictors(const ModelFamily& family, int k) {
  switch (family.response) {
    case ResponseKind::classes: return k >= 2;
    case ResponseKind::one_vs_rest: return k == 1 || k >= 3;
    case ResponseKind::values: return k >= 1;
    default: return k == 1;
  }
}

}  // namespace askrff
