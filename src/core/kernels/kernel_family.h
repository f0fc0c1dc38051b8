// What a kernel family declares, once: which of its parameters are given per
// coordinate, the kind of spectral measure it has, the settings it takes, and how
// it is built. The frequency sources follow from the measure's laws
// (measure_sources() in sampling.h). The registry (kernel_registry.cpp)
// lists every family; R asks it through kernel_traits() instead of keeping
// lists of names, and make_kernel() builds from it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/kernels/kernels.h"

namespace askrff {

// A kernel-specific setting of rff_map(): a word among `choices` (the first
// is the default) or, when there are none, a number in (lower, upper] (or
// (lower, upper) when upper_open). A setting with `needs` = {"route",
// "stationary"} applies only when that other setting has that value.
struct Setting {
  std::string name;
  std::vector<std::string> choices;
  double default_number = 0.0, lower = 0.0, upper = 0.0;
  bool upper_open = false;
  std::vector<std::string> needs;
};

// A parameter measured in the data's units: the kernel of the data divided
// by s, k(x / s, y / s), is the same family's with this parameter multiplied
// by s^power (power 1 for length scales and shifts, -1 for rates). A
// coordinate parameter takes a vector s, one scale per coordinate.
struct ScaledParam {
  std::string name;
  int power = 1;
};

struct KernelTraits {
  std::vector<std::string> coordinate_params;  // vectors of one value per coordinate, or one for all
  // What rescaling the data changes (see ScaledParam); empty for a kernel
  // without a length scale. Expressions scale their terms.
  std::vector<ScaledParam> scaled_params;
  std::string measure;         // "positive", "signed", "complex", or "none" (nothing to sample)
  bool radial = false;         // a rotation-invariant measure, with radial_density()
  bool on_sphere = false;      // the data must have rows of unit norm
  bool periodic = false;       // random periodic features apply: Kernel::ray() is given
  std::vector<Setting> settings;
  std::string features = "trig";     // how frequencies become features, under the spec's settings
};

struct KernelFamily {
  std::string name;  // the R constructor is <name>_kernel()
  // The traits under the spec's parameters and settings (a setting may change
  // the features, and a parameter a default or the measure's kind).
  KernelTraits (*traits)(const KernelSpec& spec);
  std::unique_ptr<Kernel> (*make)(const KernelSpec& spec);
  // Rules that need the dimension beyond the lengths of coordinate vectors;
  // throws std::invalid_argument with the reason.
  void (*check_dimension)(const KernelSpec& spec, int d);
};

// The traits of a kernel with a single positive part that does not increase
// along rays (Gaussian, Laplace): open to random periodic features, with the
// length scale `sigma`.
KernelTraits scale_family_traits(bool radial);

const std::vector<KernelFamily>& kernel_families();
// Throws for a name no family has.
const KernelFamily& kernel_family(const std::string& name);
KernelTraits kernel_traits(const KernelSpec& spec);
// The coordinate vectors have length 1 or d, then the family's own rules.
void check_kernel_dimension(const KernelSpec& spec, int d);

// A parameter given as one number means that number in every coordinate.
std::vector<double> expand_coordinates(const std::vector<double>& values, int d);

}  // namespace askrff
