// The periodic functions askrff offers: the cosine, and the b-bit universal
// quantizer of the cosine, q_b(t) = Q_b(cos t), where Q_b rounds [-1, 1] to
// 2^b equal cells with levels spread evenly over [-1, 1]. One bit gives the
// square wave q(t) = sign(cos t) of Schellekens and Jacques (2020), eq. 8. Every q_b is odd about
// t = pi / 2 (q(t + pi) = -q(t)), so only odd harmonics are nonzero.
#include <algorithm>
#include <cmath>
#include <cstdio>
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

std::unique_ptr<const PeriodicFunction> make_periodic_function(const std::string& name) {
  if (name == "cos") return std::make_unique<Cosine>();
  if (name == "square") return std::make_unique<CosineQuantizer>(1);
  int bits = 0;
  char tail = 0;
  if (std::sscanf(name.c_str(), "%d-bit quantizer%c", &bits, &tail) == 1 && bits >= 2 && bits <= 8 &&
      name == std::to_string(bits) + "-bit quantizer") {
    return std::make_unique<CosineQuantizer>(bits);
  }
  throw std::invalid_argument(
      "askrff's periodic functions are \"cos\", \"square\" and \"<b>-bit quantizer\" for b = 2 to 8 (rpf_quantizer(b)).");
}

}  // namespace askrff
