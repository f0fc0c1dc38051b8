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
double binomial_row(const double* eta, const double* y, int, double* residual, double* curvature) {
  const double e = eta[0];
  // 1 / (1 + exp(-e)) and its complement, each without cancellation
  const double p = e >= 0.0 ? 1.0 / (1.0 + std::exp(-e)) : std::exp(e) / (1.0 + std::exp(e));
  const double q = e >= 0.0 ? std::exp(-e) / (1.0 + std::exp(-e)) : 1.0 / (1.0 + std::exp(e));
  residual[0] = y[0] - p;
  if (curvature) curvature[0] = p * q;
  return y[0] * softplus(-e) + (1.0 - y[0]) * softplus(e);
}

void binomial_mean(const double* eta, int, double* mu) { mu[0] = 1.0 / (1.0 + std::exp(-eta[0])); }

void binomial_null(const double* m, int, double* intercept, double* a) {
  intercept[0] = std::log(m[0]) - std::log1p(-m[0]);
  a[0] = m[0] * (1.0 - m[0]);
}

// The K-class softmax: mu the softmax of the K predictors, whose Hessian
// diag(mu) - mu mu' has the variances mu (1 - mu) on its diagonal.
double multinomial_row(const double* eta, const double* y, int k, double* residual, double* curvature) {
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
void multinomial_null(const double* m, int k, double* intercept, double* a) {
  double mean_log = 0.0;
  for (int j = 0; j < k; ++j) mean_log += std::log(m[j]) / k;
  for (int j = 0; j < k; ++j) {
    intercept[j] = std::log(m[j]) - mean_log;
    for (int i = 0; i < k; ++i) a[i + j * k] = (i == j ? m[j] : 0.0) - m[i] * m[j];
  }
}

// Log-linear regression for counts: mu = exp(eta).
double poisson_row(const double* eta, const double* y, int, double* residual, double* curvature) {
  const double mu = std::exp(eta[0]);
  residual[0] = y[0] - mu;
  if (curvature) curvature[0] = mu;
  if (!std::isfinite(mu)) return kInf;
  return (y[0] > 0.0 ? y[0] * (std::log(y[0]) - eta[0]) : 0.0) - y[0] + mu;
}

void poisson_mean(const double* eta, int, double* mu) { mu[0] = std::exp(eta[0]); }

void poisson_null(const double* m, int, double* intercept, double* a) {
  intercept[0] = std::log(m[0]);
  a[0] = m[0];
}

// The squared hinge loss of the L2-loss support vector machine (Lin, Weng
// and Keerthi 2008): with s = 2y - 1 in {-1, 1}, half the loss is
// max(0, 1 - s eta)^2 / 2, whose generalized Hessian is 1 inside the margin
// and 0 outside (and at its edge, as LIBLINEAR takes it). For K classes the
// sum of K such losses, class j against the rest.
double squared_hinge_row(const double* eta, const double* y, int k, double* residual, double* curvature) {
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
void squared_hinge_null(const double* m, int k, double* intercept, double* a) {
  for (int j = 0; j < k; ++j) {
    intercept[j] = 2.0 * m[j] - 1.0;
    for (int i = 0; i < k; ++i) a[i + j * k] = i == j ? 1.0 : 0.0;
  }
}

}  // namespace

const std::vector<ModelFamily>& model_families() {
  static const std::vector<ModelFamily> table = {
      {"binomial", "logistic", ResponseKind::two_classes, "probability", binomial_row, binomial_mean, binomial_null},
      {"multinomial", "multinomial", ResponseKind::classes, "probability", multinomial_row, multinomial_mean,
       multinomial_null},
      {"poisson", "Poisson", ResponseKind::counts, "mean", poisson_row, poisson_mean, poisson_null},
      {"squared_hinge", "squared hinge", ResponseKind::one_vs_rest, "", squared_hinge_row, nullptr, squared_hinge_null},
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
  }
  return "";
}

bool takes_predictors(const ModelFamily& family, int k) {
  switch (family.response) {
    case ResponseKind::classes: return k >= 2;
    case ResponseKind::one_vs_rest: return k == 1 || k >= 3;
    default: return k == 1;
  }
}

}  // namespace askrff
