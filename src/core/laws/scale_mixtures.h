// Isotropic kernels that are Gaussian scale mixtures, k(r) = E exp(-rho^2 r^2
// / (2 sigma^2)): their measure is the law of w = rho Z / sigma, Z ~ N(0, I_d)
// independent of the random scale rho >= 0 (Matern: a multivariate Student
// t; rational quadratic: a gamma mixture; generalized Gaussian: a positive
// stable mixture). Sampled exactly: rho, then a Gaussian direction and radius.
#pragma once
#include <memory>
#include <mutex>
#include <vector>

#include "core/laws/measure.h"

namespace askrff {

class ScaleLaw {
 public:
  virtual ~ScaleLaw() = default;
  // E exp(-rho^2 r^2 / 2): the kernel at the scaled distance r, which is also
  // the mixture's characteristic function at ||delta|| = sigma r.
  virtual double kernel(double r) const = 0;
  virtual double sample(Stream& stream) const = 0;
  // rho from uniform_dimension() uniforms in (0, 1), with exactly its law.
  virtual int uniform_dimension() const = 0;
  virtual double from_uniforms(const double* u) const = 0;
  // Equally weighted values of rho (from_uniforms() on a midpoint grid of
  // its uniforms), computed once on first use: densities average over them.
  const std::vector<double>& quadrature_scales() const;

 private:
  mutable std::once_flag once_;
  mutable std::vector<double> scales_;
};

// rho = (G / shape)^exponent with G ~ Gamma(shape, 1): exponent -1/2 gives the
// Matern kernel of smoothness nu = shape, +1/2 the rational quadratic kernel
// of alpha = shape.
std::shared_ptr<const ScaleLaw> matern_scale(double nu);
std::shared_ptr<const ScaleLaw> rational_quadratic_scale(double alpha);

// rho = sqrt(2 S) with S positive stable of index alpha in (0, 1], E exp(-t S)
// = exp(-t^alpha) (Kanter's representation): the kernel exp(-(r / sigma)^(2 alpha)).
std::shared_ptr<const ScaleLaw> stable_scale(double alpha);

class ScaleMixtureSampler : public RadialLaw {
 public:
  ScaleMixtureSampler(int d, double sigma, std::shared_ptr<const ScaleLaw> law)
      : RadialLaw(d), sigma_(sigma), law_(std::move(law)) {}
  void sample(Stream& stream, double* omega) const override;
  double radius(Stream& stream) const override;
  // Z from d normal quantiles, rho from the law's own uniforms.
  int uniform_dimension() const override { return d_ + law_->uniform_dimension(); }
  void from_uniforms(const double* u, double* omega) const override;
  // The density of ||w||, the Gaussian one averaged over the law's quadrature
  // scales: for plots, accurate to about 1e-3 where the density is not tiny.
  double density(double radius) const override;
  Characteristic characteristic(double reach, const Poll& poll) const override;

 private:
  double sigma_;
  std::shared_ptr<const ScaleLaw> law_;
};

}  // namespace askrff
