#include "core/statistics/feature_blocks.h"

#include "core/models/model_passes.h"

namespace askrff {

std::size_t cache_block_rows(int columns) {
  return std::max<std::size_t>(8, pass_rows(columns) / kBlocksAtOnce);
}

void block_features(const FeatureMap& map, const double* x, std::size_t n, std::size_t begin, std::size_t end,
                    Eigen::MatrixXd& z) {
  z.resize(static_cast<Eigen::Index>(end - begin), map.n_columns());
  map.rows(x, n, begin, end, z.data(), end - begin);
}

void shifted_block(const FeatureMap& map, const double* x, std::size_t n, std::size_t begin, std::size_t end,
                   const Eigen::Ref<const Eigen::VectorXd>& shift, Eigen::MatrixXd& z, Eigen::VectorXd& row_squares) {
  block_features(map, x, n, begin, end, z);
  row_squares = Eigen::VectorXd::Zero(z.rows());
  for (Eigen::Index c = 0; c < z.cols(); ++c) {
    z.col(c).array() -= shift(c);
    row_squares += z.col(c).cwiseAbs2();
  }
}

}  // namespace askrff
