// Runs block b = 0..n_blocks-1 of a core job on RcppParallel's threads. Blocks
// are fixed by the job, never by the thread count, so results do not depend
// on n_threads. User interrupts are checked on the main thread between chunks.
#pragma once
#include <Rcpp.h>
#include <RcppParallel.h>

#include <algorithm>
#include <cstddef>

namespace askrff {

template <class BlockFunction>
struct BlockWorker : public RcppParallel::Worker {
  const BlockFunction& run_block;
  explicit BlockWorker(const BlockFunction& f) : run_block(f) {}
  void operator()(std::size_t begin, std::size_t end) override {
    for (std::size_t b = begin; b < end; ++b) run_block(b);
  }
};

template <class BlockFunction>
void run_blocks(std::size_t n_blocks, int n_threads, const BlockFunction& run_block) {
  BlockWorker<BlockFunction> worker(run_block);
  const std::size_t chunk = std::max<std::size_t>(64, 16 * static_cast<std::size_t>(n_threads));
  for (std::size_t begin = 0; begin < n_blocks; begin += chunk) {
    const std::size_t end = std::min(n_blocks, begin + chunk);
    if (n_threads <= 1) {
      worker(begin, end);
    } else {
      RcppParallel::parallelFor(begin, end, worker, 1, n_threads);
    }
    Rcpp::checkUserInterrupt();
  }
}

}  // namespace askrff
