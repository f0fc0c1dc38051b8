// The Laplace kernel exp(-||x - y||_1 / sigma): its measure is a product of
// Cauchy laws, not rotation invariant, so only i.i.d. frequencies apply.
#include <cmath>
#include <memory>

#include "core/kernels/gram_blocks.h"
#include "core/kernels/kernel_family.h"
#include "core/laws/elementary_laws.h"

namespace askrff {

namespace {

class LaplaceKernel : public Kernel {
 public:
  explicit LaplaceKernel(double sigma) : sigma_(sigma) {}
  Measure measure(int d) const override {
    return {Part{"pos", 1.0, true, 1.0, 0.0, std::make_shared<CauchyProductSampler>(d, sigma_)}};
  }
  // The L1 distance has no product expansion; accumulate coordinate by
  // coordinate down contiguous columns so the inner loop vectorizes. In units
  // of sigma (gram_blocks.h), so that neither differences nor sums overflow
  // before the kernel does.
  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd&,
                 Eigen::Index row_begin, Eigen::Index row_end, double* out) const override {
    const Eigen::Index n = x.rows(), rows = row_end - row_begin;
    const UnitData units = unit_data(x.middleRows(row_begin, rows), y, {sigma_});
    for (Eigen::Index j = 0; j < y.rows(); ++j) {
      double* column = out + j * n + row_begin;
      for (Eigen::Index i = 0; i < rows; ++i) column[i] = 0.0;
      for (Eigen::Index k = 0; k < x.cols(); ++k) {
        const double yk = units.y(j, k);
        const double* xk = units.x.data() + k * rows;
        for (Eigen::Index i = 0; i < rows; ++i) column[i] += std::abs(xk[i] - yk);
      }
      if (units.exponent != 0) {
        for (Eigen::Index i = 0; i < rows; ++i) column[i] = std::ldexp(column[i], units.exponent);
      }
      for (Eigen::Index i = 0; i < rows; ++i) column[i] = std::exp(-column[i]);
    }
  }
  std::optional<RayProfile> ray() const override { return RayProfile{true, {1.0}, {sigma_}}; }

 private:
  double sigma_;
};

KernelTraits traits(const KernelSpec&) { return scale_family_traits(false); }

std::unique_ptr<Kernel> make(const KernelSpec& spec) { return std::make_unique<LaplaceKernel>(spec.positive("sigma")); }

}  // namespace

KernelFamily laplace_family() { return {"laplace", traits, make, nullptr}; }

}  // namespace askrff
