#include "core/kernels/gaussian_mixture.h"

#include "core/kernels/kernel_family.h"
#include "core/laws/elementary_laws.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/kernels/gram_blocks.h"
#include "core/numerics/special_functions.h"
#include "core/laws/table_cache.h"
#include "core/laws/radial_quadrature.h"

namespace askrff {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double log_add(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double hi = std::max(a, b);
  return hi + std::log1p(std::exp(std::min(a, b) - hi));
}

// The rejection sampler needs at least this acceptance rate to stay fast.
constexpr double kMinAcceptance = 1e-3;

}  // namespace

GaussianMixture::GaussianMixture(std::vector<double> weights, std::vector<double> sigmas, int d)
    : weights_(std::move(weights)), sigmas_(std::move(sigmas)), d_(d) {}

std::vector<double> GaussianMixture::sign_changes() const {
  // In t = r^2 each term is exp(A_i - B_i t): the sign of mu can change only
  // near where two terms cross, so the scan covers every crossing and a
  // margin past the last one in which the slowest-decaying term takes over.
  const int m = size();
  std::vector<double> a(m), b(m);
  for (int i = 0; i < m; ++i) {
    a[i] = log_term(i, 0.0);
    b[i] = 0.5 * sigmas_[i] * sigmas_[i];
  }
  double last_crossing = 0.0, min_gap = std::numeric_limits<double>::infinity();
  std::vector<double> grid;
  for (int i = 0; i < m; ++i) {
    for (int j = i + 1; j < m; ++j) {
      const double gap = std::abs(b[i] - b[j]);
      min_gap = std::min(min_gap, gap);
      const double crossing = (a[i] - a[j]) / (b[i] - b[j]);
      if (crossing > 0.0) {
        last_crossing = std::max(last_crossing, crossing);
        grid.push_back(crossing);
      }
    }
  }
  std::vector<double> changes;
  if (m < 2) return changes;
  const double t_max = last_crossing + 60.0 / min_gap;
  constexpr int kScan = 4096;
  for (int k = 0; k <= kScan; ++k) grid.push_back(t_max * k / kScan);
  std::sort(grid.begin(), grid.end());
  const auto sign_at = [&](double t) {
    const double r = std::sqrt(t);
    return log_sum(+1, r) > log_sum(-1, r) ? 1 : -1;
  };
  int previous = sign_at(grid[0]);
  for (std::size_t k = 1; k < grid.size(); ++k) {
    const int current = sign_at(grid[k]);
    if (current == previous) continue;
    double lo = grid[k - 1], hi = grid[k];
    for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
      const double mid = 0.5 * (lo + hi);
      (sign_at(mid) == previous ? lo : hi) = mid;
    }
    changes.push_back(std::sqrt(0.5 * (lo + hi)));
    previous = current;
  }
  return changes;
}

double GaussianMixture::log_term(int i, double radius) const {
  const double s = sigmas_[i];
  return std::log(std::abs(weights_[i])) + d_ * std::log(s / std::sqrt(2.0 * M_PI)) - 0.5 * s * s * radius * radius;
}

double GaussianMixture::log_sum(int sign, double radius) const {
  double total = kNegInf;
  for (int i = 0; i < size(); ++i) {
    if ((weights_[i] > 0) == (sign > 0)) total = log_add(total, log_term(i, radius));
  }
  return total;
}

double GaussianMixture::jordan_mass(int sign) const {
  std::vector<double> edges{0.0};
  const std::vector<double> changes = sign_changes();
  edges.insert(edges.end(), changes.begin(), changes.end());
  edges.push_back(std::numeric_limits<double>::infinity());
  double mass = 0.0;
  for (std::size_t k = 0; k + 1 < edges.size(); ++k) {
    const double inside = std::isinf(edges[k + 1]) ? edges[k] + 1.0 : 0.5 * (edges[k] + edges[k + 1]);
    if (log_sum(sign, inside) <= log_sum(-sign, inside)) continue;
    for (int i = 0; i < size(); ++i) {
      const double s2 = sigmas_[i] * sigmas_[i];
      const double upper = std::isinf(edges[k + 1]) ? edges[k + 1] : s2 * edges[k + 1] * edges[k + 1];
      mass += sign * weights_[i] * chi_square_interval(d_, s2 * edges[k] * edges[k], upper);
    }
  }
  return std::max(mass, 0.0);
}

