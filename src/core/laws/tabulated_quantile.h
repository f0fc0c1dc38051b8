// The inverse CDF of a density on an interval, tabulated once: what the
// quasi-Monte Carlo source needs from laws that are sampled by rejection.
#pragma once
#include <functional>
#include <vector>

namespace askrff {

class TabulatedQuantile {
 public:
  // The density need not be normalized; it must be finite and nonnegative
  // on [lower, upper], with positive integral. The CDF is the trapezoid
  // rule on `cells` equal cells, the quantile linear within a cell.
  TabulatedQuantile(const std::function<double(double)>& density, double lower, double upper, int cells);
  double operator()(double u) const;

 private:
  double lower_, step_;
  std::vector<double> cdf_;
};

}  // namespace askrff
