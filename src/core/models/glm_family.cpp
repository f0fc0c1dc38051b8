#include "core/models/glm_family.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace askrff {

GlmFamily glm_family(const std::string& name) {
  if (name == "binomial") return GlmFamily::binomial;
  if (name == "multinomial") return GlmFamily::multinomial;
  if (name == "poisson") return GlmFamily::poisson;
  throw std::invalid_argument("the family must be \"binomial\", \"multinomial\" or \"poisson\"");
}

namespace {

// log(1 + exp(x)) without overflow or loss of small values.
double softplus(double x) { return x > 0.0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

}  // namespace

double glm_row(GlmFamily family, const double* eta, const double* y, int classes, double* residual, double* variance) {
  switch (family) {
    case GlmFamily::binomial: {
      const double e = eta[0];
      // 1 / (1 + exp(-e)) and its complement, each without cancellation
      const double p = e >= 0.0 ? 1.0 / (1.0 + std::exp(-e)) : std::exp(e) / (1.0 + std::exp(e));
      const double q = e >= 0.0 ? std::exp(-e) / (1.0 + std::exp(-e)) : 1.0 / (1.0 + std::exp(e));
      residual[0] = y[0] - p;
      if (variance) variance[0] = p * q;
      return y[0] * softplus(-e) + (1.0 - y[0]) * softplus(e);
    }
    case GlmFamily::multinomial: {
      const double top = *std::max_element(eta, eta + classes);
      double total = 0.0;
      for (int k = 0; k < classes; ++k) total += std::exp(eta[k] - top);
      const double log_sum = top + std::log(total);
      double half = 0.0;
      for (int k = 0; k < classes; ++k) {
        const double p = std::exp(eta[k] - log_sum);
        residual[k] = y[k] - p;
        if (variance) variance[k] = p * (1.0 - p);
        if (y[k] != 0.0) half += y[k] * (log_sum - eta[k]);
      }
      return half;
    }
    case GlmFamily::poisson: {
      const double mu = std::exp(eta[0]);
      residual[0] = y[0] - mu;
      if (variance) variance[0] = mu;
      if (!std::isfinite(mu)) return std::numeric_limits<double>::infinity();
      return (y[0] > 0.0 ? y[0] * (std::log(y[0]) - eta[0]) : 0.0) - y[0] + mu;
    }
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace askrff
