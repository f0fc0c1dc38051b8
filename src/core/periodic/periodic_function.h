// The periodic maps of random periodic features (Schellekens and Jacques
// 2020). A PeriodicFunction is an even, real, 2 pi periodic function f.
// Being even, f(t) is a function of c = cos t (t -> cos t is one to one on
// [0, pi]), which is how features compute it; its Fourier coefficients
// F_k = (1/2pi) int f(t) e^{-ikt} dt are real, with F_{-k} = F_k.
//
// The contract of every function of the registry (periodic_functions()),
// which the rest of the package assumes and
// tests/testthat/test-periodic-conformance.R checks for each entry:
//  - centred (F_0 = 0) and bounded by one (|f| <= 1);
//  - odd about pi / 2, f(t + pi) = -f(t), that is f(arccos(-c)) = -f(arccos c):
//    its even harmonics are 0. The expected kernel's series sums odd k only
//    (periodic_kernel.cpp), and the closed-form variance of
//    approximation_study() takes f^2 to have period pi (R/study-theory.R);
//  - finitely many harmonics (last_harmonic() > 0, F_k = 0 beyond it) or a
//    step function (cosine_jumps(), f constant between them and jumping at
//    each, the jumps over a period at least 1e-5 apart since
//    correlation_near_zero() reads the levels 1e-7 either side): inner
//    products, the expected kernel near zero and the study's closed form
//    have exact forms for these two kinds only;
//  - coefficient(k) and coefficients(k_max) agree, and
//    <f, f> = 2 sum_{k >= 1} F_k^2 (Parseval), which the expected kernel's
//    weights add up to;
//  - variation() is at least its total variation over a period (it bounds
//    the series' tails);
//  - binary() only if it takes the values +1 and -1 alone (packed bits
//    store the sign);
//  - <f, g> > 0 with every g of the registry, itself included, since
//    estimators divide by it; with g = cos it is F_1, and a cosine side
//    then makes the expected kernel the kernel itself.
#pragma once
#include <cstddef>
#include <functional>
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

// One entry of the registry: the name R knows the function by, and its factory.
struct PeriodicFunctionEntry {
  std::string name;
  std::function<std::unique_ptr<const PeriodicFunction>()> make;
};

// The registry of periodic functions (periodic_functions.cpp), in the order
// R lists them (.cpp_periodic_functions()): the one list of them.
const std::vector<PeriodicFunctionEntry>& periodic_functions();

// The function of the registry named `name`; throws std::invalid_argument,
// listing the registry's names, for any other.
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
