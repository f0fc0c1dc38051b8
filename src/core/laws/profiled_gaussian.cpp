#include "core/laws/profiled_gaussian.h"

#include <algorithm>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>

#include "core/numerics/special_functions.h"
#include "core/laws/table_cache.h"

namespace askrff {

namespace {

constexpr double kLogUnderflow = 745.0;  // exp(-745) is below the smallest double
const double kLogSqrtTwoPi = 0.5 * std::log(2.0 * M_PI);

// The profiles are smooth on arcs [offset + k pi, offset + (k + 1) pi]; on
// every other arc the cosine and sine profiles vanish.
struct Arcs {
  double offset;
  bool all, even;  // which arcs carry the profile: all of them, else even or odd k
};

Arcs arcs_of(Profile profile) {
  switch (profile) {
    case Profile::cos_pos: return {-0.5 * M_PI, false, true};
    case Profile::cos_neg: return {-0.5 * M_PI, false, false};
    case Profile::sin_pos: return {0.0, false, true};
    default: return {0.0, true, true};
  }
}

}  // namespace

double profile_value(Profile profile, double t, double amplitude) {
  switch (profile) {
    case Profile::one: return 1.0;
    case Profile::cos_pos: return std::max(std::cos(t), 0.0);
    case Profile::cos_neg: return std::max(-std::cos(t), 0.0);
    case Profile::sin_pos: return std::max(std::sin(t), 0.0);
    case Profile::sinh_modulus: {
      // sqrt((1 + A^2 sin^2) / (1 + A^2)) without forming A^2 when it overflows.
      const double floor_share = 1.0 / (1.0 + amplitude * amplitude);
      const double sine = std::sin(t);
      return std::sqrt(floor_share + (1.0 - floor_share) * sine * sine);
    }
  }
  throw std::logic_error("unknown profile");
}

double profile_mean_series(Profile profile, double s) {
  // C = E|cos T| and S = E|sin T| from the Fourier series of |cos| and |sin|.
  double cos_sum = 0.0, sin_sum = 0.0;
  for (int n = 1; n < 100; ++n) {
    const double term = std::exp(-2.0 * n * n * s * s) / (4.0 * n * n - 1.0);
    cos_sum += (n % 2 == 1 ? term : -term);
    sin_sum += term;
    if (term < 1e-300) break;
  }
  const double abs_cos = 2.0 / M_PI + 4.0 / M_PI * cos_sum;
  const double abs_sin = 2.0 / M_PI - 4.0 / M_PI * sin_sum;
  const double mean_cos = std::exp(-0.5 * s * s);
  switch (profile) {
    case Profile::cos_pos: return 0.5 * (abs_cos + mean_cos);
    case Profile::cos_neg: return 0.5 * (abs_cos - mean_cos);
    case Profile::sin_pos: return 0.5 * abs_sin;
    default: throw std::invalid_argument("no series for this profile");
  }
}

// In the standardized variable u = t / s, so that no 1 / s^2 can overflow
// however small s is, and each arc is clipped to within 40 of its point
// nearest 0 (beyond, the Gaussian factor is below exp(-800) of the arc's
// largest): a Gaussian far narrower than an arc is then integrated where it
// lives, not missed by the adaptive rule (the masses at s <= 1e-4).
double profile_mean_quadrature(Profile profile, double s, double amplitude) {
  constexpr double kReach = 40.0;
  const Arcs arcs = arcs_of(profile);
  // Each arc's integral is exp(log_scale) * J with J computed from the
  // integrand divided by its largest Gaussian factor exp(log_scale).
  std::vector<std::pair<double, double>> pieces;  // (log_scale, J)
  double best = -std::numeric_limits<double>::infinity();
  const long first = static_cast<long>(std::floor(-arcs.offset / M_PI));  // arc holding 0
  for (int direction : {1, -1}) {
    for (long k = direction == 1 ? first : first - 1;; k += direction) {
      const double a = (arcs.offset + k * M_PI) / s, b = (arcs.offset + (k + 1) * M_PI) / s;
      const double nearest = (a <= 0.0 && b >= 0.0) ? 0.0 : std::min(std::abs(a), std::abs(b));
      const double log_scale = -0.5 * nearest * nearest;
      if (!std::isfinite(log_scale) || !(log_scale >= best - kLogUnderflow)) break;
      const bool carries = arcs.all || ((k % 2 == 0) == arcs.even);
      if (!carries) continue;
      const double lo = std::max(a, -nearest - kReach), hi = std::min(b, nearest + kReach);
      // Boost's adaptive 15-point Gauss-Kronrod rule, bisecting to depth 12
      // (4,096 pieces) for a relative error of 1e-14
      const double value = boost::math::quadrature::gauss_kronrod<double, 15>::integrate(
          [&](double u) { return profile_value(profile, s * u, amplitude) * std::exp(-0.5 * u * u - log_scale); },
          lo, hi, 12, 1e-14);
      pieces.emplace_back(log_scale, value);
      best = std::max(best, log_scale);
    }
  }
  double sum = 0.0;
  for (const auto& piece : pieces) sum += std::exp(piece.first - best) * piece.second;
  return std::exp(best - kLogSqrtTwoPi) * sum;
}

double profile_mean(Profile profile, double s, double amplitude) {
  if (profile == Profile::one) return 1.0;
  if (s == 0.0) return profile_value(profile, 0.0, amplitude);
  if (profile != Profile::sinh_modulus && s >= 1.0) return profile_mean_series(profile, s);
  return profile_mean_quadrature(profile, s, amplitude);
}

ProfiledGaussian::ProfiledGaussian(double s, Profile profile, double amplitude)
    : s_(s), amplitude_(amplitude), mean_(profile_mean(profile, s, amplitude)), profile_(profile) {}

double ProfiledGaussian::log_unnormalized(double t) const {
  const double u = t / s_;
  return std::log(profile_value(profile_, t, amplitude_)) - 0.5 * u * u;
}

double ProfiledGaussian::density(double t) const {
  if (s_ == 0.0 || mean_ <= 0.0) return 0.0;
  return std::exp(log_unnormalized(t) - std::log(s_) - kLogSqrtTwoPi - std::log(mean_));
}

const ProfileTable* ProfiledGaussian::table() const {
  std::call_once(table_built_, [this] {
    using Key = std::tuple<int, double, double>;
    static TableCache<Key, ProfileTable> cache(8);
    table_ = cache.get(Key{static_cast<int>(profile_), s_, amplitude_}, [this] { return build_table(); });
  });
  return table_ && !table_->cdf.empty() ? table_.get() : nullptr;
}

// The table covers where the log density is within 60 of its peak (found on
// a coarse grid over +-(40 s + pi), which holds every arc that matters).
std::shared_ptr<const ProfileTable> ProfiledGaussian::build_table() const {
  auto table = std::make_shared<ProfileTable>();
  constexpr int kCoarse = 20000;
  const double reach = 40.0 * s_ + M_PI, coarse_step = 2.0 * reach / kCoarse;
  std::vector<double> coarse(kCoarse + 1);
  for (int i = 0; i <= kCoarse; ++i) coarse[i] = log_unnormalized(-reach + i * coarse_step);
  const double peak = *std::max_element(coarse.begin(), coarse.end());
  // No mass within reach of double precision: an empty table.
  if (!std::isfinite(peak)) return table;
  int lo = 0, hi = kCoarse;
  while (coarse[lo] < peak - 60.0) ++lo;
  while (coarse[hi] < peak - 60.0) --hi;
  lo = std::max(lo - 2, 0);
  hi = std::min(hi + 2, kCoarse);
  table->start = -reach + lo * coarse_step;
  table->step = (hi - lo) * coarse_step / kTableCells;

  std::vector<double> log_density(kTableCells + 1);
  for (int i = 0; i <= kTableCells; ++i) log_density[i] = log_unnormalized(table->start + i * table->step);
  const double top = *std::max_element(log_density.begin(), log_density.end());
  std::vector<double>& cdf = table->cdf;
  cdf.assign(kTableCells + 1, 0.0);
  double previous = std::exp(log_density[0] - top);
  for (int i = 1; i <= kTableCells; ++i) {
    const double current = std::exp(log_density[i] - top);
    cdf[i] = cdf[i - 1] + 0.5 * (previous + current);
    previous = current;
  }
  const double total = cdf.back();
  for (double& c : cdf) c /= total;
  cdf.back() = 1.0;

  table->guide.resize(4096);
  std::size_t cell = 0;
  for (std::size_t k = 0; k < table->guide.size(); ++k) {
    const double u = static_cast<double>(k) / table->guide.size();
    while (cdf[cell + 1] <= u) ++cell;
    table->guide[k] = static_cast<std::uint32_t>(cell);
  }
  return table;
}

double ProfileTable::at(double u) const {
  std::size_t cell = guide[static_cast<std::size_t>(u * guide.size())];
  while (cdf[cell + 1] <= u) ++cell;
  const double within = (u - cdf[cell]) / (cdf[cell + 1] - cdf[cell]);
  return start + step * (static_cast<double>(cell) + within);
}

double ProfiledGaussian::quantile(double u) const {
  if (s_ == 0.0) return 0.0;
  const ProfileTable* inverse = table();
  // A law too thin to tabulate belongs to a part of mass 0, as in sample().
  return inverse ? inverse->at(u) : s_ * normal_quantile(u);
}

double ProfiledGaussian::sample(Stream& stream) const {
  if (s_ == 0.0) return 0.0;
  if (mean_ < kMinAcceptance) {
    const ProfileTable* inverse = table();
    // A law too thin to tabulate belongs to a part of mass 0: its
    // frequencies carry weight 0, and a plain Gaussian draw stands in.
    return inverse ? inverse->at(stream.uniform()) : s_ * stream.normal();
  }
  // The acceptance is at least kMinAcceptance, so this cap is never reached
  // by chance (probability below 1e-4000); it only guards the invariant.
  for (long trial = 0; trial < 1000000; ++trial) {
    const double t = s_ * stream.normal();
    if (stream.uniform() < profile_value(profile_, t, amplitude_)) return t;
  }
  throw std::logic_error("rejection sampler exceeded its trial cap");
}

}  // namespace askrff