GaussianMixtureLaw::GaussianMixtureLaw(std::shared_ptr<const GaussianMixture> mixture, int sign,
                                       bool jordan, double mass)
    : mixture_(std::move(mixture)), sign_(sign), jordan_(jordan), mass_(mass), log_mass_(std::log(mass)) {
  double total = 0.0;
  for (int i = 0; i < mixture_->size(); ++i) {
    if ((mixture_->weight(i) > 0) != (sign_ > 0)) continue;
    proposals_.push_back(i);
    total += std::abs(mixture_->weight(i));
    cumulative_.push_back(total);
  }
  for (double& c : cumulative_) c /= total;
}

double GaussianMixtureLaw::acceptance(double radius) const {
  if (!jordan_) return 1.0;
  return -std::expm1(std::min(0.0, mixture_->log_sum(-sign_, radius) - mixture_->log_sum(sign_, radius)));
}

double GaussianMixtureLaw::sample_radius(Stream& stream) const {
  for (;;) {
    const double u = stream.uniform();
    const int i = proposals_[std::lower_bound(cumulative_.begin(), cumulative_.end() - 1, u) - cumulative_.begin()];
    const double radius = chi_radius(stream, mixture_->d()) / mixture_->sigma(i);
    if (!jordan_ || stream.uniform() < acceptance(radius)) return radius;
  }
}

void GaussianMixtureLaw::sample(Stream& stream, double* omega) const {
  uniform_direction(stream, mixture_->d(), omega);
  sample_along(stream, omega, omega);
}

void GaussianMixtureLaw::sample_along(Stream& stream, const double* direction, double* omega) const {
  const double radius = sample_radius(stream);
  for (int k = 0; k < mixture_->d(); ++k) omega[k] = direction[k] * radius;
}

void GaussianMixtureLaw::from_uniforms(const double* u, double* omega) const {
  const int d = mixture_->d();
  if (!jordan_) {
    // The per-component split: a component from the last uniform, then its
    // Gaussian N(0, sigma_i^-2 I) from the normal quantiles of the others.
    const std::size_t k = std::lower_bound(cumulative_.begin(), cumulative_.end() - 1, u[d]) - cumulative_.begin();
    for (int j = 0; j < d; ++j) omega[j] = normal_quantile(u[j]) / mixture_->sigma(proposals_[k]);
    return;
  }
  // A minimal Jordan part: a uniform direction and the tabulated radius. The
  // radial density is negligible beyond (sqrt(d) + 12) / sigma for the
  // widest proposing component (chi_d exceeds sqrt(d) + 12 with probability
  // below exp(-72)); the table is shared by the session's maps of the part.
  std::call_once(radius_table_, [this, d] {
    using Key = std::tuple<std::vector<double>, std::vector<double>, int, int>;
    static TableCache<Key, TabulatedQuantile> cache(8);
    std::vector<double> weights, sigmas;
    for (int i = 0; i < mixture_->size(); ++i) {
      weights.push_back(mixture_->weight(i));
      sigmas.push_back(mixture_->sigma(i));
    }
    radius_quantile_ = cache.get(Key{weights, sigmas, d, sign_}, [this, d] {
      double upper = 0.0;
      for (int i : proposals_) upper = std::max(upper, (std::sqrt(static_cast<double>(d)) + 12.0) / mixture_->sigma(i));
      return std::make_shared<const TabulatedQuantile>([this](double r) { return density(r); }, 0.0, upper, 1 << 16);
    });
  });
  direction_from_uniforms(d, u, omega);
  const double radius = (*radius_quantile_)(u[d]);
  for (int j = 0; j < d; ++j) omega[j] *= radius;
}

// Density of |w|: the part's radial density with its S_{d-1} r^{d-1} Jacobian.
double GaussianMixtureLaw::density(double radius) const {
  const int d = mixture_->d();
  if (radius <= 0.0 && d > 1) return 0.0;
  radius = std::abs(radius);
  const double keep = acceptance(radius);
  if (keep <= 0.0) return 0.0;
  return keep * std::exp(mixture_->log_sum(sign_, radius) + log_radial_jacobian(d, radius) - log_mass_);
}

Characteristic GaussianMixtureLaw::characteristic(double reach, const Poll& poll) const {
  if (jordan_) return radial_quadrature_characteristic(mixture_->d(), [this](double r) { return density(r); }, reach, poll);
  std::vector<double> weight, sigma;
  double total = 0.0;
  for (int i : proposals_) {
    weight.push_back(std::abs(mixture_->weight(i)));
    sigma.push_back(mixture_->sigma(i));
    total += weight.back();
  }
  return radial_characteristic(mixture_->d(), [weight, sigma, total](double r) {
    double sum = 0.0;
    for (std::size_t k = 0; k < sigma.size(); ++k) {
      const double u = r / sigma[k];
      sum += weight[k] * std::exp(-0.5 * u * u);
    }
    return sum / total;
  });
}

