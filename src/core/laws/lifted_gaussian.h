// Laws A mu_g(w) h(a'w) / mass on R^d, mu_g the density of N(0, sigma^-2 I):
// the positive parts of the Shift-, Sinh- and Cosh-Gaussian measures. They are
// sampled exactly by a lift (vignette "mathematics", "Exact total masses of
// the asymmetric kernels"): draw T = a'w from its 1-D law,
// then w = (T / ||a||^2) a + (I - a a' / ||a||^2) z / sigma with z ~ N(0, I_d).
#pragma once
#include <Eigen/Dense>

#include "core/laws/elementary_laws.h"
#include "core/laws/measure.h"
#include "core/laws/profile_series.h"
#include "core/laws/profiled_gaussian.h"

namespace askrff {

// Under mu_g, w'delta = beta T + G for the projection T = a'w ~ N(0, s^2),
// s = ||a|| / sigma, beta = a'delta / ||a||^2 and G ~ N(0, ||delta_perp||^2 /
// sigma^2) independent of T, so E H(T) exp(i w'delta) is a 1-D Gaussian
// mean of H's Fourier series times exp(-||delta_perp||^2 / (2 sigma^2)).
struct LiftedGeometry {
  Eigen::VectorXd unit_a;
  double a_norm, sigma, mean;  // mean: E h(T), the law's normaliser
  // E H(T) exp(i j w'delta) under mu_g, divided by E h(T).
  std::complex<double> operator()(const FourierSeries& H, const double* delta, double j) const;
};

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
  std::vector<double> density_direction() const override {
    return std::vector<double>(unit_a_.data(), unit_a_.data() + unit_a_.size());
  }
  // E h(a'w) under mu_g: the part's mass divided by its amplitude factor.
  double profile_mean() const { return law_.mean(); }
  // From the Fourier series of h (the closed forms of profile_series());
  // empty where a kinked profile's series needs over 5000 terms (a tiny
  // against sigma).
  Characteristic characteristic(double reach, const Poll& poll) const override;
  // h(t), and what the characteristic functions of the law with a phase
  // phi(a'w) take: E_law exp(i j (w'delta + phi(a'w))) is the geometry
  // applied to the series of h(t) exp(i j phi(t)).
  double profile_value(double t) const { return askrff::profile_value(profile_, t, amplitude_); }
  const LiftedGeometry& geometry() const { return geometry_; }

 private:
  void lift_in_place(double t, double* omega) const;

  double sigma_, a_norm_, amplitude_;
  Eigen::VectorXd unit_a_;
  Profile profile_;
  ProfiledGaussian law_;
  LiftedGeometry geometry_;
};

}  // namespace askrff
