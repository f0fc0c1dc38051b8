// The elementary laws and draws the other laws are built from: the Gaussian
// and Cauchy-product measures of the Gaussian and Laplace kernels, Gamma and
// chi radii, uniform directions, and the sphere's area for radial densities.
#pragma once

#include "core/laws/measure.h"
#include "core/numerics/random.h"

namespace askrff {

// N(0, sigma^-2 I): the Gaussian kernel's measure.
class GaussianSampler : public RadialLaw {
 public:
  GaussianSampler(int d, double sigma) : RadialLaw(d), sigma_(sigma) {}
  void sample(Stream& stream, double* omega) const override;
  double radius(Stream& stream) const override;
  int uniform_dimension() const override { return d_; }
  void from_uniforms(const double* u, double* omega) const override;
  double density(double radius) const override;
  Characteristic characteristic(double reach, const Poll& poll) const override;

 private:
  double sigma_;
};

// Independent Cauchy(0, 1/sigma) coordinates: the measure of exp(-||x||_1 / sigma).
class CauchyProductSampler : public PartSampler {
 public:
  CauchyProductSampler(int d, double sigma) : d_(d), sigma_(sigma) {}
  void sample(Stream& stream, double* omega) const override;
  int uniform_dimension() const override { return d_; }
  void from_uniforms(const double* u, double* omega) const override;
  double density(double coordinate) const override;
  const char* density_variable() const override { return "coordinate"; }
  bool symmetric() const override { return true; }
  Characteristic characteristic(double reach, const Poll& poll) const override;

 private:
  int d_;
  double sigma_;
};

// A Gamma(shape, 1) draw, exact, in O(1).
double gamma_draw(Stream& stream, double shape);

// ||z|| for z ~ N(0, I_d): a chi_d draw, exact, in O(1).
double chi_radius(Stream& stream, int d);

// log of the surface area of the unit sphere in R^d, S_{d-1} = 2 pi^{d/2} / Gamma(d/2).
double log_sphere_area(int d);

// log of the Jacobian S_{d-1} r^{d-1} that turns a radial density mu(r) into
// the density of ||w|| (vignette "mathematics", "The Jacobian of radial
// laws"); r > 0, or any r when d = 1 (S_0 = 2).
double log_radial_jacobian(int d, double radius);

// A uniform direction on the unit sphere of R^d.
void uniform_direction(Stream& stream, int d, double* direction);

// The same from d uniforms: normal quantiles of each, normalized (the first
// axis in the null event that all are 1/2).
void direction_from_uniforms(int d, const double* u, double* direction);

}  // namespace askrff
