# Threads and seeds: the settings every heavy or random call shares.

# NULL means getOption("askrff.threads"), else RcppParallel's default.
resolve_threads <- function(n_threads) {
  if (is.null(n_threads)) {
    n_threads <- getOption("askrff.threads", RcppParallel::defaultNumThreads())
  }
  check_count(n_threads, "n_threads", max = 1024)
}

# The core's 64-bit seed as two 32-bit words. NULL draws them from R's RNG, so
# set.seed() makes results reproducible; a number gives the same map always.
resolve_seed <- function(seed) {
  if (is.null(seed)) return(floor(stats::runif(2) * 2^32))
  if (!is_single_number(seed) || !is.finite(seed) || seed < 0 || seed > 2^53 || seed != round(seed)) {
    fail("`seed` must be NULL or a single whole number between 0 and 2^53.")
  }
  c(seed %/% 2^32, seed %% 2^32)
}
