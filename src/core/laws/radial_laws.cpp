#include "core/laws/radial_laws.h"

#include <cmath>
#include <stdexcept>

#include "core/laws/elementary_laws.h"
#include "core/numerics/special_functions.h"

namespace askrff {

void CauchyRadialLaw::sample(Stream& stream, double* omega) const {
  const double g = std::abs(stream.normal());
  for (int k = 0; k < d_; ++k) omega[k] = scale_ * stream.normal() / g;
}

double CauchyRadialLaw::radius(Stream& stream) const {
  const double chi = chi_radius(stream, d_);
  return scale_ * chi / std::abs(stream.normal());
}

void CauchyRadialLaw::from_uniforms(const double* u, double* omega) const {
  const double g = normal_quantile(0.5 + 0.5 * u[d_]);
  for (int k = 0; k < d_; ++k) omega[k] = scale_ * normal_quantile(u[k]) / g;
}

// S_{d-1} r^{d-1} Gamma((d+1)/2) / (pi^{(d+1)/2} s^d) (1 + r^2/s^2)^{-(d+1)/2}.
double CauchyRadialLaw::density(double radius) const {
  if (radius <= 0.0) return d_ == 1 ? 2.0 / (M_PI * scale_) : 0.0;
  const double u = radius / scale_;
  const double log_density = log_sphere_area(d_) + (d_ - 1) * std::log(u) + std::lgamma(0.5 * (d_ + 1)) -
                             0.5 * (d_ + 1) * std::log(M_PI) - std::log(scale_) -
                             0.5 * (d_ + 1) * std::log1p(u * u);
  return std::exp(log_density);
}

Characteristic CauchyRadialLaw::characteristic(double, const Poll&) const {
  return radial_characteristic(d_, [scale = scale_](double r) { return std::exp(-scale * r); });
}

Measure atom_parts(int d, const std::vector<double>& radius, const std::vector<double>& weight,
                   const std::shared_ptr<const RadialLaw>& cusp) {
  if (radius.size() != weight.size()) throw std::invalid_argument("atoms need one weight per radius");
  Measure parts;
  for (const int sign : {+1, -1}) {
    std::vector<RadialStratum> strata;
    double mass = 0.0;
    if (sign > 0 && cusp) {
      strata.push_back(RadialStratum{1.0, 0.0, cusp});
      mass += 1.0;
    }
    for (std::size_t j = 0; j < radius.size(); ++j) {
      if (weight[j] * sign <= 0.0) continue;
      strata.push_back(RadialStratum{std::abs(weight[j]), radius[j], nullptr});
      mass += std::abs(weight[j]);
    }
    if (strata.empty()) continue;
    for (RadialStratum& stratum : strata) stratum.probability /= mass;
    parts.push_back(Part{sign > 0 ? "pos" : "neg", mass, true, static_cast<double>(sign), 0.0,
                         std::make_shared<RadialMixtureLaw>(d, std::move(strata))});
  }
  if (parts.empty()) throw std::invalid_argument("the stationary route needs the atoms of its radial measure");
  return parts;
}

RadialMixtureLaw::RadialMixtureLaw(int d, std::vector<RadialStratum> strata)
    : RadialLaw(d), strata_(std::move(strata)) {
  if (strata_.empty()) throw std::invalid_argument("a radial mixture needs at least one stratum");
}

void RadialMixtureLaw::sample(Stream& stream, double* omega) const {
  std::vector<double> direction(d_);
  uniform_direction(stream, d_, direction.data());
  sample_along(stream, direction.data(), omega);
}

double RadialMixtureLaw::radius(Stream& stream) const {
  double u = stream.uniform();
  const RadialStratum* chosen = &strata_.back();
  for (const RadialStratum& stratum : strata_) {
    if (u < stratum.probability) {
      chosen = &stratum;
      break;
    }
    u -= stratum.probability;
  }
  return chosen->law ? chosen->law->radius(stream) : chosen->radius;
}

Characteristic RadialMixtureLaw::characteristic(double reach, const Poll& poll) const {
  std::vector<Characteristic> laws;
  for (const RadialStratum& stratum : strata_) {
    laws.push_back(stratum.law ? stratum.law->characteristic(reach, poll) : nullptr);
    if (stratum.law && !laws.back()) return nullptr;
  }
  return [d = d_, strata = strata_, laws = std::move(laws)](const double* delta) {
    double r2 = 0.0;
    for (int k = 0; k < d; ++k) r2 += delta[k] * delta[k];
    std::complex<double> sum = 0.0;
    for (std::size_t j = 0; j < strata.size(); ++j) {
      sum += strata[j].probability * (laws[j] ? laws[j](delta) : omega_d(d, strata[j].radius * std::sqrt(r2)));
    }
    return sum;
  };
}

double RadialMixtureLaw::density(double radius) const {
  double total = 0.0;
  for (const RadialStratum& stratum : strata_) {
    if (stratum.law) total += stratum.probability * stratum.law->density(radius);
  }
  return total;
}

}  // namespace askrff
