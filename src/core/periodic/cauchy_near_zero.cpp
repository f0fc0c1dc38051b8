#include "core/periodic/cauchy_near_zero.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/laws/hankel.h"

namespace askrff {

namespace {

constexpr double kPi = 3.14159265358979323846;

struct Jump {
  double at, size;  // position in [0, 2 pi) and f(at+) - f(at-)
};

std::vector<Jump> jumps_of(const PeriodicFunction& f) {
  constexpr double kSide = 1e-7;  // as correlation_near_zero(): far below the spacing of any two jumps
  std::vector<Jump> out;
  for (double t : f.jumps_over_period()) {
    out.push_back({t, f.from_cosine(std::cos(t + kSide)) - f.from_cosine(std::cos(t - kSide))});
  }
  return out;
}

// r on [0, pi] as knots (t, r(t)), linear between them. h' = (1/2pi) sum_f
// J_f g(t_f - tau) changes by -(1/2pi) J_f J_g where tau = t_f - t_g mod 2 pi
// passes a jump of g, so r' = h' - slope starts at 0 and changes by that
// much at every such tau in (0, pi]; r(0) = 0.
std::vector<std::pair<double, double>> remainder_knots(const PeriodicFunction& f, const PeriodicFunction& g) {
  std::vector<std::pair<double, double>> kinks;
  for (const Jump& p : jumps_of(f)) {
    for (const Jump& q : jumps_of(g)) {
      const double tau = std::remainder(p.at - q.at, 2.0 * kPi);
      if (tau > 1e-9) kinks.push_back({tau, -p.size * q.size / (2.0 * kPi)});
    }
  }
  std::sort(kinks.begin(), kinks.end());
  std::vector<std::pair<double, double>> knots{{0.0, 0.0}};
  double slope = 0.0;
  for (const auto& [tau, change] : kinks) {
    const auto& [t, r] = knots.back();
    if (tau > t) knots.push_back({tau, r + slope * (tau - t)});
    slope += change;
  }
  const auto& [t, r] = knots.back();
  if (t < kPi) knots.push_back({kPi, r + slope * (kPi - t)});
  return knots;
}

// Gauss-Legendre nodes of int_reach^pi r(t) q(t) dt for any q analytic near
// [reach, pi] but for poles at t = +-i acosh(c), c >= 1: each piece of r is
// cut where it passes 1.5 times its start, so a pole lies at least twice a
// cell's length from it, and 10 nodes then err by about 10^-16 of the cell.
struct Nodes {
  std::vector<double> cosines, weights;  // cos t_q and w_q r(t_q)
};
Nodes remainder_nodes(const std::vector<std::pair<double, double>>& knots) {
  const GaussLegendre& rule = *gauss_legendre_rule(10);
  Nodes out;
  for (std::size_t i = 0; i + 1 < knots.size(); ++i) {
    const auto [t0, r0] = knots[i];
    const auto [t1, r1] = knots[i + 1];
    if (r0 == 0.0 && r1 == 0.0) continue;
    for (double a = t0; a < t1;) {
      const double b = std::min(t1, 1.5 * a), mid = 0.5 * (a + b), half = 0.5 * (b - a);
      for (std::size_t q = 0; q < rule.nodes.size(); ++q) {
        const double t = mid + half * rule.nodes[q];
        out.cosines.push_back(std::cos(t));
        out.weights.push_back(half * rule.weights[q] * (r0 + (r1 - r0) * (t - t0) / (t1 - t0)));
      }
      a = b;
    }
  }
  return out;
}

double remainder_integral(const Nodes& nodes, double c) {
  double sum = 0.0;
  for (std::size_t q = 0; q < nodes.cosines.size(); ++q) sum += nodes.weights[q] / (c - nodes.cosines[q]);
  return sum;
}

double clenshaw(const std::vector<double>& a, double x) {
  double b1 = 0.0, b2 = 0.0;
  for (std::size_t k = a.size(); k-- > 1;) {
    const double b0 = 2.0 * x * b1 - b2 + a[k];
    b2 = b1;
    b1 = b0;
  }
  return x * b1 - b2 + a[0];
}

}  // namespace

double wrapped_cauchy_mean_abs(double gamma) {
  if (gamma <= 0.0) return 0.0;
  const double y = std::tanh(0.5 * gamma), y2 = y * y;
  double power = y, chi = 0.0;
  for (int k = 1; k < 2000; k += 2) {
    const double term = power / (static_cast<double>(k) * k);
    chi += term;
    if (term < 1e-17 * chi) break;
    power *= y2;
  }
  return -(2.0 * gamma / kPi) * std::log(y) + (4.0 / kPi) * chi;
}

double cauchy_gamma_max(double reach) { return std::min(1.0, std::acosh(2.0 - std::cos(reach))); }

CauchyNearZero::CauchyNearZero(const PeriodicFunction& f, const PeriodicFunction& g)
    : near_(correlation_near_zero(f, g)), gamma_max_(cauchy_gamma_max(near_.reach)), c_max_(2.0 - std::cos(near_.reach)) {
  const Nodes nodes = remainder_nodes(remainder_knots(f, g));
  if (nodes.weights.empty()) return;
  const auto at = [&](double x) { return remainder_integral(nodes, 1.0 + 0.5 * (c_max_ - 1.0) * (x + 1.0)); };
  for (int n = 16; n <= 1024; n *= 2) {
    std::vector<double> values(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) values[i] = at(std::cos(kPi * (i + 0.5) / n));
    std::vector<double> a(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
      double sum = 0.0;
      for (int i = 0; i < n; ++i) sum += values[i] * std::cos(kPi * k * (i + 0.5) / n);
      a[k] = (k == 0 ? 1.0 : 2.0) * sum / n;
    }
    // The interpolant against direct values between its nodes.
    double error = 0.0, scale = 0.0;
    for (int i = 0; i <= n; ++i) {
      const double x = std::cos(kPi * i / n), direct = at(x);
      error = std::max(error, std::abs(clenshaw(a, x) - direct));
      scale = std::max(scale, std::abs(direct));
    }
    if (error <= 1e-13 * scale) {
      chebyshev_ = std::move(a);
      return;
    }
  }
  throw std::logic_error("the Chebyshev table of the expected kernel near zero did not converge");
}

double CauchyNearZero::remainder_table(double c) const {
  return clenshaw(chebyshev_, 2.0 * (c - 1.0) / (c_max_ - 1.0) - 1.0);
}

double CauchyNearZero::expectation(double gamma) const {
  double value = near_.at_zero + near_.slope * wrapped_cauchy_mean_abs(gamma);
  if (!chebyshev_.empty() && gamma > 0.0) value += std::sinh(gamma) / kPi * remainder_table(std::cosh(gamma));
  return value;
}

}  // namespace askrff
