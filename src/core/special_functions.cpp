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

double normal_quantile(double p) {
  if (!(p > 0.0 && p < 1.0)) throw std::invalid_argument("normal_quantile needs p in (0, 1)");
  const double q = p - 0.5;
  if (std::abs(q) <= 0.425) {
    const double r = 0.180625 - q * q;
    return q * (((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r +
                    45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r +
                 133.14166789178437745) * r + 3.387132872796366608) /
           (((((((5226.495278852545925 * r + 28729.085735721942674) * r + 39307.89580009271061) * r +
                21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r +
             42.313330701600911252) * r + 1.0);
  }
  double r = std::sqrt(-std::log(q < 0.0 ? p : 1.0 - p));
  double value;
  if (r <= 5.0) {
    r -= 1.6;
    value = (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r + 0.24178072517745061177) * r +
                 1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r +
              4.6303378461565452959) * r + 1.42343711074968357734) /
            (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r +
                 0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r +
              2.05319162663775882187) * r + 1.0);
  } else {
    r -= 5.0;
    value = (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r +
                 0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r +
              5.4637849111641143699) * r + 6.6579046435011037772) /
            (((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r +
                 7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r +
              0.59983220655588793769) * r + 1.0);
  }
  return q < 0.0 ? -value : value;
}

}  // namespace askrff
