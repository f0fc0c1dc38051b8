// The radial Fourier transform of a kernel supported on distances [0, 2],
// by the stable recipe of SPEC 5, for measures with no closed form.
#pragma once
#include <functional>
#include <vector>

namespace askrff {

// Gauss-Legendre nodes and weights on [-1, 1].
struct GaussLegendre {
  explicit GaussLegendre(int n);
  std::vector<double> nodes, weights;
};

// Nodes the recipe needs at this radius: max(400, 6 r), rounded up to a
// multiple of 200 so that nearby radii share a rule.
int hankel_nodes(double radius);

// S_{d-1} r^{d-1} mu(r), where mu(r) = (2 pi)^{-d} S_{d-1} int_0^2 k(z) z^{d-1}
// Omega_d(r z) dz. The substitution z = 2 - t^2 removes the square-root
// endpoints of the sphere kernels, and the constants are added as logs
// because (2 pi)^{-d} underflows for large d.
double hankel_radial_density(const std::function<double(double)>& profile, int d, double radius,
                             const GaussLegendre& rule);

}  // namespace askrff
