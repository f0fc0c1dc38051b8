#include "core/numerics/special_functions.h"

#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>

namespace askrff {

namespace {

// t - log(1 + t), by its series near 0, where the difference cancels.
double log1p_excess(double t) {
  if (std::abs(t) > 0.1) return t - std::log1p(t);
  double power = t * t, sum = 0.0;
  for (int k = 2; k < 40; ++k) {
    const double term = power / k;
    sum += (k % 2 == 0) ? term : -term;
    if (std::abs(term) < 1e-17 * std::abs(sum)) break;
    power *= t;
  }
  return sum;
}

// lgamma(a) - ((a - 1/2) log a - a + log(2 pi) / 2) by Stirling's series,
// for a >= 15, where its next term is below 1e-16.
double stirling_tail(double a) {
  const double r = 1.0 / (a * a);
  return (1.0 / 12.0 - r * (1.0 / 360.0 - r * (1.0 / 1260.0 - r * (1.0 / 1680.0 - r / 1188.0)))) / a;
}

// a log x - x - log Gamma(a). From a = 15 on, written as -a (t - log(1 + t))
// with t = x / a - 1, plus Stirling's terms: the three large terms of the
// direct form cancel and would lose a log(a) * 1e-16 of the result.
double log_gamma_kernel(double a, double x) {
  if (a < 15.0) return a * std::log(x) - x - std::lgamma(a);
  return -a * log1p_excess(x / a - 1.0) + 0.5 * std::log(a / (2.0 * M_PI)) - stirling_tail(a);
}

// Temme's uniform expansion for large a (DLMF 8.12.3, 8.12.8):
// Q(a, x) = erfc(eta sqrt(a / 2)) / 2 + R and P(a, x) = erfc(-eta sqrt(a / 2)) / 2 - R,
// R = exp(-a eta^2 / 2) / sqrt(2 pi a) (C0(eta) + C1(eta) / a + C2(eta) / a^2),
// eta^2 / 2 = x / a - 1 - log(x / a) with the sign of x - a. The Taylor
// coefficients of C0, C1, C2 are DiDonato and Morris's (1986); from
// a = 1e4 on, the omitted C3 / a^3 is below 1e-15 of R, and where eta is too
// large for the series exp(-a eta^2 / 2) underflows to 0.
constexpr double kTemmeShape = 1e4;
constexpr double kTemmeC0[] = {-1.0 / 3.0, .833333333333333e-01, -.148148148148148e-01, .115740740740741e-02,
                               .352733686067019e-03, -.178755144032922e-03, .391926317852244e-04,
                               -.218544851067999e-05, -.185406221071516e-05, .829671134095309e-06,
                               -.176659527368261e-06, .670785354340150e-08, .102618097842403e-07,
                               -.438203601845335e-08};
constexpr double kTemmeC1[] = {-.185185185185185e-02, -.347222222222222e-02, .264550264550265e-02,
                               -.990226337448560e-03, .205761316872428e-03, -.401877572016461e-06,
                               -.180985503344900e-04, .764916091608111e-05, -.161209008945634e-05,
                               .464712780280743e-08, .137863344691572e-06, -.575254560351770e-07,
                               .119516285997781e-07};
constexpr double kTemmeC2[] = {.413359788359788e-02, -.268132716049383e-02, .771604938271605e-03,
                               .200938786008230e-05, -.107366532263652e-03, .529234488291201e-04,
                               -.127606351886187e-04, .342357873409614e-07, .137219573090629e-05,
                               -.629899213838006e-06, .142806142060642e-06};

template <std::size_t n>
double horner(const double (&c)[n], double x) {
  double sum = 0.0;
  for (std::size_t k = n; k-- > 0;) sum = sum * x + c[k];
  return sum;
}

struct TemmeParts {
  double erfc_argument, remainder;
};
TemmeParts temme_parts(double a, double x) {
  const double t = x / a - 1.0;
  const double eta = std::copysign(std::sqrt(2.0 * log1p_excess(t)), t);
  const double gauss = std::exp(-0.5 * a * eta * eta);
  const double series = gauss == 0.0 ? 0.0 : horner(kTemmeC0, eta) + (horner(kTemmeC1, eta) + horner(kTemmeC2, eta) / a) / a;
  return {eta * std::sqrt(0.5 * a), gauss * series / std::sqrt(2.0 * M_PI * a)};
}

// Regularized lower incomplete gamma P(a, x) by its series (x < a + 1).
double gamma_p_series(double a, double x) {
  double term = 1.0 / a, sum = term;
  for (int n = 1; n < 100000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::abs(term) < std::abs(sum) * 1e-17) break;
  }
  return sum * std::exp(log_gamma_kernel(a, x));
}

// Regularized upper incomplete gamma Q(a, x) by Lentz's continued fraction (x >= a + 1).
double gamma_q_fraction(double a, double x) {
  constexpr double tiny = 1e-300;
  double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1.0) < 1e-16) break;
  }
  return std::exp(log_gamma_kernel(a, x)) * h;
}

