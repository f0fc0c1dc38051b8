// The periodic maps of random periodic features (Schellekens and Jacques
// 2020). A PeriodicFunction is an even, real, 2 pi periodic function f,
// centred and bounded by one. Being even, f(t) is a function of c = cos t
// (t -> cos t is one to one on [0, pi]), which is how features compute it;
// its Fourier coefficients
// F_k = (1/2pi) int f(t) e^{-ikt} dt are real, with F_{-k} = F_k.
// periodic_functions.cpp holds the cosine and the b-bit quantizers of it.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace askrff {

class PeriodicFunction {
 public:
  virtual ~PeriodicFunction() = default;
  // f(t) from c = cos(t), in place over n values: features call it once per
  // column of a block of rows, not once per value.
  virtual void from_cosines(double* c, std::size_t n) const = 0;
  double from_cosine(double c) const {
    from_cosines(&c, 1);
    return c;
  }
  // F_k for k >= 1, and all of F_1..F_k_max at once.
  virtual double coefficient(long k) const = 0;
  virtual std::vector<double> coefficients(long k_max) const = 0;
  // The highest k with F_k != 0, or 0 when there are infinitely many.
  virtual long last_harmonic() const { return 0; }
  // Takes the values +-1 only: its features can be stored as bits (sign_bits.h).
  virtual bool binary() const { return false; }
  // Total variation over one period, so |F_k| <= variation / (2 pi k).
  virtual double variation() const = 0;
  // For a step function, the sorted c in (-1, 1) where f(arccos c) jumps;
  // empty for a continuous function.
  virtual std::vector<double> cosine_jumps() const { return {}; }
  // The points of [0, 2 pi) where a step function jumps.
  std::vector<double> jumps_over_period() const;
};

// The functions R names: "cos", "square" and "<b>-bit quantizer" for
// b = 2..8. Throws std::invalid_argument for any other name.
std::unique_ptr<const PeriodicFunction> make_periodic_function(const std::string& name);

// The highest k where F_k G_k may be nonzero, or 0 when there is none.
long last_common_harmonic(const PeriodicFunction& f, const PeriodicFunction& g);

// <f, g> = (1/2pi) int f g dt = sum_k F_k G_k, exactly: a finite sum when
// either has finitely many harmonics, else over the cells of two step functions.
double inner_product(const PeriodicFunction& f, const PeriodicFunction& g);

// The cross-correlation h(tau) = (1/2pi) int f(t + tau) g(t) dt of two step
// functions near tau = 0: it is piecewise linear and even, so
// h(tau) = h(0) + slope |tau| for |tau| <= reach, where reach is its
// nearest breakpoint other than 0 and h(0) = <f, g>.
struct CorrelationNearZero {
  double at_zero, slope, reach;
};
CorrelationNearZero correlation_near_zero(const PeriodicFunction& f, const PeriodicFunction& g);

}  // namespace askrff
