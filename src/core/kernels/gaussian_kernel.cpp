// The Gaussian kernel exp(-||D^-1 (x - y)||^2 / 2) with D = diag(sigma), one
// scale for all coordinates or one per coordinate: its measure is
// N(0, D^-2), rotation invariant when the scales are equal.
#include <cmath>
#include <memory>

#include "core/kernels/gram_blocks.h"
#include "core/kernels/kernel_family.h"
#include "core/laws/coordinate_scaling.h"
#include "core/laws/elementary_laws.h"
#include "core/numerics/vector_math.h"

namespace askrff {

namespace {

class GaussianKernel : public Kernel {
 public:
  explicit GaussianKernel(std::vector<double> sigma) : sigma_(std::move(sigma)) {}
  Measure measure(int d) const override {
    std::shared_ptr<const PartSampler> law;
    if (isotropic()) {
      law = std::make_shared<GaussianSampler>(d, sigma_[0]);
    } else {
      law = std::make_shared<CoordinateScaledSampler>(std::make_shared<GaussianSampler>(d, 1.0), sigma_);
    }
    return {Part{"pos", 1.0, true, 1.0, 0.0, law}};
  }
  double radial_density(int d, double radius) const override {
    if (!isotropic()) return Kernel::radial_density(d, radius);
    return GaussianSampler(d, sigma_[0]).density(radius);
  }
  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd&,
                 Eigen::Index row_begin, Eigen::Index row_end, double* out) const override {
    const UnitData units = unit_data(x.middleRows(row_begin, row_end - row_begin), y, sigma_);
    // in place in the result, each column while it is in cache
    const std::ptrdiff_t rows = row_end - row_begin;
    units.squared_distances(out + row_begin, x.rows(), [&](double* column) {
      if (units.exponent != 0) {
        for (std::ptrdiff_t i = 0; i < rows; ++i) column[i] = units.squared(column[i]);
      }
      scaled_exp(column, static_cast<std::size_t>(rows), -0.5);
    });
  }
  std::optional<RayProfile> ray() const override {
    if (!isotropic()) return std::nullopt;
    return RayProfile{false, {1.0}, {sigma_[0]}};
  }

 private:
  bool isotropic() const { return sigma_.size() == 1; }
  std::vector<double> sigma_;
};

KernelTraits traits(const KernelSpec& spec) {
  const bool isotropic = spec.vector("sigma").size() == 1;
  KernelTraits t = scale_family_traits(isotropic);
  t.coordinate_params = {"sigma"};
  t.periodic = isotropic;
  return t;
}

std::unique_ptr<Kernel> make(const KernelSpec& spec) {
  return std::make_unique<GaussianKernel>(spec.positives("sigma"));
}

}  // namespace

KernelFamily gaussian_family() { return {"gaussian", traits, make, nullptr}; }

}  // namespace askrff
