// The radial Fourier transform of a kernel supported on distances [0, 2],
// computed stably (Gauss-Legendre after z = 2 - t^2, logs throughout), for
// measures with no closed form.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "core/laws/measure.h"

namespace askrff {

// Gauss-Legendre nodes and weights on [-1, 1].
struct GaussLegendre {
  explicit GaussLegendre(int n);
  std::vector<double> nodes, weights;
};

// The rule of n nodes, built once and kept for the session (a bounded cache).
std::shared_ptr<const GaussLegendre> gauss_legendre_rule(int n);

// Nodes the recipe needs at this radius: max(400, 6 r), rounded up to a
// multiple of 200 so that nearby radii share a rule.
int hankel_nodes(double radius);

// S_{d-1} r^{d-1} mu(r), where mu(r) = (2 pi)^{-d} S_{d-1} int_0^2 k(z) z^{d-1}
// Omega_d(r z) dz. The substitution z = 2 - t^2 removes the square-root
// endpoints of the sphere kernels, and the constants are added as logs
// because (2 pi)^{-d} underflows for large d.
double hankel_radial_density(const std::function<double(double)>& profile, int d, double radius,
                             const GaussLegendre& rule);

// The same transform for a kernel on all of R^d known by its values k(z_i)
// at the nodes z_i = z_range (t_i + 1) / 2 of `rule` (k vanishing beyond
// z_range), less a part whose transform the caller knows (`known`, its values
// at the nodes, or empty): S_{d-1} r^{d-1} (2 pi)^{-d} S_{d-1}
// sum_i w_i (k - known)(z_i) z_i^{d-1} Omega_d(r z_i). The powers z^{d-1} are
// scaled by z_range^{d-1} so they cannot overflow, and Omega_d is evaluated
// in extended precision at r z_i exactly. Its error bound adds 32 eps
// sum_i |term_i| (1 + (x_i + d) eps_extended / eps), Omega_d's rounding
// (its phase is known to about x = r z_i rounding errors, its scale factor to
// about d), and 8 eps times the root of the sum of squares of
// |w_i k(z_i) z_i^{d-1} Omega_d| (1 + |log(k / max k)| + x_i), the errors that
// differ from node to node: k's own rounding (relative, about that of
// exp()) and the rounding of the double nodes, a shift of the integrand's
// phase by about x rounding errors. (Where the Gaussian's transform is 0, the
// sum stays below a quarter of that bound for d up to 200.)
RadialValue profile_radial_density(const std::vector<double>& values, const std::vector<double>& known,
                                   const GaussLegendre& rule, double z_range, int d, double radius);

}  // namespace askrff
