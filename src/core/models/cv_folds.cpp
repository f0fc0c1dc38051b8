#include "core/models/cv_folds.h"

#include <numeric>
#include <utility>
#include <vector>

#include "core/numerics/random.h"

namespace askrff {

namespace {
// The stream's part key for folds, apart from the parts of sampled maps.
constexpr std::uint64_t kFoldStream = 0xF01D5ULL;
}  // namespace

int cv_fold(std::uint64_t seed, std::uint64_t row, int n_folds) {
  const std::uint64_t k = static_cast<std::uint64_t>(n_folds);
  Stream stream(seed, kFoldStream, row / k);
  std::vector<int> order(n_folds);
  std::iota(order.begin(), order.end(), 1);
  // Fisher-Yates, up to the row's own position (the rest is not needed)
  const std::uint64_t position = row % k;
  for (std::uint64_t i = 0; i <= position; ++i) {
    const std::uint64_t j = i + stream.next() % (k - i);
    std::swap(order[i], order[j]);
  }
  return order[position];
}

}  // namespace askrff
