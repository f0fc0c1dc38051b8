// Passes whose every block of rows computes its features and all it needs
// from them while they are in cache: blocks of about a megabyte of
// features, handed to the runner a few at a time, each filling its own
// share, and the shares added in row order, so the sums do not depend on
// the runner (block_runner.h). The unsupervised passes (gram_pass.h,
// kmeans_pass.h) are built on it.
#pragma once
#include <Eigen/Dense>
#include <algorithm>
#include <cstddef>
#include <vector>

#include "core/features/feature_map.h"
#include "core/numerics/block_runner.h"

namespace askrff {

constexpr std::size_t kBlocksAtOnce = 8;

// Rows of a block for features of `columns` columns: an eighth of a pass's
// rows (model_passes.h), at least 8.
std::size_t cache_block_rows(int columns);

// The features of rows [begin, end) of x into z.
void block_features(const FeatureMap& map, const double* x, std::size_t n, std::size_t begin, std::size_t end,
                    Eigen::MatrixXd& z);

// The features of rows [begin, end) of x less the shift into z, and each
// row's squared norm of them into row_squares.
void shifted_block(const FeatureMap& map, const double* x, std::size_t n, std::size_t begin, std::size_t end,
                   const Eigen::Ref<const Eigen::VectorXd>& shift, Eigen::MatrixXd& z, Eigen::VectorXd& row_squares);

// Rows [0, n) in blocks of `block` rows: fill(begin, end, share) on the
// runner's threads, kBlocksAtOnce blocks at a time, then add(share) for
// each of them in row order.
template <class Share, class Fill, class Add>
void ordered_block_shares(std::size_t n, std::size_t block, const BlockRunner& run, const Fill& fill, const Add& add) {
  std::vector<Share> shares(kBlocksAtOnce);
  for (std::size_t first = 0; first < n; first += block * kBlocksAtOnce) {
    const std::size_t blocks = std::min(kBlocksAtOnce, (n - first + block - 1) / block);
    run(blocks, [&](std::size_t b) {
      const std::size_t begin = first + b * block;
      fill(begin, std::min(n, begin + block), shares[b]);
    });
    for (std::size_t b = 0; b < blocks; ++b) add(shares[b]);
  }
}

}  // namespace askrff
