# Kernel k-means at scale and against the exact kernel k-means.
#   scale [n]: rff_kmeans() with 10 centres on n rows (default 1e6) of 50
#     columns, 2,048 frequencies, two threads: seconds, Lloyd steps,
#     seconds per step and the process's peak memory.
#   peers: rff_kmeans() (1,024 frequencies, 10 starts) against
#     kernlab::kkmeans() (the n x n kernel matrix) with the same Gaussian
#     kernel on two rings, at the n where kkmeans still runs: seconds and
#     adjusted Rand index against the rings.
# Usage: Rscript bench/unsupervised.R scale|peers [n] (after `make install`).
# Results are recorded in bench/RESULTS.md.

library(askrff)
args <- commandArgs(TRUE)
part <- if (length(args)) args[1] else "scale"

# The resident set's high-water mark of this process, in GB (Linux).
peak_gb <- function() {
  status <- readLines("/proc/self/status")
  as.numeric(sub("[^0-9]*([0-9]+).*", "\\1", grep("^VmHWM", status, value = TRUE))) / 2^20
}

# The adjusted Rand index of two partitions (Hubert and Arabie 1985).
adjusted_rand <- function(a, b) {
  pairs <- function(v) sum(choose(v, 2))
  tab <- table(a, b)
  expected <- pairs(rowSums(tab)) * pairs(colSums(tab)) / choose(length(a), 2)
  largest <- (pairs(rowSums(tab)) + pairs(colSums(tab))) / 2
  (pairs(tab) - expected) / (largest - expected)
}

scale_part <- function(n) {
  set.seed(1)
  d <- 50
  centre <- sample(10, n, replace = TRUE)
  means <- matrix(stats::rnorm(10 * d, sd = 0.6), 10, d)
  x <- means[centre, ] + matrix(stats::rnorm(n * d), n, d)
  seconds <- system.time(fit <- rff_kmeans(x, 10, kernel = gaussian_kernel(sqrt(d)), n_features = 2048, seed = 1,
                                           n_threads = 2))[["elapsed"]]
  cat(sprintf("k-means, n = %s, d = %d, %d columns, 10 centres: %.1f s, %d steps (%.1f s each), ARI %.3f, peak memory %.2f GB\n",
              format(n, big.mark = ","), d, ncol(fit$centers), seconds, fit$iter, seconds / fit$iter,
              adjusted_rand(fit$cluster, centre), peak_gb()))
}

peers_part <- function() {
  cat("| n | kkmeans s | kkmeans ARI | rff_kmeans s | rff_kmeans ARI |\n|---|---|---|---|---|\n")
  for (n in c(1000, 2000, 5000, 10000)) {
    set.seed(3)
    angle <- stats::runif(n, 0, 2 * pi)
    ring <- rep(1:2, length.out = n)
    x <- cbind(c(1, 4)[ring] * cos(angle), c(1, 4)[ring] * sin(angle)) + stats::rnorm(2 * n, sd = 0.15)
    ours <- system.time(fit <- rff_kmeans(x, 2, kernel = gaussian_kernel(1), n_features = 1024, n_starts = 10,
                                          seed = 1, n_threads = 2))[["elapsed"]]
    exact <- NA
    exact_ari <- NA
    if (n <= 5000) {
      exact <- system.time(kk <- kernlab::kkmeans(x, centers = 2, kernel = "rbfdot",
                                                  kpar = list(sigma = 1 / 2)))[["elapsed"]]
      exact_ari <- adjusted_rand(as.vector(kk), ring)
    }
    cat(sprintf("| %s | %.1f | %.3f | %.2f | %.3f |\n", format(n, big.mark = ","), exact, exact_ari, ours,
                adjusted_rand(fit$cluster, ring)))
  }
}

switch(part, scale = scale_part(if (length(args) > 1L) as.numeric(args[2]) else 1e6), peers = peers_part())
