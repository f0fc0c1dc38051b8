#include "core/laws/radial_quadrature.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/laws/hankel.h"
#include "core/numerics/special_functions.h"

namespace askrff {

namespace {

constexpr int kPanelNodes = 16, kMaxPanels = 20000, kMaxDegree = 1000;
// Interpolation grid points per unit of upper * reach, and the stencil of
// the local interpolation between them.
constexpr int kGridDensity = 64, kStencil = 6;

// Where f has fallen below 1e-16 of its peak for good, on radii 2^-12 to
// 2^24, four per octave (a doubling grid, so no scale has to be known); 0
// for a law heavier-tailed than that, or f not finite or zero.
double support(const std::function<double(double)>& density) {
  constexpr int kPoints = 145;
  std::vector<double> at(kPoints), value(kPoints);
  double peak = 0.0;
  for (int i = 0; i < kPoints; ++i) {
    at[i] = std::pow(2.0, -12.0 + 0.25 * i);
    value[i] = density(at[i]);
    if (!std::isfinite(value[i])) return 0.0;
    peak = std::max(peak, value[i]);
  }
  if (!(peak > 0.0)) return 0.0;
  int last = kPoints - 1;
  while (!(value[last] > 1e-16 * peak)) --last;
  return last == kPoints - 1 ? 0.0 : at[last + 1];
}

struct Rule {
  std::vector<double> nodes, weights;
};

// 16-point Gauss-Legendre panels over [0, upper], at most upper / 256 wide
// and a quarter period of cos(reach rho) wide, with panel edges where f
// starts or stops being 0 (to rounding, by 60 bisections), so each panel's
// integrand is smooth. Empty beyond kMaxPanels panels.
Rule panel_rule(const std::function<double(double)>& density, double upper, double reach) {
  constexpr int kScan = 4096;
  std::vector<double> breaks{0.0};
  bool inside = density(0.0) > 0.0;
  for (int i = 1; i <= kScan; ++i) {
    double higher = i == kScan ? upper : upper * i / kScan;
    if ((density(higher) > 0.0) == inside) continue;
    double lower = i == 1 ? 0.0 : upper * (i - 1) / kScan;
    for (int step = 0; step < 60; ++step) {
      const double middle = 0.5 * (lower + higher);
      ((density(middle) > 0.0) == inside ? lower : higher) = middle;
    }
    breaks.push_back(0.5 * (lower + higher));
    inside = !inside;
  }
  breaks.push_back(upper);
  const double width = std::min(upper / 256.0, M_PI / (2.0 * reach));
  std::vector<int> counts;
  long total = 0;
  for (std::size_t k = 0; k + 1 < breaks.size(); ++k) {
    counts.push_back(std::max(1, static_cast<int>(std::min(std::ceil((breaks[k + 1] - breaks[k]) / width), 1e9))));
    total += counts.back();
  }
  Rule rule;
  if (total > kMaxPanels) return rule;
  const auto legendre = gauss_legendre_rule(kPanelNodes);
  for (std::size_t k = 0; k + 1 < breaks.size(); ++k) {
    const double a = breaks[k], b = breaks[k + 1], half = (b - a) / counts[k] / 2.0;
    for (int m = 0; m < counts[k]; ++m) {
      const double start = a + (b - a) * m / counts[k];
      for (int i = 0; i < kPanelNodes; ++i) {
        rule.nodes.push_back((legendre->nodes[i] + 1.0) * half + start);
        rule.weights.push_back(legendre->weights[i] * half);
      }
    }
  }
  return rule;
}

// The interpolant through `values` at the Chebyshev points of the second
// kind `at` (on [0, reach]), at r, by the barycentric formula.
double chebyshev_interpolant(const std::vector<double>& at, const std::vector<double>& values, double r) {
  const std::size_t n = at.size();
  double numerator = 0.0, denominator = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const double gap = r - at[k];
    if (gap == 0.0) return values[k];
    const double weight = (k % 2 == 0 ? 1.0 : -1.0) * (k == 0 || k + 1 == n ? 0.5 : 1.0) / gap;
    numerator += weight * values[k];
    denominator += weight;
  }
  return numerator / denominator;
}

// Values on an equispaced grid over [0, reach], read by Lagrange
// interpolation through the kStencil nearest.
class GridInterpolant {
 public:
  GridInterpolant(double reach, std::vector<double> values)
      : step_(reach / static_cast<double>(values.size() - 1)), values_(std::move(values)) {}
  double operator()(double r) const {
    const double position = r / step_;
    const long last_start = static_cast<long>(values_.size()) - kStencil;
    const long start = std::clamp(static_cast<long>(std::floor(position)) - (kStencil / 2 - 1), 0L, last_start);
    const double t = position - static_cast<double>(start);
    double sum = 0.0;
    for (int m = 0; m < kStencil; ++m) {
      double weight = 1.0;
      for (int n = 0; n < kStencil; ++n) {
        if (n != m) weight *= (t - n) / (m - n);
      }
      sum += weight * values_[static_cast<std::size_t>(start + m)];
    }
    return sum;
  }

