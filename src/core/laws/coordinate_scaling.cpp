#include "core/laws/coordinate_scaling.h"

#include <algorithm>
#include <stdexcept>

namespace askrff {

CoordinateScaledSampler::CoordinateScaledSampler(std::shared_ptr<const PartSampler> unit, std::vector<double> scales)
    : unit_(std::move(unit)) {
  if (unit_->strata()) throw std::logic_error("coordinate scales apply to laws that are not stratified");
  for (double s : scales) inverse_.push_back(1.0 / s);
}

void CoordinateScaledSampler::scale(double* omega) const {
  for (std::size_t k = 0; k < inverse_.size(); ++k) omega[k] *= inverse_[k];
}

void CoordinateScaledSampler::sample(Stream& stream, double* omega) const {
  unit_->sample(stream, omega);
  scale(omega);
}

void CoordinateScaledSampler::sample_along(Stream& stream, const double* direction, double* omega) const {
  unit_->sample_along(stream, direction, omega);
  scale(omega);
}

void CoordinateScaledSampler::from_uniforms(const double* u, double* omega) const {
  unit_->from_uniforms(u, omega);
  scale(omega);
}

Characteristic CoordinateScaledSampler::characteristic(double reach, const Poll& poll) const {
  const double largest = *std::max_element(inverse_.begin(), inverse_.end());
  Characteristic unit = unit_->characteristic(reach * largest, poll);
  if (!unit) return nullptr;
  return [unit = std::move(unit), inverse = inverse_](const double* delta) {
    std::vector<double> scaled(inverse.size());
    for (std::size_t k = 0; k < inverse.size(); ++k) scaled[k] = delta[k] * inverse[k];
    return unit(scaled.data());
  };
}

}  // namespace askrff
