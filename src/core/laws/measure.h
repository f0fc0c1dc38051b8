// Spectral measures as lists of positive parts. Every estimator askrff builds
// is  sum over parts of  coefficient * mass * E cos(w'(x - y) + left_phase(w) - right_phase)
// under that part's normalised law, so a new kernel adds parts, not a pipeline.
#pragma once
#include <complex>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/numerics/random.h"
#include "core/numerics/poll.h"

namespace askrff {

struct RadialStratum;

// A law's characteristic function E exp(i w'delta) at delta (d numbers):
// what approximation_study()'s closed-form variance takes of every part
// (part_moments.h). Empty where the law has no answer.
using Characteristic = std::function<std::complex<double>(const double* delta)>;

// E exp(i j (w'delta + phase(w))) at (delta, j), j = 1 or 2, for a part
// whose left phase is phase(w).
using PhasedCharacteristic = std::function<std::complex<double>(const double* delta, int j)>;

// A probability law on R^d: the normalised positive part.
class PartSampler {
 public:
  virtual ~PartSampler() = default;
  // Writes one frequency (d numbers) to omega.
  virtual void sample(Stream& stream, double* omega) const = 0;
  // Orthogonal and structured sources hand the law a direction u, uniform (or,
  // for a SORF row, nearly uniform) on the unit sphere; the law completes it to a frequency
  // with its own distribution, drawing the rest from stream.
  virtual bool supports_orthogonal() const { return false; }
  virtual void sample_along(Stream& stream, const double* direction, double* omega) const;
  // Quasi-Monte Carlo drives the law through uniforms: from_uniforms() maps
  // uniform_dimension() numbers in (0, 1) to one frequency by inverse CDFs,
  // so a uniform point gives a frequency with exactly the law. 0: the law
  // has no such form.
  virtual int uniform_dimension() const { return 0; }
  virtual void from_uniforms(const double* u, double* omega) const;
  // Density shown by plot(spectral_measure()), of the variable named by
  // density_variable(): "radius" ||w||, "coordinate" w_1, or "projection" a'w / ||a||.
  virtual double density(double x) const = 0;
  virtual const char* density_variable() const = 0;
  // The unit vector u of a "projection" density, which is that of u'w;
  // empty for the other variables.
  virtual std::vector<double> density_direction() const { return {}; }
  // A law that is a finite mixture of radial strata (the atoms of an LP
  // measure, possibly with one continuous radial law) lists them here, and
  // is then sampled stratified (sampling.h); other laws return nullptr.
  virtual const std::vector<RadialStratum>* strata() const { return nullptr; }
  // Invariant under rotations (then sample_along(u) may scale any unit u by
  // the norm of a draw), and under w -> -w (then a product kernel's part needs
  // no difference frequencies: kernel_expressions.cpp).
  virtual bool rotation_invariant() const { return false; }
  virtual bool symmetric() const { return rotation_invariant(); }
  // The characteristic function for ||delta|| up to `reach`: in closed form,
  // or prepared here by quadrature (polling); empty where unknown.
  virtual Characteristic characteristic(double reach, const Poll& poll) const;
};

// A rotation-invariant law of R^d: w = r u with u uniform on the unit sphere
// and the radius r independent of it. A law gives the radius's draw; the
// completion of a given direction (w = r u, the orthogonal and structured
// sources' entry), the density's variable and the invariances are common.
class RadialLaw : public PartSampler {
 public:
  explicit RadialLaw(int d) : d_(d) {}
  // One draw of ||w||: all the randomness sample_along() takes.
  virtual double radius(Stream& stream) const = 0;
  bool supports_orthogonal() const override { return true; }
  void sample_along(Stream& stream, const double* direction, double* omega) const override;
  const char* density_variable() const override { return "radius"; }
  bool rotation_invariant() const override { return true; }

 protected:
  int d_;
};

// One stratum of a radial mixture: an atom at `radius`, or, when `law` is
// set, a rotation-invariant law.
struct RadialStratum {
  double probability;
  double radius;
  std::shared_ptr<const RadialLaw> law;
};

struct Part {
  std::string name;          // "pos", "neg", "real_pos", ... (total_masses() names)
  double mass;               // total mass of the positive part
  bool mass_exact;           // closed form or quadrature, not an estimate
  double coefficient;        // sign and factor in the estimator (+1, -1, -2)
  double right_phase;        // 0: phi on the right; pi/2: psi = [-sin, cos]
  std::shared_ptr<const PartSampler> sampler;
  // Phase of mu at w when the part samples |mu| (the phase form, vignette
  // "mathematics"); empty means 0.
  std::function<double(const double* omega)> left_phase = nullptr;
  // How frequencies become features (feature_map.h): "trig" for cos and sin
  // of w'x, "step", "relu" or "ntk" for the dot-product kernels on the sphere.
  std::string features = "trig";
  // The magnitude of the weights a kernel expression put into `coefficient`
  // (1 outside expressions), so that weight * mass is the part's mass in the
  // kernel's measure: 0.5 and 2 for the parts of 0.5 k1 + 2 k2.
  double weight = 1.0;
  // For a part with a left phase, what its moments take instead of the law's
  // characteristic function (which does not see the phase), for ||delta|| up
  // to the reach; it returns an empty function where unknown.
  std::function<PhasedCharacteristic(double reach, const Poll& poll)> phased_characteristic = nullptr;
};

using Measure = std::vector<Part>;

// A radial density computed by a cancelling sum, with a bound on its error
// (0 when exact to rounding): a density whose L1 norm bounds what the error
// does to the kernel. A computed value its rounding swamps is given as 0.
struct RadialValue {
  double value = 0.0, error = 0.0;
};

// The characteristic function of a rotation-invariant law whose value at
// ||delta|| = r is radial(r).
Characteristic radial_characteristic(int d, std::function<double(double)> radial);

}  // namespace askrff
