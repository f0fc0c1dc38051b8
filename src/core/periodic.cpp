#include "periodic.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace askrff {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

PeriodicFunction::PeriodicFunction(int bits)
    : bits_(bits), levels_(bits == 0 ? 0 : 1 << bits), half_levels_(levels_ / 2.0) {
  if (bits < 0 || bits > 8) throw std::invalid_argument("a periodic map has 0 (cosine) to 8 bits");
  // Q_b(c) moves up one level at each threshold -1 + 2j/L; on [0, pi] these
  // are the points t_j = arccos(-1 + 2j/L).
  for (int j = 1; j < levels_; ++j) jumps_.push_back(std::acos(-1.0 + 2.0 * j / levels_));
}

// Summation by parts over the cells of [0, pi]: each level step 2/(L - 1)
// at t_j contributes sin(k t_j) / (pi k).
double PeriodicFunction::coefficient(long k) const {
  if (bits_ == 0) return k == 1 ? 0.5 : 0.0;
  if (k % 2 == 0) return 0.0;
  double sum = 0.0;
  for (double t : jumps_) sum += std::sin(k * t);
  return 2.0 / ((levels_ - 1.0) * kPi * k) * sum;
}

// sin((k + 1) t) = 2 cos(t) sin(k t) - sin((k - 1) t) for every jump: the
// rounding error grows like k eps / sin(t), below 1e-9 for k <= 1e6 and 8 bits.
std::vector<double> PeriodicFunction::coefficients(long k_max) const {
  std::vector<double> out(static_cast<std::size_t>(k_max), 0.0);
  if (k_max < 1) return out;
  if (bits_ == 0) {
    out[0] = 0.5;
    return out;
  }
  const double scale = 2.0 / ((levels_ - 1.0) * kPi);
  for (double t : jumps_) {
    const double two_cos = 2.0 * std::cos(t);
    double previous = 0.0, current = std::sin(t);
    for (long k = 1; k <= k_max; ++k) {
      out[static_cast<std::size_t>(k - 1)] += current;
      const double next = two_cos * current - previous;
      previous = current;
      current = next;
    }
  }
  // Even harmonics cancel in pairs (f(t + pi) = -f(t)); make them exact zeros.
  for (long k = 1; k <= k_max; ++k) out[static_cast<std::size_t>(k - 1)] *= k % 2 == 0 ? 0.0 : scale / k;
  return out;
}

std::vector<double> PeriodicFunction::jumps_over_period() const {
  std::vector<double> out(jumps_);
  for (double t : jumps_) out.push_back(2.0 * kPi - t);
  return out;
}

// d h / d tau at 0+: as tau grows, f(t + tau) takes each jump of f at t* a
// little earlier, so h gains (1/2pi) (jump of f at t*) g(t*-) per jump.
// Breakpoints of h are the differences of a jump of f and a jump of g.
CorrelationNearZero correlation_near_zero(const PeriodicFunction& f, const PeriodicFunction& g) {
  constexpr double kLeft = 1e-7;  // far below the spacing of any two jumps (>= 7e-3 at 8 bits)
  const std::vector<double> f_jumps = f.jumps_over_period(), g_jumps = g.jumps_over_period();
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

// Both maps are functions of c = cos t, and dt = dc / sqrt(1 - c^2) on [0, pi],
// so <f, g> = (1/pi) sum over the finer grid's cells of f g (arcsin(c_hi) -
// arcsin(c_lo)). With a cosine on either side it is F_1 of the other.
double inner_product(const PeriodicFunction& f, const PeriodicFunction& g) {
  if (f.bits() == 0) return g.coefficient(1);
  if (g.bits() == 0) return f.coefficient(1);
  const int cells = 1 << std::max(f.bits(), g.bits());
  double sum = 0.0;
  for (int j = 0; j < cells; ++j) {
    const double lo = -1.0 + 2.0 * j / cells, hi = -1.0 + 2.0 * (j + 1) / cells;
    const double mid = 0.5 * (lo + hi);
    sum += f.from_cosine(mid) * g.from_cosine(mid) * (std::asin(hi) - std::asin(lo));
  }
  return sum / kPi;
}

}  // namespace askrff
