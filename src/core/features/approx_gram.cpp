#include "core/features/approx_gram.h"

#include "core/numerics/dense_product.h"

namespace askrff {

namespace {
Eigen::MatrixXd block_rows(const FeatureRows& side, std::size_t begin, std::size_t end) {
  const Eigen::Index rows = static_cast<Eigen::Index>(end - begin);
  Eigen::MatrixXd block(rows, side.n_columns());
  side.rows(begin, end, block.data(), static_cast<std::size_t>(rows));
  return block;
}
}  // namespace

void approx_gram_rows(const FeatureRows& left, std::size_t row_begin, std::size_t row_end,
                      const ConstFeatures& right_features, double scale, double* out, std::size_t ld_out) {
  const Eigen::MatrixXd left_features = block_rows(left, row_begin, row_end);
  gemm(scale, strided(left_features), strided(right_features).transpose(), 0.0, out + row_begin,
       static_cast<std::ptrdiff_t>(ld_out));
}

void approx_gram_columns(const ConstFeatures& left_features, const FeatureRows& right, std::size_t col_begin,
                         std::size_t col_end, double scale, double* out, std::size_t ld_out) {
  const Eigen::MatrixXd right_features = block_rows(right, col_begin, col_end);
  gemm(scale, strided(left_features), strided(right_features).transpose(), 0.0, out + col_begin * ld_out,
       static_cast<std::ptrdiff_t>(ld_out));
}

}  // namespace askrff
