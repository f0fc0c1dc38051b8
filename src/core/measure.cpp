#include "measure.h"

#include <cmath>
#include <stdexcept>

namespace askrff {

double PartSampler::sample_radius(Stream&) const {
  throw std::logic_error("sample_radius() called on a measure that is not rotation invariant");
}

double log_sphere_area(int d) {
  return std::log(2.0) + 0.5 * d * std::log(M_PI) - std::lgamma(0.5 * d);
}

void GaussianSampler::sample(Stream& stream, double* omega) const {
  for (int k = 0; k < d_; ++k) omega[k] = stream.normal() / sigma_;
}

double GaussianSampler::sample_radius(Stream& stream) const {
  double sum = 0.0;
  for (int k = 0; k < d_; ++k) {
    const double z = stream.normal();
    sum += z * z;
  }
  return std::sqrt(sum) / sigma_;
}

// Density of ||w|| for w ~ N(0, sigma^-2 I): S_{d-1} r^{d-1} (sigma/sqrt(2 pi))^d e^{-sigma^2 r^2 / 2},
// summed in logs so that large d neither overflows nor underflows.
double GaussianSampler::density(double radius) const {
  if (radius <= 0.0) return d_ == 1 ? 2.0 * sigma_ / std::sqrt(2.0 * M_PI) : 0.0;
  const double log_density = log_sphere_area(d_) + (d_ - 1) * std::log(radius) +
                             d_ * std::log(sigma_ / std::sqrt(2.0 * M_PI)) -
                             0.5 * sigma_ * sigma_ * radius * radius;
  return std::exp(log_density);
}

void CauchyProductSampler::sample(Stream& stream, double* omega) const {
  for (int k = 0; k < d_; ++k) omega[k] = std::tan(M_PI * (stream.uniform() - 0.5)) / sigma_;
}

double CauchyProductSampler::density(double coordinate) const {
  return sigma_ / (M_PI * (1.0 + sigma_ * sigma_ * coordinate * coordinate));
}

}  // namespace askrff
