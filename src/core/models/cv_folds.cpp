#include "core/models/cv_folds.h"

#include <numeric>
#include <utility>
#include <vector>

#include "core/numerics/random.h"

namespace askrff {

namespace {
// The streams' part keys for folds and for the rows of sampled Hessians,
// apart from each other and from the parts of sampled maps.
constexpr std::uint64_t kFoldStream = 0xF01D5ULL;
constexpr std::uint64_t kHessianStream = 0x4E55ULL;

// The group, 1..n_groups, of the row in the random permutation of its
// consecutive group of n_groups rows, from the stream `part`.
int row_group(std::uint64_t seed, std::uint64_t part, std::uint64_t row, int n_groups) {
  const std::uint64_t k = static_cast<std::uint64_t>(n_groups);
  Stream stream(seed, part, row / k);
  std::vector<int> order(n_groups);
  std::iota(order.begin(), order.end(), 1);
  // Fisher-Yates, up to the row's own position (the rest is not needed)
  const std::uint64_t position = row % k;
  for (std::uint64_t i = 0; i <= position; ++i) {
    const std::uint64_t j = i + stream.next() % (k - i);
    std::swap(order[i], order[j]);
  }
  return order[position];
}
}  // namespace

int cv_fold(std::uint64_t seed, std::uint64_t row, int n_folds) { return row_group(seed, kFoldStream, row, n_folds); }

bool hessian_row(std::uint64_t seed, std::uint64_t row, int every) {
  return every <= 1 || row_group(seed, kHessianStream, row, every) == 1;
}

}  // namespace askrff
