// Runs block b = 0..n_blocks-1 of a core job on RcppParallel's threads. Blocks
// are fixed by the job, never by the thread count, so results do not depend
// on n_threads. User interrupts are checked on the main thread between chunks
// of blocks; a chunk grows while it takes under 20 ms and shrinks above 80 ms,
// so a Ctrl-C is seen within about 0.1 s plus one block.
#pragma once
#include <Rcpp.h>
#include <RcppParallel.h>

#include <algorithm>
#include <chrono>
#include <cstddef>

#include "core/numerics/block_runner.h"
#include "core/numerics/poll.h"

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
  using Clock = std::chrono::steady_clock;
  BlockWorker<BlockFunction> worker(run_block);
  const std::size_t threads = static_cast<std::size_t>(std::max(1, n_threads));
  std::size_t chunk = threads;
  for (std::size_t begin = 0; begin < n_blocks;) {
    const std::size_t end = std::min(n_blocks, begin + chunk);
    const Clock::time_point start = Clock::now();
    if (n_threads <= 1) {
      worker(begin, end);
    } else {
      RcppParallel::parallelFor(begin, end, worker, 1, n_threads);
    }
    Rcpp::checkUserInterrupt();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (seconds < 0.02) chunk *= 2;
    else if (seconds > 0.08) chunk = std::max(threads, chunk / 2);
    begin = end;
  }
}

// The runner of block_runner.h for core jobs: run_blocks() on n_threads.
inline BlockRunner thread_runner(int n_threads) {
  return [n_threads](std::size_t n_blocks, const Block& block) { run_blocks(n_blocks, n_threads, block); };
}

template <class RangeFunction>
void run_row_blocks(std::size_t n_rows, double row_cost, std::size_t max_rows, int n_threads, const RangeFunction& f) {
  run_row_blocks(n_rows, row_cost, max_rows, thread_runner(n_threads), f);
}

// A Poll for core loops on the main thread: checks for an interrupt at most
// every 20 ms (the check itself costs microseconds).
class InterruptPoll {
 public:
  void operator()() {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(20)) return;
    last_ = now;
    Rcpp::checkUserInterrupt();
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace askrff
