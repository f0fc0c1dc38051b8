// The registry of periodic functions (periodic_functions()) and the functions
// it holds: the cosine, and the b-bit universal
// quantizer of the cosine, q_b(t) = Q_b(cos t), where Q_b rounds [-1, 1] to
// 2^b equal cells with levels spread evenly over [-1, 1]. One bit gives the
// square wave q(t) = sign(cos t) of Schellekens and Jacques (2020), eq. 8. Every q_b is odd about
// t = pi / 2 (q(t + pi) = -q(t)), so only odd harmonics are nonzero.
#include <algorithm>
#include <cmath>
#include <string>
#include <stdexcept>

#include "core/periodic/periodic_function.h"

namespace askrff {

namespace {

constexpr double kPi = 3.14159265358979323846;

class Cosine : public PeriodicFunction {
 public:
  void from_cosines(double*, std::size_t) const override {}
  double coefficient(long k) const override { return k == 1 ? 0.5 : 0.0; }
  std::vector<double> coefficients(long k_max) const override {
    std::vector<double> out(static_cast<std::size_t>(std::max(0L, k_max)), 0.0);
    if (k_max >= 1) out[0] = 0.5;
    return out;
  }
  long last_harmonic() const override { return 1; }
  double variation() const override { return 4.0; }
};

class CosineQuantizer : public PeriodicFunction {
 public:
  explicit CosineQuantizer(int bits) : levels_(1 << bits), half_levels_(levels_ / 2.0) {
    for (int j = 1; j < levels_; ++j) jumps_.push_back(-1.0 + 2.0 * j / levels_);
  }
  void from_cosines(double* c, std::size_t n) const override {
    for (std::size_t i = 0; i < n; ++i) {
      int cell = static_cast<int>((c[i] + 1.0) * half_levels_);
      if (cell < 0) cell = 0;
      if (cell >= levels_) cell = levels_ - 1;
      c[i] = (2.0 * cell + 1.0 - levels_) / (levels_ - 1.0);
    }
  }
  // Summation by parts over the cells of [0, pi]: each level step
  // 2/(L - 1) at t_j = arccos(c_j) contributes sin(k t_j) / (pi k).
  double coefficient(long k) const override {
    if (k % 2 == 0) return 0.0;
    double sum = 0.0;
    for (double c : jumps_) sum += std::sin(k * std::acos(c));
    return 2.0 / ((levels_ - 1.0) * kPi * k) * sum;
  }
  // sin((k + 1) t) = 2 cos(t) sin(k t) - sin((k - 1) t) for every jump: the
  // rounding error grows like k eps / sin(t), below 1e-9 for k <= 1e6 and 8 bits.
  std::vector<double> coefficients(long k_max) const override {
    std::vector<double> out(static_cast<std::size_t>(std::max(0L, k_max)), 0.0);
    const double scale = 2.0 / ((levels_ - 1.0) * kPi);
    for (double c : jumps_) {
      double previous = 0.0, current = std::sqrt(1.0 - c * c);  // sin(arccos c)
      for (long k = 1; k <= k_max; ++k) {
        out[static_cast<std::size_t>(k - 1)] += current;
        const double next = 2.0 * c * current - previous;
        previous = current;
        current = next;
      }
    }
    // Even harmonics cancel in pairs; make them exact zeros.
    for (long k = 1; k <= k_max; ++k) out[static_cast<std::size_t>(k - 1)] *= k % 2 == 0 ? 0.0 : scale / k;
    return out;
  }
  bool binary() const override { return levels_ == 2; }
  double variation() const override { return 4.0; }
  std::vector<double> cosine_jumps() const override { return jumps_; }

 private:
  int levels_;
  double half_levels_;
  std::vector<double> jumps_;
};

}  // namespace

// The registry: a new function is one more row (and keeps the contract of
// periodic_function.h).
const std::vector<PeriodicFunctionEntry>& periodic_functions() {
  static const std::vector<PeriodicFunctionEntry> table = [] {
    std::vector<PeriodicFunctionEntry> rows{{"cos", [] { return std::make_unique<const Cosine>(); }},
                                            {"square", [] { return std::make_unique<const CosineQuantizer>(1); }}};
    for (int bits = 2; bits <= 8; ++bits) {
      rows.push_back({std::to_string(bits) + "-bit quantizer",
                      [bits] { return std::make_unique<const CosineQuantizer>(bits); }});
    }
    return rows;
  }();
  return table;
}

std::unique_ptr<const PeriodicFunction> make_periodic_function(const std::string& name) {
  std::string names;
  for (const PeriodicFunctionEntry& entry : periodic_functions()) {
    if (entry.name == name) return entry.make();
    names += std::string(names.empty() ? "" : ", ") + "\"" + entry.name + "\"";
  }
  throw std::invalid_argument("askrff's periodic functions are " + names + ".");
}

}  // namespace askrff
