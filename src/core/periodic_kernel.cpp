// The kernel a pair of random periodic maps approximates in expectation (003
// Prop. 3), rescaled by 1/<f, g> as the estimator is:
//   k_fg(u) = sum_{k >= 1} w_k k(k u),  w_k = 2 F_k G_k / <f, g>,
// for the positive definite kernels whose k(t u) does not increase in t >= 0
// (those whose Kernel::ray() is given: Gaussian, Laplace, Gaussian mixtures
// with positive weights).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "gram_blocks.h"
#include "kernel_family.h"
#include "periodic.h"

namespace askrff {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Walks k = 1, 3, 5, ... keeping k(k u) by products (only odd harmonics are
// nonzero): exp(-(k + 2)^2 a) = exp(-k^2 a) exp(-(4k + 4) a) for each
// component, so no exp() per term; the rounding grows like k eps.
class RayWalk {
 public:
  RayWalk(const RayProfile& family, double s) : family_(family) {
    for (std::size_t c = 0; c < family.weights.size(); ++c) {
      const double a = family.l1 ? s / family.sigmas[c] : s / (2.0 * family.sigmas[c] * family.sigmas[c]);
      term_.push_back(std::exp(-a));
      // exp(-(k + 2) a) = exp(-k a) exp(-2a) for the L1 family.
      step_.push_back(std::exp((family.l1 ? -2.0 : -8.0) * a));
      growth_.push_back(family.l1 ? 1.0 : std::exp(-8.0 * a));
    }
  }
  double value() const {
    double sum = 0.0;
    for (std::size_t c = 0; c < term_.size(); ++c) sum += family_.weights[c] * term_[c];
    return sum;
  }
  void advance() {
    for (std::size_t c = 0; c < term_.size(); ++c) {
      term_[c] *= step_[c];
      step_[c] *= growth_[c];
    }
  }

 private:
  const RayProfile& family_;
  std::vector<double> term_, step_, growth_;
};

RayProfile in_units_of(RayProfile family, double unit) {
  for (double& sigma : family.sigmas) sigma /= unit;
  return family;
}

class ExpectedPeriodicKernel : public Kernel {
 public:
  ExpectedPeriodicKernel(RayProfile family, const std::string& left, const std::string& right, double tolerance)
      : smallest_(*std::min_element(family.sigmas.begin(), family.sigmas.end())),
        family_(in_units_of(std::move(family), smallest_)),
        left_(make_periodic_function(left)),
        right_(make_periodic_function(right)),
        tolerance_(tolerance) {
    norm_ = inner_product(*left_, *right_);
    // sum_{k > K} |w_k| <= 2 sum_{k > K} V_f V_g / (2 pi k)^2 / <f, g> <= tail_ / K.
    tail_ = 2.0 * left_->variation() * right_->variation() / (4.0 * kPi * kPi * norm_);
    // A finite series on either side ends there (the cosine: k = 1 only, 003 eq. 35).
    const long last = last_common_harmonic(*left_, *right_);
    k_max_ = last > 0 ? last : static_cast<long>(std::ceil(tail_ / tolerance_));
    const long table = std::min<long>(k_max_, kTable);
    const std::vector<double> f = left_->coefficients(table), g = right_->coefficients(table);
    weights_.resize(static_cast<std::size_t>(table));
    for (long k = 0; k < table; ++k) weights_[k] = 2.0 * f[k] * g[k] / norm_;
    if (!left_->cosine_jumps().empty() && !right_->cosine_jumps().empty()) {
      near_zero_ = correlation_near_zero(*left_, *right_);
    }
  }

  // The series may run to k_max terms for close points (the Laplace family).
  double entry_cost(int d) const override { return 3.0 * d + 4.0 * static_cast<double>(k_max_); }

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
        out[row_begin + i + j * n] = at_distance(family_.l1 ? std::ldexp(s, units.exponent) : units.squared(s));
      }
    }
  }

 private:
  static constexpr long kTable = 1 << 16;

  double weight(long k) const {
    if (k <= static_cast<long>(weights_.size())) return weights_[static_cast<std::size_t>(k - 1)];
    return 2.0 * left_->coefficient(k) * right_->coefficient(k) / norm_;
  }

  // The series with every term whose tail bound is above the tolerance: k(t u)
  // does not increase in t, so after term k the rest is at most
  // (tail_ / k) k(k u); and past k_max_ it is below the tolerance anyway.
  double at_distance(double s) const {
    const double k0 = family_.at_zero();
    if (s == 0.0) return k0;
    if (const double near = near_zero(s); !std::isnan(near)) return near;
    RayWalk walk(family_, s);
    double sum = 0.0;
    for (long k = 1; k <= k_max_; k += 2) {
      const double value = walk.value();
      sum += weight(k) * value;
      if (tail_ / k * value <= tolerance_ * k0) break;
      walk.advance();
    }
    return sum;
  }

  // The series needs about 6 / sd terms where T = w'(x - y) has standard
  // deviation sd, without bound as points approach each other. There the
  // expectation E h(T) / <f, g> of the cross-correlation h is exact instead:
  // for a Gaussian component, T ~ N(0, sd^2) with sd = ||u|| / sigma_c, and
  // while 40 sd stays within h's linear reach, E h(T) = h(0) + slope sd
  // sqrt(2 / pi) (to exp(-800)). NaN where this does not apply.
  double near_zero(double s) const {
    if (family_.l1 || near_zero_.reach <= 0.0) return std::nan("");
    double sum = 0.0;
    for (std::size_t c = 0; c < family_.weights.size(); ++c) {
      const double sd = std::sqrt(s) / family_.sigmas[c];
      if (40.0 * sd > near_zero_.reach) return std::nan("");
      sum += family_.weights[c] * (near_zero_.at_zero + near_zero_.slope * sd * std::sqrt(2.0 / kPi));
    }
    return sum / norm_;
  }

  // The family's smallest width, and the family with its widths in units of it.
  double smallest_;
  RayProfile family_;
  std::unique_ptr<const PeriodicFunction> left_, right_;
  CorrelationNearZero near_zero_{0.0, 0.0, 0.0};
  double tolerance_, norm_, tail_;
  long k_max_;
  std::vector<double> weights_;
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
  t.params.push_back("tolerance");
  t.measure = "none";
  t.radial = t.periodic = false;
  t.methods.clear();
  t.settings.clear();
  return t;
}

std::unique_ptr<Kernel> make_expected(const KernelSpec& spec) {
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

}  // namespace

KernelFamily rpf_expected_family() { return {"rpf_expected", expected_traits, make_expected, nullptr}; }

}  // namespace askrff
