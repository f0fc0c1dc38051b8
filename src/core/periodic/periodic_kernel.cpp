// The kernel a pair of random periodic maps approximates in expectation
// (Schellekens and Jacques 2020, Prop. 3), rescaled by 1/<f, g> as the estimator is:
//   k_fg(u) = sum_{k >= 1} w_k k(k u),  w_k = 2 F_k G_k / <f, g>,
// for the positive definite kernels whose k(t u) does not increase in t >= 0
// (those whose Kernel::ray() is given: Gaussian, Laplace, Gaussian mixtures
// with positive weights).
#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/periodic/cauchy_near_zero.h"
#include "core/kernels/gram_blocks.h"
#include "core/kernels/kernel_family.h"
#include "core/periodic/periodic_function.h"
#include "core/periodic/periodic_kernel.h"
#include "core/laws/table_cache.h"

namespace askrff {

namespace {

constexpr double kPi = 3.14159265358979323846;

RayProfile in_units_of(RayProfile family, double unit) {
  for (double& sigma : family.sigmas) sigma /= unit;
  return family;
}

class ExpectedPeriodicKernel : public Kernel {
 public:
  ExpectedPeriodicKernel(RayProfile family, const std::string& left, const std::string& right, double tolerance)
      : smallest_(*std::min_element(family.sigmas.begin(), family.sigmas.end())),
        family_(in_units_of(std::move(family), smallest_)),
        left_name_(left),
        right_name_(right),
        left_(make_periodic_function(left)),
        right_(make_periodic_function(right)),
        tolerance_(tolerance) {
    norm_ = inner_product(*left_, *right_);
    // sum_{k > K} |w_k| <= 2 sum_{k > K} V_f V_g / (2 pi k)^2 / <f, g> <= tail_ / K.
    tail_ = 2.0 * left_->variation() * right_->variation() / (4.0 * kPi * kPi * norm_);
    // A finite series on either side ends there (the cosine: k = 1 only,
    // Schellekens and Jacques 2020, eq. 35).
    const long last = last_common_harmonic(*left_, *right_);
    k_max_ = last > 0 ? last : static_cast<long>(std::ceil(tail_ / tolerance_));
    series_max_ = k_max_;
    stepped_ = !left_->cosine_jumps().empty() && !right_->cosine_jumps().empty();
    if (stepped_) {
      near_zero_ = correlation_near_zero(*left_, *right_);
      // Where the closed forms below do not apply, gamma > cauchy_gamma_max()
      // (L1) or sd > reach / 40 (Gaussian), the series stops once
      // tail_ / k k(k u) <= tolerance: by k = log(tail_ / tolerance) / gamma,
      // or sqrt(2 log(tail_ / tolerance)) / sd.
      const double log_ratio = std::log(std::max(tail_ / tolerance_, 1.0));
      const double bound = family_.l1 ? log_ratio / cauchy_gamma_max(near_zero_.reach)
                                      : 40.0 * std::sqrt(2.0 * log_ratio) / near_zero_.reach;
      series_max_ = std::min<long>(k_max_, static_cast<long>(std::ceil(bound)) + 2);
    }
    const long table = std::min<long>(series_max_, kTable);
    const std::vector<double> f = left_->coefficients(table), g = right_->coefficients(table);
    weights_.resize(static_cast<std::size_t>(table));
    for (long k = 0; k < table; ++k) weights_[k] = 2.0 * f[k] * g[k] / norm_;
  }

  // Per component, at most series_max_ / 2 terms (odd k) or a closed form.
  double entry_cost(int d) const override {
    return 3.0 * d + static_cast<double>(family_.weights.size()) * (2.0 * static_cast<double>(series_max_) + 100.0);
  }

  Measure measure(int) const override {
    throw std::invalid_argument(
        "the expected kernel of random periodic features has no sampler; sample the original kernel");
  }

  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd&, Eigen::Index row_begin,
                 Eigen::Index row_end, double* out) const override {
    const Eigen::Index n = x.rows(), rows = row_end - row_begin;
    // In units of the smallest width (gram_blocks.h), so that no sigma^2 or
    // square of the data leaves the doubles.
    const UnitData units = unit_data(x.middleRows(row_begin, rows), y, {smallest_});
    for (Eigen::Index j = 0; j < y.rows(); ++j) {
      for (Eigen::Index i = 0; i < rows; ++i) {
        // Differences coordinate by coordinate: exact zero for equal points,
        // which the GEMM expansion would turn into rounding noise.
        double s = 0.0;
        for (Eigen::Index c = 0; c < x.cols(); ++c) {
          const double diff = units.x(i, c) - units.y(j, c);
          s += family_.l1 ? std::abs(diff) : diff * diff;
        }
        out[row_begin + i + j * n] = at_distance(family_.l1 ? std::ldexp(s, units.exponent) : units.squared(s)).value;
      }
    }
  }

  // The value at a distance r from the origin in data units (Euclidean, or
  // L1 for the L1 family), with the series terms it took.
  ExpectedKernelValue at_data_distance(double r) const {
    const double z = r / smallest_;
    return at_distance(family_.l1 ? z : z * z);
  }

 private:
  static constexpr long kTable = 1 << 16;

  double weight(long k) const {
    if (k <= static_cast<long>(weights_.size())) return weights_[static_cast<std::size_t>(k - 1)];
    return 2.0 * left_->coefficient(k) * right_->coefficient(k) / norm_;
  }

  // s: the squared distance, or the L1 distance, in units of the smallest width.
  ExpectedKernelValue at_distance(double s) const {
    if (s == 0.0) return {family_.at_zero(), 0};
    ExpectedKernelValue total{0.0, 0};
    for (std::size_t c = 0; c < family_.weights.size(); ++c) {
      const ExpectedKernelValue part = component_at(family_.sigmas[c], s);
      total.value += family_.weights[c] * part.value;
      total.terms += part.terms;
    }
    return total;
  }