 private:
  double step_;
  std::vector<double> values_;
};

}  // namespace

Characteristic radial_quadrature_characteristic(int d, const std::function<double(double)>& density, double reach,
                                                const Poll& poll) {
  if (!std::isfinite(reach)) return nullptr;
  const double upper = support(density);
  if (!(upper > 0.0)) return nullptr;
  reach = std::max(reach, 1.0 / upper);  // all pairs at distance 0 still get a grid
  // Chebyshev interpolation converges once its degree passes about e/4 of
  // upper * reach (the Chebyshev coefficients of cos(rho r) are Bessel
  // functions of rho reach / 2); 40 more make it exact to rounding. Beyond
  // kMaxDegree (data wide against the law) the cost is not worth it.
  const double degree_needed = std::ceil(upper * reach) + 40.0;
  if (!(degree_needed <= kMaxDegree)) return nullptr;
  const int degree = static_cast<int>(degree_needed);
  const Rule rule = panel_rule(density, upper, reach);
  if (rule.nodes.empty()) return nullptr;
  std::vector<double> weight(rule.nodes.size());
  double total = 0.0;
  for (std::size_t i = 0; i < weight.size(); ++i) {
    weight[i] = rule.weights[i] * density(rule.nodes[i]);
    total += weight[i];
  }
  if (!(std::abs(total - 1.0) <= 1e-6)) return nullptr;
  for (double& w : weight) w /= total;
  std::vector<double> at(degree + 1), values(degree + 1);
  for (int k = 0; k <= degree; ++k) {
    at[k] = reach / 2.0 * (1.0 - std::cos(M_PI * k / degree));
    double sum = 0.0;
    for (std::size_t i = 0; i < weight.size(); ++i) sum += weight[i] * omega_d(d, rule.nodes[i] * at[k]);
    values[k] = sum;
    poll();
  }
  // Pairs are many, so they read a grid of the interpolant, kGridDensity
  // points per unit of upper * reach: with h upper <= 1/64, six-point
  // Lagrange interpolation errs by at most 0.005 (h upper)^6 = 7e-14 (the
  // derivatives of E Omega_d(R r) in r are at most E R^m <= upper^m).
  std::vector<double> grid(static_cast<std::size_t>(kGridDensity) * degree + 1);
  for (std::size_t i = 0; i < grid.size(); ++i) {
    grid[i] = chebyshev_interpolant(at, values, reach * static_cast<double>(i) / static_cast<double>(grid.size() - 1));
    if (i % 4096 == 4095) poll();
  }
  auto interpolant = std::make_shared<const GridInterpolant>(reach, std::move(grid));
  return radial_characteristic(d, [interpolant](double r) { return (*interpolant)(r); });
}

}  // namespace askrff