Measure GaussianMixtureKernel::measure(int d) const {
  auto mixture = std::make_shared<const GaussianMixture>(weights_, sigmas_, d);
  Measure parts;
  for (const int sign : {+1, -1}) {
    double proposing = 0.0;
    for (double w : weights_) {
      if ((w > 0) == (sign > 0)) proposing += std::abs(w);
    }
    if (proposing == 0.0) continue;
    const double mass = jordan_ ? mixture->jordan_mass(sign) : proposing;
    if (mass <= 0.0) continue;
    const std::string name = sign > 0 ? "pos" : "neg";
    if (mass < kMinAcceptance * proposing) {
      throw std::invalid_argument(
          "the minimal Jordan part '" + name + "' has mass " + std::to_string(mass) +
          ", so its rejection sampler would accept fewer than 1 in 1000 proposals; use decomposition = \"components\"");
    }
    parts.push_back(Part{name, mass, true, static_cast<double>(sign), 0.0,
                         std::make_shared<GaussianMixtureLaw>(mixture, sign, jordan_, mass)});
  }
  return parts;
}

double GaussianMixtureKernel::radial_density(int d, double radius) const {
  const GaussianMixture mixture(weights_, sigmas_, d);
  radius = std::abs(radius);
  if (radius == 0.0 && d > 1) return 0.0;
  const double log_jacobian = log_radial_jacobian(d, radius);
  return std::exp(mixture.log_sum(+1, radius) + log_jacobian) - std::exp(mixture.log_sum(-1, radius) + log_jacobian);
}

void GaussianMixtureKernel::gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y,
                                      const Eigen::VectorXd&, Eigen::Index row_begin,
                                      Eigen::Index row_end, double* out) const {
  // Distances in units of the smallest width, then scaled down to each.
  const double smallest = *std::min_element(sigmas_.begin(), sigmas_.end());
  const UnitData units = unit_data(x.middleRows(row_begin, row_end - row_begin), y, {smallest});
  const Eigen::ArrayXXd dist2 = units.squared_distances().array();
  Eigen::ArrayXXd sum = Eigen::ArrayXXd::Zero(dist2.rows(), dist2.cols());
  for (std::size_t i = 0; i < weights_.size(); ++i) {
    const double ratio = smallest / sigmas_[i];
    if (units.exponent == 0 && ratio > 1e-100) {
      sum += weights_[i] * (dist2 * (-0.5 * ratio * ratio)).exp();
      continue;
    }
    // r / sigma_i, scaled by 2^exponent only after the ratio, which may be tiny
    const Eigen::ArrayXXd r =
        (dist2.sqrt() * ratio).unaryExpr([&units](double t) { return std::ldexp(t, units.exponent); });
    sum += weights_[i] * (-0.5 * r.square()).exp();
  }
  output_block(out, x.rows(), row_begin, dist2.rows(), dist2.cols()) = sum.matrix();
}

std::optional<RayProfile> GaussianMixtureKernel::ray() const {
  for (double w : weights_) {
    if (w <= 0.0) return std::nullopt;
  }
  return RayProfile{false, weights_, sigmas_};
}

namespace {

bool all_positive(const std::vector<double>& weights) {
  for (double w : weights) {
    if (w <= 0.0) return false;
  }
  return true;
}

KernelTraits mixture_traits(const KernelSpec& spec) {
  KernelTraits t;
  const bool positive = all_positive(spec.vector("weights"));
  t.measure = positive ? "positive" : "signed";
  t.scaled_params = {ScaledParam{"sigmas", 1}};
  t.radial = true;
  t.periodic = positive;
  t.settings = {Setting{"decomposition", {"jordan", "components"}}};
  return t;
}

std::unique_ptr<Kernel> make_mixture(const KernelSpec& spec) {
  const std::string decomposition = spec.option("decomposition", "jordan");
  if (decomposition != "jordan" && decomposition != "components") {
    throw std::invalid_argument("unknown decomposition '" + decomposition + "'");
  }
  return std::make_unique<GaussianMixtureKernel>(spec.vector("weights"), spec.vector("sigmas"),
                                                 decomposition == "jordan");
}

}  // namespace

KernelFamily delta_gaussian_family() { return {"delta_gaussian", mixture_traits, make_mixture, nullptr}; }

}  // namespace askrff
