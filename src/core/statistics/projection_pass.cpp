#include "core/statistics/projection_pass.h"

#include "core/numerics/dense_product.h"
#include "core/statistics/feature_blocks.h"

namespace askrff {

RowProjections project_rows(const FeatureMap& map, const double* x, std::size_t n,
                            const Eigen::Ref<const Eigen::MatrixXd>& g, const Eigen::Ref<const Eigen::MatrixXd>& a,
                            const BlockRunner& run) {
  RowProjections out;
  out.projections.resize(static_cast<Eigen::Index>(n), g.cols());
  out.sums = Eigen::MatrixXd::Zero(map.n_columns(), 1 + a.cols());
  const auto fill = [&](std::size_t begin, std::size_t end, Eigen::MatrixXd& share) {
    const Eigen::Index r = static_cast<Eigen::Index>(end - begin), from = static_cast<Eigen::Index>(begin);
    Eigen::MatrixXd z;
    block_features(map, x, n, begin, end, z);
    // the block's rows of the projections, in place (leading dimension n)
    if (g.cols() > 0) gemm(1.0, strided(z), strided(g), 0.0, out.projections.data() + begin, static_cast<std::ptrdiff_t>(n));
    Eigen::MatrixXd weights(r, 1 + a.cols());
    weights.col(0).setOnes();
    weights.rightCols(a.cols()) = a.middleRows(from, r);
    share.resize(z.cols(), weights.cols());
    gemm(1.0, strided(z).transpose(), strided(weights), 0.0, share.data(), z.cols());
  };
  const auto add = [&](const Eigen::MatrixXd& share) { out.sums += share; };
  ordered_block_shares<Eigen::MatrixXd>(n, cache_block_rows(map.n_columns()), run, fill, add);
  return out;
}

}  // namespace askrff
