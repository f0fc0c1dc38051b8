#include "core/kernels/gram_blocks.h"

#include <algorithm>
#include <climits>

namespace askrff {

namespace {

constexpr int kSafeExponent = 480;

// x / (sigma 2^exponent): the division first, unless it overflows (then the
// power of two first); either way one rounding.
Eigen::MatrixXd in_units(const Eigen::Ref<const Eigen::MatrixXd>& x, const std::vector<double>& scales, int exponent) {
  Eigen::MatrixXd out(x.rows(), x.cols());
  for (Eigen::Index k = 0; k < x.cols(); ++k) {
    const double sigma = scales.size() == 1 ? scales[0] : scales[static_cast<std::size_t>(k)];
    if (exponent == 0) {
      out.col(k) = x.col(k) / sigma;  // finite: every |x| / sigma is below 2^481
      continue;
    }
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
      const double q = x(i, k) / sigma;
      out(i, k) = std::isfinite(q) ? std::ldexp(q, -exponent) : std::ldexp(x(i, k), -exponent) / sigma;
    }
  }
  return out;
}

}  // namespace

Eigen::MatrixXd UnitData::squared_distances(const Eigen::VectorXd* shift) const {
  const ConstMatrixMap ym(y.data(), y.rows(), y.cols());
  if (!shift) return askrff::squared_distances(x, ym, y_sqnorm);
  Eigen::VectorXd moved(shift->size());
  for (Eigen::Index k = 0; k < moved.size(); ++k) moved[k] = std::ldexp((*shift)[k], -exponent);
  return askrff::squared_distances(x, ym, y_sqnorm, &moved);
}

UnitData unit_data(const Eigen::Ref<const Eigen::MatrixXd>& x_rows, const ConstMatrixMap& y,
                   const std::vector<double>& scales) {
  // The binary exponent of the largest |coordinate| / sigma, within one.
  int largest = INT_MIN;
  for (Eigen::Index k = 0; k < x_rows.cols(); ++k) {
    const double sigma = scales.size() == 1 ? scales[0] : scales[static_cast<std::size_t>(k)];
    double top = y.col(k).cwiseAbs().maxCoeff();
    if (x_rows.rows() > 0) top = std::max(top, x_rows.col(k).cwiseAbs().maxCoeff());
    if (top > 0.0) largest = std::max(largest, std::ilogb(top) - std::ilogb(sigma));
  }
  UnitData out;
  out.exponent = largest != INT_MIN && std::abs(largest) > kSafeExponent ? largest : 0;
  out.x = in_units(x_rows, scales, out.exponent);
  out.y = in_units(y, scales, out.exponent);
  out.y_sqnorm = out.y.rowwise().squaredNorm();
  return out;
}

}  // namespace askrff