  // One component's E h(T) / <f, g>. Each component's series gets the whole
  // tolerance: the weights of the components add up to k(0).
  ExpectedKernelValue component_at(double sigma, double s) const {
    if (stepped_) {
      if (family_.l1) {
        const double gamma = s / sigma;
        if (gamma <= cauchy_gamma_max(near_zero_.reach)) return {cauchy_near_zero().expectation(gamma) / norm_, 0};
      } else if (const double near = gaussian_near_zero(std::sqrt(s) / sigma); !std::isnan(near)) {
        return {near, 0};
      }
    }
    return series(family_.l1 ? s / sigma : s / (2.0 * sigma * sigma));
  }

  // sum_k w_k k(k u) over odd k, with k(k u) = exp(-k a) (L1) or
  // exp(-k^2 a) kept by products: exp(-(k + 2)^2 a) = exp(-k^2 a)
  // exp(-(4k + 4) a), so no exp() per term; the rounding grows like k eps.
  // k(t u) does not increase in t, so after term k the rest is at most
  // (tail_ / k) k(k u); past k_max_ it is below the tolerance anyway.
  ExpectedKernelValue series(double a) const {
    double term = std::exp(-a), step = std::exp((family_.l1 ? -2.0 : -8.0) * a);
    const double growth = family_.l1 ? 1.0 : std::exp(-8.0 * a);
    double sum = 0.0;
    long terms = 0;
    for (long k = 1; k <= k_max_; k += 2) {
      sum += weight(k) * term;
      ++terms;
      if (tail_ / k * term <= tolerance_) break;
      term *= step;
      step *= growth;
    }
    return {sum, terms};
  }

  // Near zero the series needs about 6 / sd terms where T = w'(x - y) has
  // standard deviation sd, without bound as points approach each other.
  // There the expectation E h(T) / <f, g> of the cross-correlation h is exact
  // instead: for a Gaussian component, T ~ N(0, sd^2) with sd = ||u|| / sigma_c,
  // and while 40 sd stays within h's linear reach, E h(T) = h(0) + slope sd
  // sqrt(2 / pi) (to exp(-800)). NaN where this does not apply.
  double gaussian_near_zero(double sd) const {
    if (40.0 * sd > near_zero_.reach) return std::nan("");
    return (near_zero_.at_zero + near_zero_.slope * sd * std::sqrt(2.0 / kPi)) / norm_;
  }

  // For the L1 family T is Cauchy, with no such reach: E h(T) by its
  // expansion (cauchy_near_zero.h), built on first use and kept for the
  // session, as it depends on the two functions only.
  const CauchyNearZero& cauchy_near_zero() const {
    std::call_once(cauchy_once_, [this] {
      static TableCache<std::pair<std::string, std::string>, CauchyNearZero> cache(8);
      cauchy_ = cache.get({left_name_, right_name_},
                          [this] { return std::make_shared<const CauchyNearZero>(*left_, *right_); });
    });
    return *cauchy_;
  }

  // The family's smallest width, and the family with its widths in units of it.
  double smallest_;
  RayProfile family_;
  std::string left_name_, right_name_;
  std::unique_ptr<const PeriodicFunction> left_, right_;
  bool stepped_ = false;
  CorrelationNearZero near_zero_{0.0, 0.0, 0.0};
  double tolerance_, norm_, tail_;
  long k_max_, series_max_;
  std::vector<double> weights_;
  mutable std::once_flag cauchy_once_;
  mutable std::shared_ptr<const CauchyNearZero> cauchy_;
};

}  // namespace

namespace {

// The base kernel's spec: the expected kernel's parameters less its own.
KernelSpec base_spec(const KernelSpec& spec) {
  KernelSpec base;
  base.name = spec.option("base", "");
  base.params = spec.params;
  base.params.erase("tolerance");
  return base;
}

KernelTraits expected_traits(const KernelSpec& spec) {
  KernelTraits t = kernel_traits(base_spec(spec));
  t.measure = "none";
  t.radial = t.periodic = false;
  t.settings.clear();
  return t;
}

std::unique_ptr<ExpectedPeriodicKernel> make_expected_kernel(const KernelSpec& spec) {
  const KernelSpec base = base_spec(spec);
  if (base.name == "rpf_expected") throw std::invalid_argument("an expected kernel needs an original kernel as its base");
  const std::optional<RayProfile> ray = make_kernel(base)->ray();
  if (!ray) {
    throw std::invalid_argument("no expected periodic kernel for base kernel '" + base.name +
                                "': random periodic features need a positive definite kernel that does not increase along rays");
  }
  const double tolerance = spec.scalar("tolerance");
  if (tolerance < 1e-6 || tolerance > 0.1) throw std::invalid_argument("the series tolerance must lie in [1e-6, 0.1]");
  return std::make_unique<ExpectedPeriodicKernel>(*ray, spec.option("left", ""), spec.option("right", ""), tolerance);
}

std::unique_ptr<Kernel> make_expected(const KernelSpec& spec) { return make_expected_kernel(spec); }

}  // namespace

std::vector<ExpectedKernelValue> expected_kernel_at(const KernelSpec& spec, const std::vector<double>& distances) {
  const std::unique_ptr<ExpectedPeriodicKernel> kernel = make_expected_kernel(spec);
  std::vector<ExpectedKernelValue> out;
  for (double r : distances) out.push_back(kernel->at_data_distance(r));
  return out;
}

KernelFamily rpf_expected_family() { return {"rpf_expected", expected_traits, make_expected, nullptr}; }

}  // namespace askrff
