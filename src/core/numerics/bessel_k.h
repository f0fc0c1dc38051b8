// The modified Bessel function of the second kind K_nu(x) for the Matern
// kernel's orders below 50: Boost.Math where K_nu(x) is a normal double, and
// the leading expansions where it would overflow (small x) or underflow
// (large x), so that no argument in (0, Inf] loses it.
#pragma once

namespace askrff {

// log K_nu(x) for nu >= 0 and x > 0 (x = Inf gives -Inf).
double log_bessel_k(double nu, double x);

// The Matern correlation 2^(1 - nu) / Gamma(nu) t^nu K_nu(t), nu in (0, 50),
// t >= 0: a product of normal doubles, or, where K_nu(t) would overflow, the
// small-argument series the product reduces to, so its relative error stays
// a few units of rounding where the logarithms of its factors would cancel.
class MaternBesselForm {
 public:
  explicit MaternBesselForm(double nu);
  double operator()(double t) const;

 private:
  double nu_, constant_, log_constant_;
};

}  // namespace askrff
