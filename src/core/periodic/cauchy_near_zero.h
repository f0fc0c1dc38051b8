// The expected kernel of two step functions' random periodic features near
// u = 0 when the projection T = w'u is Cauchy (the Laplace kernel: w has
// independent Cauchy coordinates of scale 1 / sigma, so T has scale
// gamma = ||u||_1 / sigma), where the series in k(k u) = exp(-k gamma)
// needs about 14 / gamma terms. The cross-correlation h of the two functions
// is even, 2 pi periodic and piecewise linear, h(t) = h(0) + slope |t| on
// [-reach, reach] (correlation_near_zero()), so with |t| taken on [-pi, pi]
//   E h(T) = h(0) + slope E|T| + E r(T),   r(t) = h(t) - h(0) - slope |t|,
// which depends on T mod 2 pi only: the wrapped Cauchy law,
// p(t) = sinh(gamma) / (2 pi (cosh(gamma) - cos t)). E|T| has a closed form,
// and since r vanishes on [-reach, reach],
//   E r(T) = sinh(gamma) / pi * G(cosh gamma),  G(c) = int_reach^pi r(t) / (c - cos t) dt,
// where G is analytic in c off [-1, cos(reach)]: a Chebyshev interpolant on
// [1, 2 - cos(reach)] (distance to the singularity: the interval's length)
// converges like 5.8^-n, and its error, checked at the midpoints of its
// nodes when built, stays below 1e-13 of max |G|. Each value then costs a
// fixed number of operations, whatever gamma.
#pragma once
#include <vector>

#include "core/periodic/periodic_function.h"

namespace askrff {

// E|T| for T Cauchy of scale gamma wrapped to [-pi, pi]:
// pi / 2 - (4 / pi) sum_{k odd} exp(-k gamma) / k^2
// = -(2 gamma / pi) log(y) + (4 / pi) chi_2(y), y = tanh(gamma / 2), by
// Landen's identity for Legendre's chi_2 (a series in y^2, below 0.22 for
// gamma <= 1).
double wrapped_cauchy_mean_abs(double gamma);

// The largest gamma the expansion takes for a correlation of this reach:
// min(1, acosh(2 - cos(reach))), about reach for small reach.
double cauchy_gamma_max(double reach);

class CauchyNearZero {
 public:
  // Two step functions (both with cosine_jumps()).
  CauchyNearZero(const PeriodicFunction& f, const PeriodicFunction& g);
  double gamma_max() const { return gamma_max_; }
  // E h(T), T ~ Cauchy(0, gamma), for gamma <= gamma_max().
  double expectation(double gamma) const;

 private:
  double remainder_table(double c) const;
  CorrelationNearZero near_;
  double gamma_max_, c_max_;
  std::vector<double> chebyshev_;  // of G on [1, c_max_]; empty where r = 0 on [0, pi]
};

}  // namespace askrff
