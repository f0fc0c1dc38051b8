#include "core/laws/elementary_laws.h"

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

#include "core/numerics/special_functions.h"

namespace askrff {

void direction_from_uniforms(int d, const double* u, double* direction) {
  double norm2 = 0.0;
  for (int k = 0; k < d; ++k) {
    direction[k] = normal_quantile(u[k]);
    norm2 += direction[k] * direction[k];
  }
  if (norm2 == 0.0) {
    direction[0] = 1.0;
    return;
  }
  const double inv = 1.0 / std::sqrt(norm2);
  for (int k = 0; k < d; ++k) direction[k] *= inv;
}

// Marsaglia and Tsang's exact method, in O(1) per draw (one normal and one
// uniform, accepted with probability above 0.95); a shape below one is
// raised by one and brought back by U^(1/shape).
double gamma_draw(Stream& stream, double shape) {
  if (shape < 1.0) return gamma_draw(stream, shape + 1.0) * std::pow(stream.uniform(), 1.0 / shape);
  const double a = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * a);
  for (;;) {
    const double x = stream.normal();
    const double v = 1.0 + c * x;
    if (v <= 0.0) continue;
    const double cube = v * v * v;
    if (std::log(stream.uniform()) < 0.5 * x * x + a - a * cube + a * std::log(cube)) return a * cube;
  }
}

// chi_d^2 = 2 Gamma(d / 2) in O(1), not as a sum of d squared normals: radii
// dominate the cost of orthogonal and structured sampling in high dimension.
double chi_radius(Stream& stream, int d) {
  if (d == 1) return std::abs(stream.normal());
  return std::sqrt(2.0 * gamma_draw(stream, 0.5 * d));
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

double GaussianSampler::radius(Stream& stream) const { return chi_radius(stream, d_) / sigma_; }

void GaussianSampler::from_uniforms(const double* u, double* omega) const {
  for (int k = 0; k < d_; ++k) omega[k] = normal_quantile(u[k]) / sigma_;
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

Characteristic GaussianSampler::characteristic(double, const Poll&) const {
  return radial_characteristic(d_, [sigma = sigma_](double r) {
    const double u = r / sigma;
    return std::exp(-0.5 * u * u);
  });
}

void CauchyProductSampler::sample(Stream& stream, double* omega) const {
  for (int k = 0; k < d_; ++k) omega[k] = std::tan(M_PI * (stream.uniform() - 0.5)) / sigma_;
}

void CauchyProductSampler::from_uniforms(const double* u, double* omega) const {
  for (int k = 0; k < d_; ++k) omega[k] = std::tan(M_PI * (u[k] - 0.5)) / sigma_;
}

double CauchyProductSampler::density(double coordinate) const {
  return sigma_ / (M_PI * (1.0 + sigma_ * sigma_ * coordinate * coordinate));
}

// exp(-||delta||_1 / sigma): the Laplace kernel.
Characteristic CauchyProductSampler::characteristic(double, const Poll&) const {
  return [d = d_, sigma = sigma_](const double* delta) {
    double l1 = 0.0;
    for (int k = 0; k < d; ++k) l1 += std::abs(delta[k]);
    return std::complex<double>(std::exp(-l1 / sigma), 0.0);
  };
}

}  // namespace askrff
