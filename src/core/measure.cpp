#include "measure.h"

#include <cmath>
#include <stdexcept>

namespace askrff {

void PartSampler::sample_along(Stream&, const double*, double*) const {
  throw std::logic_error("orthogonal sampling requested from a law that does not support it");
}

double chi_radius(Stream& stream, int d) {
  double sum = 0.0;
  for (int k = 0; k < d; ++k) {
    const double z = stream.normal();
    sum += z * z;
  }
  return std::sqrt(sum);
}

double log_sphere_area(int d) {
  return std::log(2.0) + 0.5 * d * std::log(M_PI) - std::lgamma(0.5 * d);
}

double log_radial_jacobian(int d, double radius) {
  return d == 1 ? std::log(2.0) : log_sphere_area(d) + (d - 1) * std::log(radius);
}

void uniform_direction(Stream& stream, int d, double* direction) {
  double norm2 = 0.0;
  do {
    norm2 = 0.0;
    for (int k = 0; k < d; ++k) {
      direction[k] = stream.normal();
      norm2 += direction[k] * direction[k];
    }
  } while (norm2 == 0.0);
  const double inv = 1.0 / std::sqrt(norm2);
  for (int k = 0; k < d; ++k) direction[k] *= inv;
}

void GaussianSampler::sample(Stream& stream, double* omega) const {
  for (int k = 0; k < d_; ++k) omega[k] = stream.normal() / sigma_;
}

void GaussianSampler::sample_along(Stream& stream, const double* direction, double* omega) const {
  const double radius = chi_radius(stream, d_) / sigma_;
  for (int k = 0; k < d_; ++k) omega[k] = direction[k] * radius;
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
