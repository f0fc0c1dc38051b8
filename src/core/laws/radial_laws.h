// Rotation-invariant laws defined by their radius: the multivariate Cauchy
// law of the exponential kernel exp(-|D| / pi), which carries the cusp of the
// arc-cosine and NTK kernels, and the stratified radial mixtures of the LP
// measures (vignette "mathematics": "Arc-cosine kernels and the NTK", "An
// L1-minimal discrete measure").
#pragma once
#include <memory>
#include <vector>

#include "core/laws/measure.h"

namespace askrff {

// w = Z / (scale^-1 |g|) with Z ~ N(0, I_d), g ~ N(0, 1): the multivariate
// Cauchy law with scale `scale`, whose characteristic function is exp(-scale |D|).
class CauchyRadialLaw : public RadialLaw {
 public:
  CauchyRadialLaw(int d, double scale) : RadialLaw(d), scale_(scale) {}
  void sample(Stream& stream, double* omega) const override;
  double radius(Stream& stream) const override;
  // Z from d normal quantiles, |g| from the quantile of the last uniform.
  int uniform_dimension() const override { return d_ + 1; }
  void from_uniforms(const double* u, double* omega) const override;
  double density(double radius) const override;
  Characteristic characteristic(double reach, const Poll& poll) const override;

 private:
  double scale_;
};

// A mixture of radial strata with the given probabilities. sample() picks a
// stratum at random; sample_frequencies() instead allocates the frequencies
// to strata systematically (sampling.h). density() is that of the continuous
// strata only: atoms have no density.
class RadialMixtureLaw : public RadialLaw {
 public:
  RadialMixtureLaw(int d, std::vector<RadialStratum> strata);
  void sample(Stream& stream, double* omega) const override;
  // A stratum at random, then its radius.
  double radius(Stream& stream) const override;
  double density(double radius) const override;
  const std::vector<RadialStratum>* strata() const override { return &strata_; }
  // sum_j p_j Omega_d(r_j ||delta||) over the atoms, and the continuous
  // strata's own.
  Characteristic characteristic(double reach, const Poll& poll) const override;

 private:
  std::vector<RadialStratum> strata_;
};

// The parts "pos" and "neg" of an LP measure: atoms c_j at radii
// r_j, each a stratum of the part of its sign, and `cusp` (a law of mass 1
// split off the kernel), if given, a continuous stratum of "pos".
Measure atom_parts(int d, const std::vector<double>& radius, const std::vector<double>& weight,
                   const std::shared_ptr<const RadialLaw>& cusp);

}  // namespace askrff
