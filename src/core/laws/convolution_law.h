// The law of w1 + s w2 for independent w1, w2 (s = +1 or -1): a part of a
// product kernel, whose measure is the convolution of its factors' measures.
#pragma once
#include <memory>

#include "core/laws/measure.h"

namespace askrff {

class ConvolutionLaw : public PartSampler {
 public:
  ConvolutionLaw(int d, std::shared_ptr<const PartSampler> first, std::shared_ptr<const PartSampler> second,
                 double sign);
  void sample(Stream& stream, double* omega) const override;
  // Both laws rotation invariant: then so is the sum, whose norm is
  // independent of its direction, so a draw's norm completes any direction.
  bool supports_orthogonal() const override { return rotation_invariant(); }
  void sample_along(Stream& stream, const double* direction, double* omega) const override;
  int uniform_dimension() const override;
  void from_uniforms(const double* u, double* omega) const override;
  // No closed form: plots refuse products (R/measure-spectral.R).
  double density(double) const override;
  const char* density_variable() const override { return "convolution"; }
  bool rotation_invariant() const override { return first_->rotation_invariant() && second_->rotation_invariant(); }
  bool symmetric() const override { return first_->symmetric() && second_->symmetric(); }
  // phi_1(delta) phi_2(s delta): the factors' values, the second conjugated
  // for a difference frequency.
  Characteristic characteristic(double reach, const Poll& poll) const override;

 private:
  int d_;
  std::shared_ptr<const PartSampler> first_, second_;
  double sign_;
};

}  // namespace askrff
