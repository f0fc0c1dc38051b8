// The radial Fourier transform of a kernel supported on distances [0, 2],
// by the stable recipe of SPEC 5, for measures with no closed form.
#pragma once
#include <functional>
#include <memory>
#include <vector>

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
// z_range): S_{d-1} r^{d-1} (2 pi)^{-d} S_{d-1} sum_i w_i k(z_i) z_i^{d-1} Omega_d(r z_i).
// The powers z^{d-1} are scaled by z_range^{d-1} so they cannot overflow, and a
// sum below 64 rounding errors of its terms is returned as 0, not as noise.
double profile_radial_density(const std::vector<double>& values, const GaussLegendre& rule, double z_range, int d,
                              double radius);

}  // namespace askrff
