#include "core/laws/tabulated_quantile.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace askrff {

TabulatedQuantile::TabulatedQuantile(const std::function<double(double)>& density, double lower, double upper,
                                     int cells)
    : lower_(lower), step_((upper - lower) / cells), cdf_(static_cast<std::size_t>(cells) + 1, 0.0) {
  if (!(upper > lower) || cells < 1) throw std::invalid_argument("a tabulated quantile needs an interval and cells");
  double previous = density(lower);
  for (int i = 1; i <= cells; ++i) {
    const double next = density(lower + i * step_);
    if (!(previous >= 0.0 && next >= 0.0 && std::isfinite(previous) && std::isfinite(next))) {
      throw std::invalid_argument("a tabulated quantile needs a finite nonnegative density");
    }
    cdf_[i] = cdf_[i - 1] + 0.5 * (previous + next);
    previous = next;
  }
  const double total = cdf_.back();
  if (!(total > 0.0)) throw std::invalid_argument("a tabulated quantile needs a density with positive mass");
  for (double& c : cdf_) c /= total;
}

double TabulatedQuantile::operator()(double u) const {
  const auto above = std::upper_bound(cdf_.begin(), cdf_.end(), u);
  const std::size_t cell = std::min<std::size_t>(std::max<std::ptrdiff_t>(above - cdf_.begin(), 1), cdf_.size() - 1) - 1;
  const double width = cdf_[cell + 1] - cdf_[cell];
  const double within = width > 0.0 ? std::min(1.0, std::max(0.0, (u - cdf_[cell]) / width)) : 0.5;
  return lower_ + step_ * (static_cast<double>(cell) + within);
}

}  // namespace askrff
