// A Gaussian fitted to a radial kernel in dimension d, whose transform is
// known exactly. In high dimension the Hankel transform of a smooth kernel
// cancels to far below its terms (the Gaussian's own density at radius
// sqrt(d) + 4 in d = 128 is 1e-19 of them), so computed directly its tail
// sinks into rounding, and into the spectrum of k's own rounding errors,
// before its mass is negligible. A kernel that equals the fitted Gaussian up
// to a rest r = k - g that is small everywhere needs no such tail: its
// measure is g's, known, plus r's where the quadrature resolves it, and the
// kernel of that differs from k by at most sup |r| + the L1 norm of the part
// of r's density kept (whatever r's true spectrum is).
#pragma once
#include <vector>

#include "core/laws/hankel.h"

namespace askrff {

// a exp(-t^2 / (2 s^2)); a = 0 when no Gaussian fits. `rest` bounds
// |k - g| at every distance.
struct GaussianReference {
  double amplitude = 0.0, scale = 1.0, rest = 0.0;
  double at(double t) const;
  // Its radial spectral density in dimension d, with its rounding error.
  RadialValue radial_density(int d, double radius) const;
};

// The Gaussian whose scale matches the moments of t^{d-1} k(t) of order 0 and
// 2 and whose amplitude is k's least-squares coefficient under that weight,
// from k's values at the nodes of `rule` on [0, z_range]. It is kept only if
// it is itself negligible beyond z_range (where k is taken to be 0) and
// |k - g| at the nodes of `check` (a finer rule) stays below 1e-8 of max |k|.
GaussianReference fit_gaussian_reference(const std::vector<double>& values, const GaussLegendre& rule,
                                         const std::vector<double>& check_values, const GaussLegendre& check,
                                         double z_range, int d);

}  // namespace askrff
