#include "core/laws/convolution_law.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace askrff {

ConvolutionLaw::ConvolutionLaw(int d, std::shared_ptr<const PartSampler> first,
                               std::shared_ptr<const PartSampler> second, double sign)
    : d_(d), first_(std::move(first)), second_(std::move(second)), sign_(sign) {
  if (!first_ || !second_) throw std::invalid_argument("a convolution needs two laws");
}

void ConvolutionLaw::sample(Stream& stream, double* omega) const {
  std::vector<double> other(static_cast<std::size_t>(d_));
  first_->sample(stream, omega);
  second_->sample(stream, other.data());
  for (int k = 0; k < d_; ++k) omega[k] += sign_ * other[k];
}

void ConvolutionLaw::sample_along(Stream& stream, const double* direction, double* omega) const {
  if (!supports_orthogonal()) PartSampler::sample_along(stream, direction, omega);
  sample(stream, omega);
  double norm = 0.0;
  for (int k = 0; k < d_; ++k) norm += omega[k] * omega[k];
  norm = std::sqrt(norm);
  for (int k = 0; k < d_; ++k) omega[k] = direction[k] * norm;
}

int ConvolutionLaw::uniform_dimension() const {
  const int a = first_->uniform_dimension(), b = second_->uniform_dimension();
  return a > 0 && b > 0 ? a + b : 0;
}

void ConvolutionLaw::from_uniforms(const double* u, double* omega) const {
  if (uniform_dimension() == 0) PartSampler::from_uniforms(u, omega);
  std::vector<double> other(static_cast<std::size_t>(d_));
  first_->from_uniforms(u, omega);
  second_->from_uniforms(u + first_->uniform_dimension(), other.data());
  for (int k = 0; k < d_; ++k) omega[k] += sign_ * other[k];
}

double ConvolutionLaw::density(double) const { return std::numeric_limits<double>::quiet_NaN(); }

Characteristic ConvolutionLaw::characteristic(double reach, const Poll& poll) const {
  Characteristic first = first_->characteristic(reach, poll);
  Characteristic second = first ? second_->characteristic(reach, poll) : nullptr;
  if (!second) return nullptr;
  return [first = std::move(first), second = std::move(second), difference = sign_ < 0.0](const double* delta) {
    const std::complex<double> other = second(delta);
    return first(delta) * (difference ? std::conj(other) : other);
  };
}

}  // namespace askrff
