#include "core/laws/lifted_gaussian.h"

#include <cmath>

#include "core/numerics/special_functions.h"

namespace askrff {

LiftedGaussianSampler::LiftedGaussianSampler(double sigma, Eigen::VectorXd a, Profile profile,
                                             double amplitude)
    : sigma_(sigma),
      a_norm_(a.stableNorm()),
      unit_a_(a_norm_ > 0.0 ? Eigen::VectorXd(a / a_norm_) : Eigen::VectorXd::Unit(a.size(), 0)),
      profile_(profile),
      law_(a_norm_ / sigma, profile, amplitude) {}

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

}  // namespace askrff
