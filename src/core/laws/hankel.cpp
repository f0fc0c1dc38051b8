#include "core/laws/hankel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/laws/elementary_laws.h"
#include "core/laws/measure.h"
#include "core/laws/table_cache.h"
#include "core/numerics/special_functions.h"

namespace askrff {

GaussLegendre::GaussLegendre(int n) : nodes(n), weights(n) {
  // Newton's method on P_n from Chebyshev guesses; roots are symmetric.
  for (int i = 0; i < (n + 1) / 2; ++i) {
    double x = std::cos(M_PI * (i + 0.75) / (n + 0.5));
    double derivative = 1.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = 0.0;
      for (int k = 1; k <= n; ++k) {
        const double p2 = p1;
        p1 = p0;
        p0 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p2) / k;
      }
      derivative = n * (x * p0 - p1) / (x * x - 1.0);
      const double step = p0 / derivative;
      x -= step;
      if (std::abs(step) < 1e-16) break;
    }
    nodes[i] = -x;
    nodes[n - 1 - i] = x;
    weights[i] = weights[n - 1 - i] = 2.0 / ((1.0 - x * x) * derivative * derivative);
  }
}

std::shared_ptr<const GaussLegendre> gauss_legendre_rule(int n) {
  static TableCache<int, GaussLegendre> rules(16);
  return rules.get(n, [n] { return std::make_shared<const GaussLegendre>(n); });
}

int hankel_nodes(double radius) {
  const int needed = std::max(400, static_cast<int>(std::ceil(6.0 * radius)));
  return 200 * ((needed + 199) / 200);
}

double hankel_radial_density(const std::function<double(double)>& profile, int d, double radius,
                             const GaussLegendre& rule) {
  radius = std::abs(radius);
  if (radius == 0.0 && d > 1) return 0.0;
  // int_0^sqrt2 k(2 - t^2) (z/2)^{d-1} Omega_d(r z) 2t dt, with z = 2 - t^2.
  const double half = std::sqrt(2.0) / 2.0;
  double integral = 0.0;
  for (std::size_t i = 0; i < rule.nodes.size(); ++i) {
    const double t = half * (rule.nodes[i] + 1.0);
    const double z = 2.0 - t * t;
    integral += rule.weights[i] * half * profile(z) * std::pow(0.5 * z, d - 1) * omega_d(d, radius * z) * 2.0 * t;
  }
  if (integral == 0.0) return 0.0;
  const double log_mu = -d * std::log(2.0 * M_PI) + log_sphere_area(d) + (d - 1) * std::log(2.0) +
                        std::log(std::abs(integral));
  return std::copysign(std::exp(log_mu + log_radial_jacobian(d, radius)), integral);
}

RadialValue profile_radial_density(const std::vector<double>& values, const std::vector<double>& known,
                                   const GaussLegendre& rule, double z_range, int d, double radius) {
  if (values.size() != rule.nodes.size() || !(known.empty() || known.size() == values.size())) {
    throw std::invalid_argument("a profile needs one value per node");
  }
  radius = std::abs(radius);
  if (radius == 0.0 && d > 1) return {};
  double largest = 0.0;
  for (double v : values) largest = std::max(largest, std::abs(v));
  double integral = 0.0, omega_error = 0.0;
  std::vector<double> value_errors(values.size());
  const double eps = std::numeric_limits<double>::epsilon(), extended = std::numeric_limits<long double>::epsilon();
  for (std::size_t i = 0; i < values.size(); ++i) {
    // x at the very distance where R evaluated k (profile_nodes()).
    const double z = 0.5 * z_range * (rule.nodes[i] + 1.0);
    const long double x = static_cast<long double>(radius) * z, t = 0.5L * (rule.nodes[i] + 1.0L);
    const double factor = static_cast<double>(rule.weights[i] * std::pow(t, d - 1) * omega_d_extended(d, x));
    const double term = factor * (values[i] - (known.empty() ? 0.0 : known[i]));
    integral += term;
    omega_error += std::abs(term) * (1.0 + static_cast<double>(extended / eps * (x + d)));
    const double relative = values[i] == 0.0 ? 0.0 : 1.0 + std::abs(std::log(std::abs(values[i]) / largest));
    value_errors[i] = std::abs(factor * values[i]) * (relative + static_cast<double>(x));
  }
  // The root of the sum of squares, scaled so the squares cannot underflow.
  const double top = *std::max_element(value_errors.begin(), value_errors.end());
  double squares = 0.0;
  for (double e : value_errors) squares += top > 0.0 ? (e / top) * (e / top) : 0.0;
  const double bound = 32.0 * eps * omega_error + 8.0 * eps * top * std::sqrt(squares);
  if (bound == 0.0 && integral == 0.0) return {};
  // sum over the rule on [-1, 1] times (z_range / 2) z_range^{d-1}.
  const double log_scale = -d * std::log(2.0 * M_PI) + log_sphere_area(d) + d * std::log(z_range) - std::log(2.0) +
                           log_radial_jacobian(d, radius);
  const auto scaled = [&](double sum) { return std::copysign(std::exp(log_scale + std::log(std::abs(sum))), sum); };
  return {integral == 0.0 ? 0.0 : scaled(integral), bound == 0.0 ? 0.0 : scaled(bound)};
}

}  // namespace askrff
