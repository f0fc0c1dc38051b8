#include "core/statistics/gram_pass.h"

#include <algorithm>
#include <vector>

#include "core/models/model_passes.h"
#include "core/numerics/dense_product.h"

namespace askrff {

namespace {

// Blocks of rows a pass hands out at once; their shares are added in order.
constexpr std::size_t kBlocksAtOnce = 8;

// A block's share: the products with g and, in one more column, the sum.
struct Share {
  Eigen::MatrixXd products;
  double squares = 0.0;
};

}  // namespace

GramProducts sum_gram_products(const FeatureMap& map, const double* x, std::size_t n,
                               const Eigen::Ref<const Eigen::MatrixXd>& g, const Eigen::Ref<const Eigen::VectorXd>& w,
                               const Eigen::Ref<const Eigen::VectorXd>& shift, bool keep_projections,
                               const BlockRunner& run) {
  const Eigen::Index columns = map.n_columns(), width = g.cols();
  // a block's features stay near the cache's size: an eighth of a pass's rows
  const std::size_t block = std::max<std::size_t>(8, pass_rows(static_cast<int>(columns)) / kBlocksAtOnce);
  GramProducts out;
  out.products = Eigen::MatrixXd::Zero(columns, width);
  out.sum = Eigen::VectorXd::Zero(columns);
  if (keep_projections) out.projections.resize(static_cast<Eigen::Index>(n), width);
  std::vector<Share> shares(kBlocksAtOnce);
  for (std::size_t first = 0; first < n; first += block * kBlocksAtOnce) {
    const std::size_t blocks = std::min(kBlocksAtOnce, (n - first + block - 1) / block);
    run(blocks, [&](std::size_t b) {
      const std::size_t begin = first + b * block, end = std::min(n, begin + block);
      const Eigen::Index r = static_cast<Eigen::Index>(end - begin), from = static_cast<Eigen::Index>(begin);
      Eigen::MatrixXd z(r, columns);
      map.rows(x, n, begin, end, z.data(), end - begin);
      const auto wb = w.segment(from, r);
      Eigen::VectorXd row_squares = Eigen::VectorXd::Zero(r);
      for (Eigen::Index c = 0; c < columns; ++c) {
        z.col(c).array() -= shift(c);
        row_squares += z.col(c).cwiseAbs2();
      }
      // the products by the core's kernels for the CPU (dense_product.h);
      // the weights' column of the second gives the sum of w u
      Eigen::MatrixXd projected(r, width + 1);
      gemm(1.0, strided(z), strided(g), 0.0, projected.data(), r);
      if (keep_projections) out.projections.middleRows(from, r) = projected.leftCols(width);
      projected.leftCols(width).array().colwise() *= wb.array();
      projected.col(width) = wb;
      Share& share = shares[b];
      share.products.resize(columns, width + 1);
      gemm(1.0, strided(z).transpose(), strided(projected), 0.0, share.products.data(), columns);
      share.squares = wb.dot(row_squares);
    });
    for (std::size_t b = 0; b < blocks; ++b) {
      out.products += shares[b].products.leftCols(width);
      out.sum += shares[b].products.col(width);
      out.squares += shares[b].squares;
    }
  }
  return out;
}

}  // namespace askrff
