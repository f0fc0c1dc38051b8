// Isotropic kernels k(||D^-1 (x - y)||) that are Gaussian scale mixtures
// (scale_mixtures.h), with D = diag(sigma) from one scale or one per
// coordinate: Matern (any nu > 0; exponential is nu = 1/2), rational
// quadratic, and generalized Gaussian exp(-r^power).
#include <cmath>
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

// k at the scaled distance r is the scale law's kernel(r) (scale_mixtures.h).
class IsotropicKernel : public Kernel {
 public:
  IsotropicKernel(std::vector<double> sigma, std::shared_ptr<const ScaleLaw> law)
      : sigma_(std::move(sigma)), law_(std::move(law)) {}
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
      for (Eigen::Index i = 0; i < dist2.rows(); ++i) block(i, j) = law_->kernel(units.distance(dist2(i, j)));
    }
  }
  double entry_cost(int d) const override { return 4.0 * d + 200.0; }

 private:
  std::vector<double> sigma_;
  std::shared_ptr<const ScaleLaw> law_;
};

KernelTraits isotropic_traits(const KernelSpec& spec) {
  KernelTraits t;
  t.coordinate_params = {"sigma"};
  t.scaled_params = {ScaledParam{"sigma", 1}};
  t.measure = "positive";
  t.radial = spec.vector("sigma").size() == 1;
  return t;
}

std::unique_ptr<Kernel> make_matern(const KernelSpec& spec) {
  return std::make_unique<IsotropicKernel>(spec.positives("sigma"), matern_scale(spec.positive("nu")));
}

std::unique_ptr<Kernel> make_exponential(const KernelSpec& spec) {
  return std::make_unique<IsotropicKernel>(spec.positives("sigma"), matern_scale(0.5));
}

std::unique_ptr<Kernel> make_rational_quadratic(const KernelSpec& spec) {
  return std::make_unique<IsotropicKernel>(spec.positives("sigma"), rational_quadratic_scale(spec.positive("alpha")));
}

std::unique_ptr<Kernel> make_generalized_gaussian(const KernelSpec& spec) {
  const double power = spec.positive("power");
  if (power > 2.0) throw std::invalid_argument("the generalized Gaussian kernel needs `power` in (0, 2]");
  return std::make_unique<IsotropicKernel>(spec.positives("sigma"), stable_scale(power / 2.0));
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
