#include "lifted_gaussian.h"

#include <cmath>

namespace askrff {

LiftedGaussianSampler::LiftedGaussianSampler(double sigma, Eigen::VectorXd a, Profile profile,
                                             double amplitude)
    : sigma_(sigma),
      a_norm_(a.norm()),
      unit_a_(a_norm_ > 0.0 ? Eigen::VectorXd(a / a_norm_) : Eigen::VectorXd::Unit(a.size(), 0)),
      profile_(profile),
      law_(a_norm_ / sigma, profile, amplitude) {}

void LiftedGaussianSampler::lift(double t, const Eigen::Ref<const Eigen::VectorXd>& z,
                                 double* omega) const {
  Eigen::Map<Eigen::VectorXd> w(omega, unit_a_.size());
  if (a_norm_ == 0.0) {
    w = z / sigma_;
    return;
  }
  w = (z - unit_a_ * unit_a_.dot(z)) / sigma_ + unit_a_ * (t / a_norm_);
}

void LiftedGaussianSampler::sample(Stream& stream, double* omega) const {
  const double t = law_.sample(stream);
  Eigen::VectorXd z(unit_a_.size());
  for (Eigen::Index k = 0; k < z.size(); ++k) z[k] = stream.normal();
  lift(t, z, omega);
}

void LiftedGaussianSampler::sample_along(Stream& stream, const double* direction, double* omega) const {
  const int d = static_cast<int>(unit_a_.size());
  const Eigen::Map<const Eigen::VectorXd> u(direction, d);
  const double radius = chi_radius(stream, d);
  if (profile_ == Profile::one) {
    Eigen::Map<Eigen::VectorXd>(omega, d) = u * (radius / sigma_);
    return;
  }
  lift(law_.sample(stream), u * radius, omega);
}

double LiftedGaussianSampler::density(double projection) const {
  if (a_norm_ == 0.0) {
    return sigma_ / std::sqrt(2.0 * M_PI) * std::exp(-0.5 * sigma_ * sigma_ * projection * projection);
  }
  return a_norm_ * law_.density(projection * a_norm_);
}

}  // namespace askrff
