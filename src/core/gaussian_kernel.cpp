// The Gaussian kernel exp(-||x - y||^2 / (2 sigma^2)): its measure is
// N(0, sigma^-2 I), rotation invariant.
#include <memory>

#include "gram_blocks.h"
#include "kernel_family.h"

namespace askrff {

namespace {

class GaussianKernel : public Kernel {
 public:
  explicit GaussianKernel(double sigma) : sigma_(sigma) {}
  Measure measure(int d) const override {
    return {Part{"pos", 1.0, true, 1.0, 0.0, std::make_shared<GaussianSampler>(d, sigma_)}};
  }
  double radial_density(int d, double radius) const override {
    return GaussianSampler(d, sigma_).density(radius);
  }
  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd& y_sqnorm,
                 Eigen::Index row_begin, Eigen::Index row_end, double* out) const override {
    const Eigen::MatrixXd dist2 = squared_distances(x.middleRows(row_begin, row_end - row_begin), y, y_sqnorm);
    output_block(out, x.rows(), row_begin, dist2.rows(), dist2.cols()) =
        (dist2 * (-0.5 / (sigma_ * sigma_))).array().exp().matrix();
  }
  std::optional<RayProfile> ray() const override { return RayProfile{false, {1.0}, {sigma_}}; }

 private:
  double sigma_;
};

KernelTraits traits(const KernelSpec&) { return scale_family_traits(true, {"iid", "orthogonal", "structured", "qmc"}); }

std::unique_ptr<Kernel> make(const KernelSpec& spec) { return std::make_unique<GaussianKernel>(spec.positive("sigma")); }

}  // namespace

KernelFamily gaussian_family() { return {"gaussian", traits, make, nullptr}; }

}  // namespace askrff
