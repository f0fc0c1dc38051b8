#include "core/features/projection_features.h"

#include <cmath>

namespace askrff {

ProjectionFeatureMap::ProjectionFeatureMap(Projection kind, const double* omega, const double* weight,
                                           int d, int n_frequencies)
    : kind_(kind),
      omega_(Eigen::Map<const Eigen::MatrixXd>(omega, d, n_frequencies)),
      scale_(std::sqrt(2.0) * Eigen::Map<const Eigen::RowVectorXd>(weight, n_frequencies)) {}

int ProjectionFeatureMap::n_columns() const {
  const int n = static_cast<int>(omega_.cols());
  return kind_ == Projection::ntk ? n * (1 + static_cast<int>(omega_.rows())) : n;
}

void ProjectionFeatureMap::rows(const double* x, std::size_t ld_x, std::size_t row_begin,
                                std::size_t row_end, double* out, std::size_t ld_out) const {
  using Strided = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
  using StridedOut = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
  const Eigen::Index rows = static_cast<Eigen::Index>(row_end - row_begin);
  const Eigen::Index d = omega_.rows(), n = omega_.cols();
  const Strided xb(x + row_begin, rows, d, Eigen::OuterStride<>(static_cast<Eigen::Index>(ld_x)));
  StridedOut result(out, rows, n_columns(), Eigen::OuterStride<>(static_cast<Eigen::Index>(ld_out)));
  const Eigen::ArrayXXd projection = (xb * omega_).array();
  const Eigen::ArrayXXd step = (projection >= 0.0).cast<double>().rowwise() * scale_.array();
  if (kind_ == Projection::step) {
    result = step.matrix();
    return;
  }
  result.leftCols(n) = (projection.max(0.0).rowwise() * scale_.array()).matrix();
  if (kind_ == Projection::relu) return;
  for (Eigen::Index k = 0; k < d; ++k) {
    result.middleCols(n * (k + 1), n) = (step.colwise() * xb.col(k).array()).matrix();
  }
}

}  // namespace askrff
