#include "special_functions.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace askrff {

namespace {

// Regularized lower incomplete gamma P(a, x) by its series (x < a + 1).
double gamma_p_series(double a, double x) {
  double term = 1.0 / a, sum = term;
  for (int n = 1; n < 100000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::abs(term) < std::abs(sum) * 1e-17) break;
  }
  return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
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
  return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

double gamma_p(double a, double x) {
  if (x <= 0.0) return 0.0;
  return x < a + 1.0 ? gamma_p_series(a, x) : 1.0 - gamma_q_fraction(a, x);
}

double gamma_q(double a, double x) {
  if (x <= 0.0) return 1.0;
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

double omega_d(int d, double x) {
  x = std::abs(x);
  if (d == 1) return std::cos(x);
  const double half_d = 0.5 * d;
  if (x * x < 2.0 * d) {
    const double q = -0.25 * x * x;
    double term = 1.0, sum = 1.0;
    for (int k = 0; k < 200; ++k) {
      term *= q / ((k + 1) * (half_d + k));
      sum += term;
      if (std::abs(term) < 1e-17 * std::abs(sum)) break;
    }
    return sum;
  }
  const double nu = half_d - 1.0;
  const double j = std::cyl_bessel_j(nu, x);
  if (j == 0.0) return 0.0;
  const double log_magnitude = std::lgamma(half_d) + nu * std::log(2.0 / x) + std::log(std::abs(j));
  return std::copysign(std::exp(log_magnitude), j);
}

}  // namespace askrff
