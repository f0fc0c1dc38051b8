// One-dimensional laws proportional to phi_s(t) h(t): a centred normal density
// with standard deviation s times a profile 0 <= h <= 1. Every positive part of
// the Shift-, Sinh- and Cosh-Gaussian measures is A mu_g(w) h(a'w), and under
// mu_g the projection a'w is N(0, s^2), so these laws give
// both the parts' total masses (A E h(T)) and their samplers (lift T to R^d).
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/numerics/random.h"

namespace askrff {

enum class Profile {
  one,           // h = 1
  cos_pos,       // max(cos t, 0)
  cos_neg,       // max(-cos t, 0)
  sin_pos,       // max(sin t, 0)
  sinh_modulus,  // sqrt(1 + A^2 sin^2 t) / sqrt(1 + A^2), |mu| of the Sinh-Gaussian
};

double profile_value(Profile profile, double t, double amplitude);

// E h(T) for T ~ N(0, s^2). The cosine and sine profiles use the closed-form
// series (vignette "mathematics", "Exact total masses of the asymmetric
// kernels") where they cannot cancel (s >= 1) and otherwise sum
// adaptive quadrature over the intervals where h is one smooth arc, each
// rescaled by its own largest Gaussian factor, so a tiny mean keeps its full
// relative precision (E max(-cos T, 0) = 2.1e-34 at s = 0.13).
double profile_mean(Profile profile, double s, double amplitude);

// The two evaluation routes, exposed so tests can check that they agree.
double profile_mean_series(Profile profile, double s);
double profile_mean_quadrature(Profile profile, double s, double amplitude);

// The inverse CDF of such a law on a fine grid, with a guide table.
struct ProfileTable {
  double start = 0.0, step = 0.0;
  std::vector<double> cdf;            // cells + 1 values from 0 to 1
  std::vector<std::uint32_t> guide;   // guide[k]: last cell whose cdf <= k / size
  double at(double u) const;
};

// Sampler of the law phi_s(t) h(t) / E h(T). Rejection from N(0, s^2) (O(1)
// per draw) when the acceptance E h(T) is at least kMinAcceptance; otherwise,
// and for quantiles, an inverse CDF tabulated in logs relative to the peak,
// so that the table exists even when E h(T) underflows. The table is built
// on first use (a part the allocation gives no frequency never builds one)
// and shared by the session's laws of the same (profile, s, amplitude).
class ProfiledGaussian {
 public:
  static constexpr double kMinAcceptance = 1e-2;
  static constexpr int kTableCells = 400000;

  ProfiledGaussian(double s, Profile profile, double amplitude);
  double mean() const { return mean_; }
  double sample(Stream& stream) const;
  // The law's quantile at u in (0, 1), from the table.
  double quantile(double u) const;
  double density(double t) const;

 private:
  double log_unnormalized(double t) const;
  // The table, or null for a law with no mass within reach of double
  // precision (a part of mass 0, whose frequencies carry weight 0).
  const ProfileTable* table() const;
  std::shared_ptr<const ProfileTable> build_table() const;

  double s_, amplitude_, mean_;
  Profile profile_;
  mutable std::shared_ptr<const ProfileTable> table_;
  mutable std::once_flag table_built_;
};

}  // namespace askrff
