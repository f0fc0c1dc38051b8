// Kernels on the unit sphere, functions of the distance z = |x - y| in
// [0, 2]: the polynomial kernel (1 - z^2/a^2)^p, the arc-cosine kernels of
// order 0 and 1, and the two-layer ReLU NTK (closed forms in the vignette
// "mathematics", "Arc-cosine kernels and the NTK").
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/laws/hankel.h"
#include "core/kernels/kernels.h"

namespace askrff {

enum class SphereFamily { poly, arccos0, arccos1, ntk };

class SphereKernel : public Kernel {
 public:
  // route "dot_product": step/ReLU features of Gaussian projections (arc-cosine
  // and NTK only); "stationary": the discrete radial measure whose atoms R's
  // linear program found, plus the cusp law if the kernel has one.
  SphereKernel(SphereFamily family, double a, double p, std::string route, std::vector<double> atom_radius,
               std::vector<double> atom_weight);
  // k at distance z, for z in [0, 2].
  double profile(double z) const;
  // Arc-cosine order 0 and the NTK behave like k(0) - z/pi at z = 0; the
  // stationary route splits off exp(-z/pi), which has the same cusp.
  bool has_cusp() const { return family_ == SphereFamily::arccos0 || family_ == SphereFamily::ntk; }
  // What the linear program must fit: the profile minus the split-off cusp.
  double lp_target(double z) const;
  Measure measure(int d) const override;
  double radial_density(int d, double radius) const override;
  // The polynomial kernel's: (1 - z^2 / a^2)^p with z^2 = 2 - 2 x'y.
  std::vector<double> dot_product_series() const override;
  void gram_rows(const ConstMatrixMap& x, const ConstMatrixMap& y, const Eigen::VectorXd& y_sqnorm,
                 Eigen::Index row_begin, Eigen::Index row_end, double* out) const override;

 private:
  SphereFamily family_;
  double a_, p_;
  std::string route_;
  std::vector<double> atom_radius_, atom_weight_;
};

// The sphere kernel a spec names; throws when it names another kernel.
std::unique_ptr<SphereKernel> make_sphere_kernel(const KernelSpec& spec);

}  // namespace askrff
