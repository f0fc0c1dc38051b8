// A job's loops run as blocks b = 0..n_blocks-1 handed to a BlockRunner,
// which may run them in any order and on any threads: the glue gives one
// that spreads them over RcppParallel's threads and checks for a user
// interrupt between them (parallel.h), as it gives a Poll; the core knows
// nothing of threads. Blocks are fixed by the job's sizes, never by the
// runner, and own disjoint outputs, so results do not depend on the runner.
#pragma once
#include <algorithm>
#include <cstddef>
#include <functional>

namespace askrff {

using Block = std::function<void(std::size_t)>;
using BlockRunner = std::function<void(std::size_t n_blocks, const Block& block)>;

inline void serial_blocks(std::size_t n_blocks, const Block& block) {
  for (std::size_t b = 0; b < n_blocks; ++b) block(b);
}

// Rows per block for a job whose rows cost about `row_cost` flops each: about
// 1e8 flops a block (10 to 50 ms), so that a block never delays an
// interrupt, and at most max_rows. Depends on the job's sizes only.
constexpr double kBlockFlops = 1e8;

inline std::size_t rows_per_block(double row_cost, std::size_t max_rows) {
  const double rows = kBlockFlops / std::max(row_cost, 1.0);
  return rows >= static_cast<double>(max_rows) ? max_rows : std::max<std::size_t>(1, static_cast<std::size_t>(rows));
}

// Runs f(begin, end) over consecutive row ranges of size rows_per_block().
template <class RangeFunction>
void run_row_blocks(std::size_t n_rows, double row_cost, std::size_t max_rows, const BlockRunner& run,
                    const RangeFunction& f) {
  const std::size_t block = rows_per_block(row_cost, max_rows);
  run((n_rows + block - 1) / block, [&](std::size_t b) {
    const std::size_t begin = b * block;
    f(begin, std::min(n_rows, begin + block));
  });
}

}  // namespace askrff