// The series and the fraction need about sqrt(a) terms near x = a; Temme's
// expansion a fixed number.
double gamma_p(double a, double x) {
  if (x <= 0.0) return 0.0;
  if (a >= kTemmeShape) {
    const TemmeParts t = temme_parts(a, x);
    return 0.5 * std::erfc(-t.erfc_argument) - t.remainder;
  }
  return x < a + 1.0 ? gamma_p_series(a, x) : 1.0 - gamma_q_fraction(a, x);
}

double gamma_q(double a, double x) {
  if (x <= 0.0) return 1.0;
  if (a >= kTemmeShape) {
    const TemmeParts t = temme_parts(a, x);
    return 0.5 * std::erfc(t.erfc_argument) + t.remainder;
  }
  return x < a + 1.0 ? 1.0 - gamma_p_series(a, x) : gamma_q_fraction(a, x);
}

}  // namespace

double chi_square_interval(int d, double lower, double upper) {
  const double a = 0.5 * d, x1 = 0.5 * lower, x2 = 0.5 * upper;
  if (!(x2 > x1)) return 0.0;
  if (std::isinf(x2)) return gamma_q(a, x1);
  if (x2 < a + 1.0) return gamma_p(a, x2) - gamma_p(a, x1);
  if (x1 >= a + 1.0) return gamma_q(a, x1) - gamma_q(a, x2);
  return 1.0 - gamma_p(a, x1) - gamma_q(a, x2);
}

namespace {

// J_nu(x) by Hankel's asymptotic expansion, sqrt(2 / (pi x)) (P cos chi - Q sin chi)
// with chi = x - (nu / 2 + 1/4) pi, summed while its terms shrink. It ends
// exactly for half-integer nu (odd d). Returns false when the terms stop
// shrinking before reaching Real's precision: x is too small for nu.
template <typename Real>
bool bessel_j_asymptotic(Real nu, Real x, Real& value) {
  const Real pi = 3.141592653589793238462643383279502884L, eps = std::numeric_limits<Real>::epsilon();
  const Real mu = 4 * nu * nu;
  Real p = 1, q = 0, term = 1;
  for (int k = 1; k < 200; ++k) {
    const Real next = term * (mu - Real(2 * k - 1) * Real(2 * k - 1)) / (Real(k) * 8 * x);
    if (next == 0) {
      term = 0;
      break;
    }
    if (std::abs(next) >= std::abs(term)) return false;
    term = next;
    // Terms alternate between Q (odd k) and P (even k), with signs + - - + ...
    const Real signed_term = (k % 4 == 1 || k % 4 == 2) ? term : -term;
    if (k % 2 == 1) q += signed_term; else p -= signed_term;
    if (std::abs(term) < eps / 10) break;
  }
  if (std::abs(term) >= eps / 2) return false;
  const Real chi = x - (nu / 2 + Real(0.25)) * pi;
  value = std::sqrt(2 / (pi * x)) * (p * std::cos(chi) - q * std::sin(chi));
  return true;
}

template <typename Real>
Real omega(int d, Real x) {
  x = std::abs(x);
  if (d == 1) return std::cos(x);
  const Real half_d = Real(d) / 2, eps = std::numeric_limits<Real>::epsilon();
  if (x * x < 2 * Real(d)) {
    const Real q = -x * x / 4;
    Real term = 1, sum = 1;
    for (int k = 0; k < 200; ++k) {
      term *= q / ((k + 1) * (half_d + k));
      sum += term;
      if (std::abs(term) < eps / 10 * std::abs(sum)) break;
    }
    return sum;
  }
  const Real nu = half_d - 1;
  // The expansion costs a sincos where it converges (x above about nu^2 / 2),
  // many times less than the library's Bessel function. Boost's, not C++17's
  // std::cyl_bessel_j, which libc++ (clang on macOS) does not have.
  Real j = 0;
  if (x < nu * nu / 2 + 25 || !bessel_j_asymptotic(nu, x, j)) j = boost::math::cyl_bessel_j(nu, x);
  if (j == 0) return 0;
  const Real log_magnitude = std::lgamma(half_d) + nu * std::log(2 / x) + std::log(std::abs(j));
  return std::copysign(std::exp(log_magnitude), j);
}

}  // namespace

double omega_d(int d, double x) { return omega<double>(d, x); }

