// Laws A mu_g(w) h(a'w) / mass on R^d, mu_g the density of N(0, sigma^-2 I):
// the positive parts of the Shift-, Sinh- and Cosh-Gaussian measures. They are
// sampled exactly by the lift of SPEC 1.4: draw T = a'w from its 1-D law,
// then w = (T / ||a||^2) a + (I - a a' / ||a||^2) z / sigma with z ~ N(0, I_d).
#pragma once
#include <Eigen/Dense>

#include "core/laws/measure.h"
#include "core/laws/profiled_gaussian.h"

namespace askrff {

class LiftedGaussianSampler : public PartSampler {
 public:
  // `a` may be zero: the law is then N(0, sigma^-2 I) (with mean profile h(0)).
  LiftedGaussianSampler(double sigma, Eigen::VectorXd a, Profile profile, double amplitude);
  void sample(Stream& stream, double* omega) const override;
  // The direction u times a chi_d radius is the Gaussian vector z of the lift,
  // so orthogonal directions make the frequencies' components across a
  // orthogonal (exactly orthogonal when h = 1: the law is then isotropic).
  bool supports_orthogonal() const override { return true; }
  void sample_along(Stream& stream, const double* direction, double* omega) const override;
  // d normal quantiles for the Gaussian vector z of the lift, and one
  // quantile of the projection's law.
  int uniform_dimension() const override { return static_cast<int>(unit_a_.size()) + 1; }
  void from_uniforms(const double* u, double* omega) const override;
  // Density of the projection a'w / ||a|| (of w_1 when a = 0).
  double density(double projection) const override;
  const char* density_variable() const override { return "projection"; }
  // E h(a'w) under mu_g: the part's mass divided by its amplitude factor.
  double profile_mean() const { return law_.mean(); }

 private:
  void lift_in_place(double t, double* omega) const;

  double sigma_, a_norm_;
  Eigen::VectorXd unit_a_;
  Profile profile_;
  ProfiledGaussian law_;
};

}  // namespace askrff
