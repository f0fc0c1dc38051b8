// Per-coordinate length scales ("ARD"): the kernel k(D^-1 (x - y)) with
// D = diag(sigma). If w has the measure of the unit-scale kernel k, then
// D^-1 w has the measure of the scaled one, so the unit law is sampled (by
// any frequency source: orthogonal and structured directions are orthogonal
// in the scaled space) and each coordinate divided by its scale.
#pragma once
#include <Eigen/Dense>
#include <memory>
#include <vector>

#include "core/laws/measure.h"

namespace askrff {

class CoordinateScaledSampler : public PartSampler {
 public:
  // `unit` is the law of the kernel with every scale 1; it must not be a
  // stratified mixture.
  CoordinateScaledSampler(std::shared_ptr<const PartSampler> unit, std::vector<double> scales);
  void sample(Stream& stream, double* omega) const override;
  bool supports_orthogonal() const override { return unit_->supports_orthogonal(); }
  void sample_along(Stream& stream, const double* direction, double* omega) const override;
  int uniform_dimension() const override { return unit_->uniform_dimension(); }
  void from_uniforms(const double* u, double* omega) const override;
  // The density of the unit law's variable, that is of ||D w|| for a radius.
  double density(double x) const override { return unit_->density(x); }
  const char* density_variable() const override { return unit_->density_variable(); }
  bool symmetric() const override { return unit_->symmetric(); }
  // The unit law's at D^-1 delta.
  Characteristic characteristic(double reach, const Poll& poll) const override;

 private:
  void scale(double* omega) const;
  std::shared_ptr<const PartSampler> unit_;
  std::vector<double> inverse_;
};

}  // namespace askrff
