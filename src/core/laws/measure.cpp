#include "core/laws/measure.h"

#include <Eigen/Dense>
#include <stdexcept>

namespace askrff {

void PartSampler::sample_along(Stream&, const double*, double*) const {
  throw std::logic_error("orthogonal sampling requested from a law that does not support it");
}

void PartSampler::from_uniforms(const double*, double*) const {
  throw std::logic_error("quasi-Monte Carlo sampling requested from a law that does not support it");
}

void RadialLaw::sample_along(Stream& stream, const double* direction, double* omega) const {
  const double r = radius(stream);
  for (int k = 0; k < d_; ++k) omega[k] = direction[k] * r;
}

Characteristic PartSampler::characteristic(double, const Poll&) const { return nullptr; }

Characteristic radial_characteristic(int d, std::function<double(double)> radial) {
  return [d, radial = std::move(radial)](const double* delta) {
    return std::complex<double>(radial(Eigen::Map<const Eigen::VectorXd>(delta, d).norm()), 0.0);
  };
}

}  // namespace askrff
