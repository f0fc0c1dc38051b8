#include "core/laws/gaussian_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/laws/elementary_laws.h"
#include "core/laws/measure.h"

namespace askrff {

double GaussianReference::at(double t) const { return amplitude * std::exp(-0.5 * t * t / (scale * scale)); }

// a S_{d-1} r^{d-1} (2 pi)^{-d/2} s^d exp(-s^2 r^2 / 2), by its logarithm,
// whose rounding is the value's relative error.
RadialValue GaussianReference::radial_density(int d, double radius) const {
  if (amplitude == 0.0 || (radius == 0.0 && d > 1)) return {};
  const double parts[] = {std::log(std::abs(amplitude)), log_radial_jacobian(d, std::abs(radius)),
                          -0.5 * d * std::log(2.0 * M_PI), d * std::log(scale), -0.5 * scale * scale * radius * radius};
  double log_value = 0.0, size = 0.0;
  for (double part : parts) {
    log_value += part;
    size += std::abs(part);
  }
  const double value = std::copysign(std::exp(log_value), amplitude);
  return {value, 4.0 * std::numeric_limits<double>::epsilon() * (size + 1.0) * std::abs(value)};
}

GaussianReference fit_gaussian_reference(const std::vector<double>& values, const GaussLegendre& rule,
                                         const std::vector<double>& check_values, const GaussLegendre& check,
                                         double z_range, int d) {
  // Moments over t = z / z_range in [0, 1]: t^p underflows harmlessly.
  double m0 = 0.0, m2 = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double t = 0.5 * (rule.nodes[i] + 1.0), w = 0.5 * rule.weights[i] * std::pow(t, d - 1) * values[i];
    m0 += w;
    m2 += w * t * t;
  }
  if (!(m0 > 0.0 && m2 > 0.0)) return {};
  // For a Gaussian of scale s, the second moment under t^{d-1} is d s^2.
  GaussianReference reference;
  reference.scale = z_range * std::sqrt(m2 / (d * m0));
  // It must vanish beyond z_range as k does: its weighted mass there is a
  // Gamma(d/2) tail beyond x = z_range^2 / (2 s^2), at most
  // exp(-(x - a)) (x / a)^a (Chernoff), here below 1e-16.
  const double x = 0.5 * z_range * z_range / (reference.scale * reference.scale), a = 0.5 * d;
  if (!(x > a) || -(x - a) + a * std::log(x / a) > -37.0) return {};
  // Least squares: a = int k g t^{d-1} / int g^2 t^{d-1} with g the unit
  // Gaussian, whose denominator is s^d Gamma(d/2) / 2.
  double projection = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double t = 0.5 * (rule.nodes[i] + 1.0), z = z_range * t;
    projection += 0.5 * rule.weights[i] * std::pow(t, d - 1) * values[i] *
                  std::exp(-0.5 * z * z / (reference.scale * reference.scale));
  }
  if (!(projection > 0.0) || !std::isfinite(projection)) return {};
  reference.amplitude = std::exp(d * std::log(z_range / reference.scale) + std::log(2.0) - std::lgamma(0.5 * d) +
                                 std::log(projection));
  // |k - g| at the check nodes; beyond z_range both are below 1e-16 of max |k|.
  double largest = 0.0, rest = 0.0;
  for (std::size_t i = 0; i < check_values.size(); ++i) {
    largest = std::max(largest, std::abs(check_values[i]));
    rest = std::max(rest, std::abs(check_values[i] - reference.at(0.5 * z_range * (check.nodes[i] + 1.0))));
  }
  if (!(rest <= 1e-8 * largest)) return {};
  reference.rest = rest + 1e-16 * largest;
  return reference;
}

}  // namespace askrff
