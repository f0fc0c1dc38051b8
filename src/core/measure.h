// Spectral measures as lists of positive parts. Every estimator askrff builds
// is  sum over parts of  coefficient * mass * E cos(w'(x - y) + right_phase)
// under that part's normalised law, so a new kernel adds parts, not a pipeline.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "random.h"

namespace askrff {

// A probability law on R^d: the normalised positive part.
class PartSampler {
 public:
  virtual ~PartSampler() = default;
  // Writes one frequency (d numbers) to omega.
  virtual void sample(Stream& stream, double* omega) const = 0;
  // Rotation-invariant laws can be sampled as direction times radius, which
  // orthogonal random features require.
  virtual bool isotropic() const = 0;
  // Draws ||w||; only called when isotropic().
  virtual double sample_radius(Stream& stream) const;
  // Density shown by plot(spectral_measure()): of ||w|| when isotropic, of the
  // first coordinate otherwise (see density_variable()).
  virtual double density(double x) const = 0;
  const char* density_variable() const { return isotropic() ? "radius" : "coordinate"; }
};

struct Part {
  std::string name;          // "pos", "neg", "real_pos", ... (total_masses() names)
  double mass;               // total mass of the positive part
  bool mass_exact;           // closed form or quadrature, not an estimate
  double coefficient;        // sign and factor in the estimator (+1, -1, -2)
  double right_phase;        // 0: phi on the right; pi/2: psi = [-sin, cos]
  std::shared_ptr<const PartSampler> sampler;
};

using Measure = std::vector<Part>;

// N(0, sigma^-2 I): the Gaussian kernel's measure.
class GaussianSampler : public PartSampler {
 public:
  GaussianSampler(int d, double sigma) : d_(d), sigma_(sigma) {}
  void sample(Stream& stream, double* omega) const override;
  bool isotropic() const override { return true; }
  double sample_radius(Stream& stream) const override;
  double density(double radius) const override;

 private:
  int d_;
  double sigma_;
};

// Independent Cauchy(0, 1/sigma) coordinates: the measure of exp(-||x||_1 / sigma).
class CauchyProductSampler : public PartSampler {
 public:
  CauchyProductSampler(int d, double sigma) : d_(d), sigma_(sigma) {}
  void sample(Stream& stream, double* omega) const override;
  bool isotropic() const override { return false; }
  double density(double coordinate) const override;

 private:
  int d_;
  double sigma_;
};

// log of the surface area of the unit sphere in R^d, S_{d-1} = 2 pi^{d/2} / Gamma(d/2).
double log_sphere_area(int d);

}  // namespace askrff
