#include "core/statistics/gram_pass.h"

#include "core/numerics/dense_product.h"
#include "core/statistics/feature_blocks.h"

namespace askrff {

namespace {

// A block's share: the products with g and, in one more column, the sum.
struct GramShare {
  Eigen::MatrixXd products;
  double squares = 0.0;
};

}  // namespace

GramProducts sum_gram_products(const FeatureMap& map, const double* x, std::size_t n,
                               const Eigen::Ref<const Eigen::MatrixXd>& g, const Eigen::Ref<const Eigen::VectorXd>& w,
                               const Eigen::Ref<const Eigen::VectorXd>& shift, bool keep_projections,
                               const BlockRunner& run) {
  const Eigen::Index columns = map.n_columns(), width = g.cols();
  GramProducts out;
  out.products = Eigen::MatrixXd::Zero(columns, width);
  out.sum = Eigen::VectorXd::Zero(columns);
  if (keep_projections) out.projections.resize(static_cast<Eigen::Index>(n), width);
  const auto fill = [&](std::size_t begin, std::size_t end, GramShare& share) {
    const Eigen::Index r = static_cast<Eigen::Index>(end - begin), from = static_cast<Eigen::Index>(begin);
    Eigen::MatrixXd z;
    Eigen::VectorXd row_squares;
    shifted_block(map, x, n, begin, end, shift, z, row_squares);
    const auto wb = w.segment(from, r);
    // the products by the core's kernels for the CPU (dense_product.h);
    // the weights' column of the second gives the sum of w u
    Eigen::MatrixXd projected(r, width + 1);
    gemm(1.0, strided(z), strided(g), 0.0, projected.data(), r);
    if (keep_projections) out.projections.middleRows(from, r) = projected.leftCols(width);
    projected.leftCols(width).array().colwise() *= wb.array();
    projected.col(width) = wb;
    share.products.resize(columns, width + 1);
    gemm(1.0, strided(z).transpose(), strided(projected), 0.0, share.products.data(), columns);
    share.squares = wb.dot(row_squares);
  };
  const auto add = [&](const GramShare& share) {
    out.products += share.products.leftCols(width);
    out.sum += share.products.col(width);
    out.squares += share.squares;
  };
  ordered_block_shares<GramShare>(n, cache_block_rows(static_cast<int>(columns)), run, fill, add);
  return out;
}

}  // namespace askrff
