# Threads and seeds, which every heavy or random call shares.

# NULL means getOption("askrff.threads"), else default_threads().
resolve_threads <- function(n_threads) {
  if (!is.null(n_threads)) return(check_count(n_threads, "n_threads", max = 1024))
  option <- getOption("askrff.threads")
  if (!is.null(option)) return(check_count(option, "options(askrff.threads)", max = 1024))
  default_threads()
}

# RcppParallel's default, at most 2 under R CMD check --as-cran (which sets
# _R_CHECK_LIMIT_CORES_): CRAN gives examples, tests and vignettes two cores.
default_threads <- function(available = RcppParallel::defaultNumThreads(),
                            limit = Sys.getenv("_R_CHECK_LIMIT_CORES_")) {
  threads <- as.integer(available)
  if (nzchar(limit) && tolower(limit) != "false") threads <- min(threads, 2L)
  threads
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

# n uniforms in [0, 1) from the package's random streams for the seed words;
# the first m of n + k are the n of m.
seed_uniforms <- function(seed_words, n) {
  if (n == 0) return(numeric())
  core(.cpp_sample_dither(seed_words, n)) / (2 * pi)
}
