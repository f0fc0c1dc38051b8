// Features of projections w'x through a step or a ReLU: the dot-product
// representation of the arc-cosine kernels and the two-layer ReLU NTK on the
// sphere, with the right constants (the g-functions of Liu et al. (2021),
// remark (ii), are off by a factor 2; vignette "mathematics", "Arc-cosine
// kernels and the NTK"):
//   kappa_0(x, y) = 2 E[step(w'x) step(w'y)],  kappa_1 = 2 E[relu(w'x) relu(w'y)],
//   NTK = (x'y) kappa_0 + kappa_1,  w ~ N(0, I).
#pragma once
#include <Eigen/Dense>

#include "core/features/feature_map.h"

namespace askrff {

enum class Projection { step, relu, ntk };

// Column f is sqrt(2) weight_f g(w_f'x). The NTK map has the ReLU columns
// first, then for each coordinate k the block sqrt(2) weight_f x_k step(w_f'x),
// so that its inner products add (x'y) times the step products.
class ProjectionFeatureMap : public FeatureMap {
 public:
  ProjectionFeatureMap(Projection kind, const double* omega, const double* weight, int d, int n_frequencies);
  int dimension() const override { return static_cast<int>(omega_.rows()); }
  int n_columns() const override;
  double row_cost() const override { return omega_.cols() * 2.0 * omega_.rows() + 4.0 * n_columns(); }
  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override;

 private:
  Projection kind_;
  Eigen::MatrixXd omega_;
  Eigen::RowVectorXd scale_;
};

}  // namespace askrff
