// The characteristic function of a rotation-invariant law known only by the
// density f of its radius R (the Delta-Gaussian's minimal Jordan parts, the
// tabulated radial laws): E exp(i w'delta) = E Omega_d(R ||delta||), by
// Gauss-Legendre panels over f, split where f starts or stops being 0,
// interpolated in ||delta|| through Chebyshev points.
#pragma once
#include <functional>

#include "core/laws/measure.h"

namespace askrff {

// For ||delta|| up to `reach`; empty when the reach is not finite, f is not
// finite or zero, its support runs beyond 2^24 (too heavy-tailed), the
// panels would be more than 20000 (a law too wide against the reach) or
// the interpolant's degree above 1000, or the rule does not integrate f to
// 1 within 1e-6 (a tabulated law integrates to 1 only to its table's
// accuracy; the rule's weights are normalised).
Characteristic radial_quadrature_characteristic(int d, const std::function<double(double)>& density, double reach,
                                                const Poll& poll);

}  // namespace askrff
