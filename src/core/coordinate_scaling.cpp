#include "coordinate_scaling.h"

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

Eigen::MatrixXd scaled_rows(const Eigen::Ref<const Eigen::MatrixXd>& x, const std::vector<double>& scales) {
  Eigen::MatrixXd out(x.rows(), x.cols());
  for (Eigen::Index k = 0; k < x.cols(); ++k) out.col(k) = x.col(k) / scales[static_cast<std::size_t>(k)];
  return out;
}

}  // namespace askrff
