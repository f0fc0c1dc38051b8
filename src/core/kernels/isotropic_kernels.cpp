// Isotropic kernels k(||D^-1 (x - y)||) that are Gaussian scale mixtures
// (scale_mixtures.h), with D = diag(sigma) from one scale or one per
// coordinate: Matern (any nu > 0; exponential is nu = 1/2), rational
// quadratic, and generalized Gaussian exp(-r^power).
#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>

#include "core/numerics/bessel_k.h"
#include "core/laws/coordinate_scaling.h"
#include "core/kernels/gram_blocks.h"
#include "core/kernels/kernel_family.h"
#include "core/laws/scale_mixtures.h"
#include "core/numerics/special_functions.h"

namespace askrff {

namespace {

// k as a function of the scaled distance r.
using Profile = std::function<double(double)>;

class IsotropicKernel : public Kernel {
 public:
  IsotropicKernel(std::vector<double> sigma, Profile profile, std::shared_ptr<const ScaleLaw> law)
      : sigma_(std::move(sigma)), profile_(std::move(profile)), law_(std::move(law)) {}
  Measure measure(int d) const override {
    std::shared_ptr<const PartSampler> law;
    if (sigma_.size() == 1) {
      law = std::make_shared<ScaleMixtureSampler>(d, sigma_[0], law_);
    } else {
      law = std::make_shared<CoordinateScaledSampler>(std::make_shared<ScaleMixtureSampler>(d, 1.0, law_), sigma_);
    }
    return {Part{"pos", 1.0, true, 1.0, 0.0, law}};
  }
  double radial_density(int d, double radius) const override {
    if (sigma_.size() != 1) return Kernel::radial_density(d, radius);
    return ScaleMixtureSampler(d, sigma_[0], law_).density(radius);
  }
  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd&,
                 Eigen::Index row_begin, Eigen::Index row_end, double* out) const override {
    const UnitData units = unit_data(x.middleRows(row_begin, row_end - row_begin), y, sigma_);
    const Eigen::MatrixXd dist2 = units.squared_distances();
    OutputBlock block = output_block(out, x.rows(), row_begin, dist2.rows(), dist2.cols());
    for (Eigen::Index j = 0; j < dist2.cols(); ++j) {
      for (Eigen::Index i = 0; i < dist2.rows(); ++i) block(i, j) = profile_(units.distance(dist2(i, j)));
    }
  }
  double entry_cost(int d) const override { return 4.0 * d + 200.0; }

 private:
  std::vector<double> sigma_;
  Profile profile_;
  std::shared_ptr<const ScaleLaw> law_;
};

// Matern: 2^(1 - nu) / Gamma(nu) t^nu K_nu(t) with t = sqrt(2 nu) r; the
// half-integer orders nu = 1/2, 3/2, 5/2 by their elementary forms, and
// orders from 50 on by Debye's expansion.
Profile matern_profile(double nu) {
  const double factor = std::sqrt(2.0 * nu);
  if (nu == 0.5) return [](double r) { return std::exp(-r); };
  if (nu == 1.5) return [factor](double r) { const double t = factor * r; return (1.0 + t) * std::exp(-t); };
  if (nu == 2.5) {
    return [factor](double r) { const double t = factor * r; return (1.0 + t + t * t / 3.0) * std::exp(-t); };
  }
  if (nu >= 50.0) return [nu](double r) { return r == 0.0 ? 1.0 : matern_large_order(nu, r); };
  return [factor, form = MaternBesselForm(nu)](double r) { return form(factor * r); };
}

KernelTraits isotropic_traits(const KernelSpec& spec) {
  KernelTraits t;
  t.coordinate_params = {"sigma"};
  t.measure = "positive";
  t.radial = spec.vector("sigma").size() == 1;
  return t;
}

std::unique_ptr<Kernel> make_matern(const KernelSpec& spec) {
  const double nu = spec.positive("nu");
  return std::make_unique<IsotropicKernel>(spec.positives("sigma"), matern_profile(nu), gamma_scale(nu, -0.5));
}

std::unique_ptr<Kernel> make_exponential(const KernelSpec& spec) {
  return std::make_unique<IsotropicKernel>(spec.positives("sigma"), matern_profile(0.5), gamma_scale(0.5, -0.5));
}

std::unique_ptr<Kernel> make_rational_quadratic(const KernelSpec& spec) {
  const double alpha = spec.positive("alpha");
  // (r / sqrt(2 alpha))^2 neither underflows for tiny r nor overflows before
  // the kernel does; beyond, log(1 + z) is log z to double precision.
  const double root = std::sqrt(2.0 * alpha);
  const auto profile = [alpha, root](double r) {
    const double q = r / root, z = q * q;
    return std::exp(-alpha * (std::isfinite(z) ? std::log1p(z) : 2.0 * (std::log(r) - std::log(root))));
  };
  return std::make_unique<IsotropicKernel>(spec.positives("sigma"), profile, gamma_scale(alpha, 0.5));
}

std::unique_ptr<Kernel> make_generalized_gaussian(const KernelSpec& spec) {
  const double power = spec.positive("power");
  if (power > 2.0) throw std::invalid_argument("the generalized Gaussian kernel needs `power` in (0, 2]");
  return std::make_unique<IsotropicKernel>(
      spec.positives("sigma"), [power](double r) { return std::exp(-std::pow(r, power)); }, stable_scale(power / 2.0));
}

}  // namespace

KernelFamily matern_family() {
  return {"matern", isotropic_traits, make_matern, nullptr};
}
KernelFamily exponential_family() {
  return {"exponential", isotropic_traits, make_exponential, nullptr};
}
KernelFamily rational_quadratic_family() {
  return {"rational_quadratic", isotropic_traits, make_rational_quadratic, nullptr};
}
KernelFamily generalized_gaussian_family() {
  return {"generalized_gaussian", isotropic_traits, make_generalized_gaussian, nullptr};
}

}  // namespace askrff
