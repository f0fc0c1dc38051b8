// Special functions the measures need, in double precision without R.
#pragma once

namespace askrff {

// P(chi^2_d in [lower, upper]) = P(d/2, upper/2) - P(d/2, lower/2), each
// difference taken on the side (P or Q) where it does not cancel.
double chi_square_interval(int d, double lower, double upper);

// Omega_d(x) = E cos(x u_1) for u uniform on the unit sphere of R^d:
// Gamma(d/2) (2/x)^{d/2-1} J_{d/2-1}(x), the radial kernel of the Hankel
// transform. The 0F1(; d/2; -x^2/4) series below sqrt(2d) avoids the Bessel
// function's cancellation there; above it the product is formed in logs.
double omega_d(int d, double x);

// The same in long double (extended precision where the platform has it),
// for sums that cancel far below their terms (hankel.h).
long double omega_d_extended(int d, long double x);

// The standard normal quantile Phi^{-1}(p) for p in (0, 1), from Boost's
// inverse complementary error function (relative error a few units of
// 1e-16).
double normal_quantile(double p);

// The Matern correlation 2^(1 - nu) / Gamma(nu) t^nu K_nu(t), t = sqrt(2 nu) r,
// for nu >= 50, where the Bessel function's recurrence in the order would
// take nu steps per value: Debye's expansion of K_nu(nu z) (DLMF 10.41.4, terms to u_6) with
// Stirling's series of Gamma(nu), combined so that their nu log nu terms
// cancel exactly: log k = nu (log(1 + w/2) - w) - stirling(nu) - log(1 + z^2)/4
// + log U(p), z = t / nu, w = sqrt(1 + z^2) - 1, p = 1 / sqrt(1 + z^2).
// Relative error below 1e-13 for every finite nu >= 50.
double matern_large_order(double nu, double r);

// The Gamma(shape, 1) quantile: P(shape, x) = p for p in (0, 1), by Newton's
// method on the regularized incomplete gamma function, kept in a bracket; the
// function by Temme's uniform expansion from shape 1e4 on, so the cost does
// not grow with the shape. (Boost's gamma_p and gamma_p_inv give up, after a
// million series terms, at shapes from 1e12 to 1e20, which Matern orders
// reach.)
double gamma_quantile(double shape, double p);

}  // namespace askrff
