#include "approx_gram.h"

namespace askrff {

void approx_gram_rows(const FeatureMap& left, const double* x, std::size_t ld_x,
                      std::size_t row_begin, std::size_t row_end,
                      const Eigen::Map<const Eigen::MatrixXd>& right_features, double* out,
                      std::size_t ld_out) {
  const Eigen::Index rows = static_cast<Eigen::Index>(row_end - row_begin);
  Eigen::MatrixXd left_features(rows, left.n_columns());
  left.rows(x, ld_x, row_begin, row_end, left_features.data(), static_cast<std::size_t>(rows));
  Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>> block(
      out + row_begin, rows, right_features.rows(), Eigen::OuterStride<>(ld_out));
  block.noalias() = left_features * right_features.transpose();
}

}  // namespace askrff
