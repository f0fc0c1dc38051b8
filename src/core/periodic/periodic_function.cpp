#include "core/periodic/periodic_function.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace askrff {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

std::vector<double> PeriodicFunction::jumps_over_period() const {
  std::vector<double> out;
  for (double c : cosine_jumps()) {
    out.push_back(std::acos(c));
    out.push_back(2.0 * kPi - std::acos(c));
  }
  return out;
}

// d h / d tau at 0+: as tau grows, f(t + tau) takes each jump of f at t* a
// little earlier, so h gains (1/2pi) (jump of f at t*) g(t*-) per jump.
// Breakpoints of h are the differences of a jump of f and a jump of g.
CorrelationNearZero correlation_near_zero(const PeriodicFunction& f, const PeriodicFunction& g) {
  constexpr double kLeft = 1e-7;  // far below the spacing of any two jumps (>= 7e-3 at 8 bits)
  const std::vector<double> f_jumps = f.jumps_over_period(), g_jumps = g.jumps_over_period();
  if (f_jumps.empty() || g_jumps.empty()) throw std::logic_error("correlation_near_zero() needs two step functions");
  double slope = 0.0, reach = kPi;
  for (double t : f_jumps) {
    const double jump = f.from_cosine(std::cos(t + kLeft)) - f.from_cosine(std::cos(t - kLeft));
    slope += jump * g.from_cosine(std::cos(t - kLeft));
    for (double u : g_jumps) {
      const double gap = std::abs(std::remainder(t - u, 2.0 * kPi));
      if (gap > 1e-9) reach = std::min(reach, gap);
    }
  }
  return {inner_product(f, g), slope / (2.0 * kPi), reach};
}

long last_common_harmonic(const PeriodicFunction& f, const PeriodicFunction& g) {
  if (f.last_harmonic() == 0) return g.last_harmonic();
  if (g.last_harmonic() == 0) return f.last_harmonic();
  return std::min(f.last_harmonic(), g.last_harmonic());
}

// With finitely many harmonics on either side, <f, g> = 2 sum_{k >= 1} F_k G_k
// up to the last of them. Two step functions are both constant on the cells
// between their jumps in c, and dt = dc / sqrt(1 - c^2) on [0, pi], so
// <f, g> = (1/pi) sum over cells of f g (arcsin(c_hi) - arcsin(c_lo)).
double inner_product(const PeriodicFunction& f, const PeriodicFunction& g) {
  const long last = last_common_harmonic(f, g);
  if (last > 0) {
    const std::vector<double> a = f.coefficients(last), b = g.coefficients(last);
    double sum = 0.0;
    for (long k = 0; k < last; ++k) sum += 2.0 * a[k] * b[k];
    return sum;
  }
  std::vector<double> edges = f.cosine_jumps(), more = g.cosine_jumps();
  if (edges.empty() || more.empty()) throw std::logic_error("inner_product() needs a finite series or two step functions");
  edges.insert(edges.end(), more.begin(), more.end());
  edges.push_back(-1.0);
  edges.push_back(1.0);
  std::sort(edges.begin(), edges.end());
  double sum = 0.0;
  for (std::size_t j = 0; j + 1 < edges.size(); ++j) {
    const double lo = edges[j], hi = edges[j + 1];
    if (hi <= lo) continue;
    const double mid = 0.5 * (lo + hi);
    sum += f.from_cosine(mid) * g.from_cosine(mid) * (std::asin(hi) - std::asin(lo));
  }
  return sum / kPi;
}

}  // namespace askrff
