#include "core/numerics/bessel_k.h"

#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace askrff {

namespace {

// Where nu log(2 / x) >= kSeriesFrom, K_nu(x) is Gamma(nu) / 2 (2 / x)^nu
// times a short series in (x / 2)^2; elsewhere K_nu(x) is finite:
// K_nu(x) <= Gamma(nu) / 2 (2 / x)^nu < exp(145 + 450) for 1/2 <= nu < 50 (from
// K_nu(x) = (2/x)^nu / 2 int_0^Inf exp(-s - x^2 / (4 s)) s^(nu - 1) ds with
// exp(-x^2 / (4 s)) <= 1), and K_nu(x) <= K_1/2(x) = sqrt(pi / (2 x)) e^-x for
// nu < 1/2. For x <= kHankelFrom, K_nu(x) >= K_0(700) > 1e-306 is normal.
constexpr double kSeriesFrom = 450.0;
constexpr double kHankelFrom = 700.0;

// In double rather than long double: within 3e-15 of 60-digit values over
// the kernel's range, at the cost of the former recurrence (long double
// takes five times longer).
using DoublePolicy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;

bool small_argument(double nu, double x) { return nu * (M_LN2 - std::log(x)) >= kSeriesFrom; }

// K_nu(x) / (Gamma(nu) / 2 (2 / x)^nu) - 1 where small_argument(): the terms
// (-1)^k (x^2 / 4)^k / (k! (nu - 1) ... (nu - k)) for 1 <= k < nu - 1/2 of
// pi / (2 sin(nu pi)) I_-nu(x) (DLMF 10.27.4, 10.25.2). The rest of K_nu is
// of relative order (x / 2)^(2 nu - 1) for nu >= 1 and (x / 2)^(2 nu) below
// (a limit for integer nu): below exp(-450) there.
double small_argument_tail(double nu, double x) {
  const double q = 0.25 * x * x;
  double term = 1.0, sum = 0.0;
  for (int k = 1; k < nu - 0.5; ++k) {
    term *= -q / (k * (nu - k));
    sum += term;
    if (std::abs(term) < 1e-17) break;
  }
  return sum;
}

// log K_nu(x) for x > kHankelFrom by Hankel's expansion
// sqrt(pi / (2 x)) exp(-x) sum_k a_k(nu) / x^k (DLMF 10.40.2). Its terms are
// positive up to k = nu + 1/2, and once the k terms summed are at least
// nu - 1/2 the remainder is below the first term left out (DLMF 10.40.10); for
// nu < 50 and x > 700 they fall below 1e-17 of the sum long before they
// would grow again (near k = 2 x).
double log_hankel(double nu, double x) {
  const double mu = 4.0 * nu * nu;
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 2000; ++k) {
    const double odd = 2.0 * k - 1.0;
    term *= (mu - odd * odd) / (8.0 * k * x);
    if (k >= nu - 0.5 && std::abs(term) < 1e-17 * sum) break;
    sum += term;
  }
  return 0.5 * std::log(M_PI / (2.0 * x)) - x + std::log(sum);
}

}  // namespace

double log_bessel_k(double nu, double x) {
  if (!(nu >= 0.0) || !std::isfinite(nu) || !(x > 0.0)) {
    throw std::invalid_argument("log_bessel_k needs nu >= 0 and x > 0");
  }
  if (std::isinf(x)) return -std::numeric_limits<double>::infinity();
  if (x > kHankelFrom) return log_hankel(nu, x);
  if (small_argument(nu, x)) {
    return boost::math::lgamma(nu) - M_LN2 + nu * (M_LN2 - std::log(x)) + std::log1p(small_argument_tail(nu, x));
  }
  return std::log(boost::math::cyl_bessel_k(nu, x, DoublePolicy()));
}

MaternBesselForm::MaternBesselForm(double nu)
    : nu_(nu),
      constant_(std::pow(2.0, 1.0 - nu) / boost::math::tgamma(nu)),
      log_constant_((1.0 - nu) * M_LN2 - boost::math::lgamma(nu)) {
  if (!(nu > 0.0 && nu < 50.0)) throw std::invalid_argument("MaternBesselForm needs nu in (0, 50)");
}

double MaternBesselForm::operator()(double t) const {
  if (std::isnan(t)) return t;  // Boost asserts on it
  if (t == 0.0) return 1.0;
  if (std::isinf(t)) return 0.0;
  // The value is below exp(-600) there, so the cancellation of its logarithms
  // costs no more than their own rounding.
  if (t > kHankelFrom) return std::exp(log_constant_ + nu_ * std::log(t) + log_hankel(nu_, t));
  // The product is the leading bound times 1 + tail, the constants cancelling.
  if (small_argument(nu_, t)) return 1.0 + small_argument_tail(nu_, t);
  // K_nu(t) < exp(600) and t^nu > exp(-451) here: each factor is a normal double.
  return constant_ * std::pow(t, nu_) * boost::math::cyl_bessel_k(nu_, t, DoublePolicy());
}

}  // namespace askrff
