#include "core/laws/lifted_gaussian.h"

#include <algorithm>
#include <cmath>

#include "core/laws/elementary_laws.h"
#include "core/numerics/special_functions.h"

namespace askrff {

LiftedGaussianSampler::LiftedGaussianSampler(double sigma, Eigen::VectorXd a, Profile profile,
                                             double amplitude)
    : sigma_(sigma),
      a_norm_(a.stableNorm()),
      amplitude_(amplitude),
      unit_a_(a_norm_ > 0.0 ? Eigen::VectorXd(a / a_norm_) : Eigen::VectorXd::Unit(a.size(), 0)),
      profile_(profile),
      law_(a_norm_ / sigma, profile, amplitude),
      geometry_{unit_a_, a_norm_, sigma_, law_.mean()} {}

// omega holds the Gaussian vector z on entry and the frequency on return.
void LiftedGaussianSampler::lift_in_place(double t, double* omega) const {
  Eigen::Map<Eigen::VectorXd> w(omega, unit_a_.size());
  if (a_norm_ == 0.0) {
    w /= sigma_;
    return;
  }
  const double along = unit_a_.dot(w);
  w = (w - unit_a_ * along) / sigma_ + unit_a_ * (t / a_norm_);
}

void LiftedGaussianSampler::sample(Stream& stream, double* omega) const {
  const double t = law_.sample(stream);
  for (Eigen::Index k = 0; k < unit_a_.size(); ++k) omega[k] = stream.normal();
  lift_in_place(t, omega);
}

void LiftedGaussianSampler::sample_along(Stream& stream, const double* direction, double* omega) const {
  const int d = static_cast<int>(unit_a_.size());
  const double radius = chi_radius(stream, d);
  Eigen::Map<Eigen::VectorXd> w(omega, d);
  w = Eigen::Map<const Eigen::VectorXd>(direction, d) * radius;
  if (profile_ == Profile::one) {
    w /= sigma_;
    return;
  }
  lift_in_place(law_.sample(stream), omega);
}

void LiftedGaussianSampler::from_uniforms(const double* u, double* omega) const {
  const int d = static_cast<int>(unit_a_.size());
  for (int k = 0; k < d; ++k) omega[k] = normal_quantile(u[k]);
  lift_in_place(law_.quantile(u[d]), omega);
}

double LiftedGaussianSampler::density(double projection) const {
  if (a_norm_ == 0.0) {
    return sigma_ / std::sqrt(2.0 * M_PI) * std::exp(-0.5 * sigma_ * sigma_ * projection * projection);
  }
  return a_norm_ * law_.density(projection * a_norm_);
}

std::complex<double> LiftedGeometry::operator()(const FourierSeries& H, const double* delta, double j) const {
  const Eigen::Map<const Eigen::VectorXd> offset(delta, unit_a.size());
  // a = 0: T = 0, and every direction is perpendicular
  const double along = a_norm > 0.0 ? j * unit_a.dot(offset) : 0.0;
  const double perpendicular2 = std::max(j * j * offset.squaredNorm() - along * along, 0.0);
  const double b = a_norm > 0.0 ? along / a_norm : 0.0;
  return std::exp(-0.5 * perpendicular2 / (sigma * sigma)) * gaussian_fourier_mean(H, a_norm / sigma, b) / mean;
}

// A kinked profile's even terms beyond this many per pair: the study's NA.
constexpr double kMaxEvenTerms = 5000.0;

Characteristic LiftedGaussianSampler::characteristic(double, const Poll& poll) const {
  if (a_norm_ == 0.0) return GaussianSampler(static_cast<int>(unit_a_.size()), sigma_).characteristic(0.0, poll);
  std::optional<FourierSeries> series = profile_series(profile_, amplitude_, poll);
  if (!series || (series->even && even_terms(a_norm_ / sigma_) > kMaxEvenTerms)) return nullptr;
  return [geometry = geometry_, h = std::move(*series)](const double* delta) { return geometry(h, delta, 1.0); };
}

}  // namespace askrff