long double omega_d_extended(int d, long double x) { return omega<long double>(d, x); }

double normal_quantile(double p) {
  if (!(p > 0.0 && p < 1.0)) throw std::invalid_argument("normal_quantile needs p in (0, 1)");
  // Phi^{-1}(p) = -sqrt(2) erfc^{-1}(2p), without cancellation in either
  // tail; in double precision throughout (promoting to long double buys
  // digits the samplers do not need, at twice the cost in their loops)
  using DoublePolicy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;
  return -std::sqrt(2.0) * boost::math::erfc_inv(2.0 * p, DoublePolicy());
}

double matern_large_order(double nu, double r) {
  if (std::isinf(r)) return 0.0;
  // Debye's polynomials u_k(p), k = 1..6, each as coefficients of p^k, p^(k+2), ...
  static const double u1[] = {3.0 / 24, -5.0 / 24};
  static const double u2[] = {81.0 / 1152, -462.0 / 1152, 385.0 / 1152};
  static const double u3[] = {30375.0 / 414720, -369603.0 / 414720, 765765.0 / 414720, -425425.0 / 414720};
  static const double u4[] = {4465125.0 / 39813120, -94121676.0 / 39813120, 349922430.0 / 39813120,
                              -446185740.0 / 39813120, 185910725.0 / 39813120};
  static const double u5[] = {1519035525.0 / 6688604160, -49286948607.0 / 6688604160, 284499769554.0 / 6688604160,
                              -614135872350.0 / 6688604160, 566098157625.0 / 6688604160,
                              -188699385875.0 / 6688604160};
  static const double u6[] = {2757049477875.0 / 4815794995200, -127577298354750.0 / 4815794995200,
                              1050760774457901.0 / 4815794995200, -3369032068261860.0 / 4815794995200,
                              5104696716244125.0 / 4815794995200, -3685299006138750.0 / 4815794995200,
                              1023694168371875.0 / 4815794995200};
  const double z2 = 2.0 * r * r / nu, s = std::sqrt(1.0 + z2), p = 1.0 / s, p2 = p * p;
  const double w = z2 / (1.0 + s);  // s - 1, without cancellation
  // nu (log(1 + w/2) - w) = nu w (log(1 + w/2) / w - 1), with nu w = 2 r^2 / (1 + s).
  const double ratio = w > 1e-3 ? std::log1p(0.5 * w) / w : 0.5 - w * (1.0 / 8 - w * (1.0 / 24 - w * (1.0 / 64 - w / 160)));
  const double exponent = 2.0 * r * r / (1.0 + s) * (ratio - 1.0);
  const double* const u[] = {u1, u2, u3, u4, u5, u6};
  double series = 1.0, inverse_power = 1.0, p_power = 1.0;
  for (int k = 1; k <= 6; ++k) {
    inverse_power /= -nu;
    p_power *= p;
    double even = 0.0;  // u_k(p) / p^k, a polynomial in p^2
    for (int j = k; j >= 0; --j) even = even * p2 + u[k - 1][j];
    series += inverse_power * p_power * even;
  }
  return std::exp(exponent - stirling_tail(nu) - 0.25 * std::log1p(z2)) * series;
}

double gamma_quantile(double shape, double p) {
  if (!(shape > 0.0) || !(p > 0.0 && p < 1.0)) throw std::invalid_argument("gamma_quantile needs shape > 0 and p in (0, 1)");
  // Start: Wilson and Hilferty's cube of a normal, or the small-x form
  // P ~ x^a / Gamma(a + 1) where that is below zero or the shape is small.
  const double z = normal_quantile(p), nine_a = 9.0 * shape;
  double x = shape * std::pow(1.0 - 1.0 / nine_a + z / std::sqrt(nine_a), 3.0);
  if (shape < 1.0 || !(x > 0.0)) x = std::exp((std::log(p) + std::lgamma(shape + 1.0)) / shape);
  double lower = 0.0, upper = std::numeric_limits<double>::infinity();
  for (int iteration = 0; iteration < 200; ++iteration) {
    // Above the median the upper tail Q keeps the digits that 1 - P loses.
    const double f = p <= 0.5 ? gamma_p(shape, x) - p : (1.0 - p) - gamma_q(shape, x);
    if (f < 0.0) lower = x; else upper = x;
    const double density = std::exp(log_gamma_kernel(shape, x)) / x;
    double next = density > 0.0 ? x - f / density : std::numeric_limits<double>::quiet_NaN();
    if (!(next > lower && next < upper)) next = std::isinf(upper) ? 2.0 * x : 0.5 * (lower + upper);
    if (std::abs(next - x) <= 1e-14 * x) return next;
    x = next;
  }
  return x;
}

}  // namespace askrff
