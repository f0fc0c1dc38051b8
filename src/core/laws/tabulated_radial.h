// Radial spectral densities known only numerically (a user's radial kernel,
// or the combined density of a sum of radial kernels): tabulated once in a
// given dimension, split into their minimal Jordan parts, and sampled
// exactly from the piecewise-linear densities of the table.
#pragma once
#include <functional>
#include <vector>

#include "core/laws/measure.h"

namespace askrff {

// A signed radial density S_{d-1} r^{d-1} mu(r) on [radius.front(),
// radius.back()], and estimates of what the table misses: `tail`, the mass
// outside it, `interpolation`, the L1 distance between the piecewise-linear
// table and the density on the table's range, and `rounding`, the L1 norm of
// the computed density's error there.
struct RadialTable {
  std::vector<double> radius, density;
  double tail = 0.0, interpolation = 0.0, rounding = 0.0;
};

// Tabulates `density` (valid for radii up to `radius_limit`, with its
// error) on [r0, R]: R is the smallest radius beyond which the estimated mass
// is at most half of `tolerance` times the density's total variation, r0 the
// largest below which it is at most a quarter (0 unless the density vanishes
// near 0, as in high dimension). The radii come from a scan of 4 per octave
// down from radius_limit, which ends where the density sinks into its
// rounding error; the table's 8193 radii are spaced evenly in
// asinh((r - r0) / ((R - r0) / 2000)), so fine near r0 and relative further
// out, and filled by a cubic spline through 257 exact values. Throws
// std::invalid_argument, with the decay found, when the mass beyond the
// scan's end is too large (a heavy tail, a density that sinks into rounding
// first, or one still growing at radius_limit) or the density is zero.
RadialTable tabulate_radial_density(const std::function<RadialValue(double)>& density, double radius_limit,
                                    double tolerance);

// The minimal Jordan parts "pos" and "neg" of the piecewise-linear signed
// density through (radius, density): zero crossings inside a cell are added
// as knots, so pos - neg is the table exactly. A part whose mass is at most
// `negligible` (spline ripples where the density is zero, below the table's
// stated error) is left out.
Measure jordan_radial_parts(int d, const std::vector<double>& radius, const std::vector<double>& density,
                            double negligible);

// The rotation-invariant law whose radius has the piecewise-linear density
// through (radius, density >= 0), sampled exactly: the cell by its mass, the
// radius within it by inverting the quadratic CDF.
class PiecewiseLinearRadialLaw : public RadialLaw {
 public:
  PiecewiseLinearRadialLaw(int d, std::vector<double> radius, std::vector<double> density);
  double mass() const { return cumulative_.back(); }
  void sample(Stream& stream, double* omega) const override;
  double radius(Stream& stream) const override { return radius_at(stream.uniform()); }
  // A direction from d normal quantiles, the radius from the last uniform.
  int uniform_dimension() const override { return d_ + 1; }
  void from_uniforms(const double* u, double* omega) const override;
  double density(double radius) const override;
  // By quadrature of the radial density (radial_quadrature.h).
  Characteristic characteristic(double reach, const Poll& poll) const override;

 private:
  double radius_at(double u) const;
  std::vector<double> radius_, density_, cumulative_;
};

}  // namespace askrff
