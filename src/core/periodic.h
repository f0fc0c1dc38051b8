// The periodic maps of random periodic features (003): the cosine, and the
// b-bit universal quantizer of the cosine, q_b(t) = Q_b(cos t), where Q_b
// rounds [-1, 1] to 2^b equal cells with levels spread evenly over [-1, 1].
// One bit gives the square wave q(t) = sign(cos t) of 003 eq. 8. All of them
// are even, 2 pi periodic, centred and bounded by one, so their Fourier
// coefficients F_k are real with F_{-k} = F_k, and vanish for even k.
#pragma once
#include <vector>

namespace askrff {

class PeriodicFunction {
 public:
  // bits = 0 is the cosine; 1..8 the quantizers (1 is the square wave).
  explicit PeriodicFunction(int bits);
  int bits() const { return bits_; }
  // f(t) from c = cos(t): the features are computed through the cosine.
  double from_cosine(double c) const {
    if (bits_ == 0) return c;
    int cell = static_cast<int>((c + 1.0) * half_levels_);
    if (cell < 0) cell = 0;
    if (cell >= levels_) cell = levels_ - 1;
    return (2.0 * cell + 1.0 - levels_) / (levels_ - 1.0);
  }
  // F_k = (1/2pi) int f(t) e^{-ikt} dt, for k >= 1.
  double coefficient(long k) const;
  // All of F_1..F_k_max at once, by a recurrence over the jumps.
  std::vector<double> coefficients(long k_max) const;
  // Total variation over one period; |F_k| <= variation / (2 pi k).
  static constexpr double kVariation = 4.0;
  // The points of [0, 2 pi) where a quantizer jumps (none for the cosine).
  std::vector<double> jumps_over_period() const;

 private:
  int bits_, levels_;
  double half_levels_;
  std::vector<double> jumps_;  // the t in (0, pi) where the quantizer jumps
};

// <f, g> = (1/2pi) int f g dt = sum_k F_k G_k, in closed form.
double inner_product(const PeriodicFunction& f, const PeriodicFunction& g);

// The cross-correlation h(tau) = (1/2pi) int f(t + tau) g(t) dt of two
// quantizers near tau = 0: it is piecewise linear and even, so
// h(tau) = h(0) + slope |tau| for |tau| <= reach, where reach is its
// nearest breakpoint other than 0 and h(0) = <f, g>.
struct CorrelationNearZero {
  double at_zero, slope, reach;
};
CorrelationNearZero correlation_near_zero(const PeriodicFunction& f, const PeriodicFunction& g);

}  // namespace askrff
