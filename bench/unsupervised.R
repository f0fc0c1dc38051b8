# Kernel k-means and kernel PCA at scale and against the exact methods.
#   scale [n]: rff_kmeans() with 10 centres on n rows (default 1e6) of 50
#     columns, 2,048 frequencies, two threads: seconds, Lloyd steps,
#     seconds per step and the process's peak memory.
#   peers: rff_kmeans() (1,024 frequencies, 10 starts) against
#     kernlab::kkmeans() (the n x n kernel matrix) with the same Gaussian
#     kernel on two rings, at the n where kkmeans still runs: seconds and
#     adjusted Rand index against the rings.
#   pca: rff_pca() (1,024 to 4,096 frequencies, top 5 components) against
#     kernlab::kpca() on 5,000 rows of two noisy rings in three columns:
#     seconds, the largest principal angle between the score subspaces
#     and the variances' relative errors.
# Usage: Rscript bench/unsupervised.R scale|peers|pca [n] (after `make install`).
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

pca_part <- function() {
  set.seed(4)
  n <- 5000
  angle <- stats::runif(n, 0, 2 * pi)
  radius <- rep(c(1, 2.5), each = n / 2) + stats::rnorm(n, sd = 0.1)
  x <- cbind(radius * cos(angle), radius * sin(angle), stats::rnorm(n, sd = 0.3))
  exact_seconds <- system.time(exact <- kernlab::kpca(x, kernel = "rbfdot", kpar = list(sigma = 1 / 2),
                                                      features = 5))[["elapsed"]]
  # kpca's eig: the centred kernel matrix's eigenvalues over n
  exact_variances <- kernlab::eig(exact) * n / (n - 1)
  qb <- qr.Q(qr(scale(kernlab::rotated(exact), scale = FALSE)))
  cat(sprintf("kernlab::kpca, n = %d: %.1f s\n", n, exact_seconds))
  cat("| frequencies | columns | s | largest angle (rad) | variances' relative errors |\n|---|---|---|---|---|\n")
  for (frequencies in c(1024, 2048, 4096)) {
    seconds <- system.time(fit <- rff_pca(x, kernel = gaussian_kernel(1), n_features = frequencies, rank = 5, seed = 1,
                                          n_threads = 2))[["elapsed"]]
    qa <- qr.Q(qr(scale(fit$x, scale = FALSE)))
    angle <- acos(min(1, min(svd(crossprod(qa, qb))$d)))
    errors <- fit$sdev[1:5]^2 / exact_variances - 1
    cat(sprintf("| %s | %s | %.1f | %.3f | %s |\n", format(frequencies, big.mark = ","),
                format(length(fit$sdev), big.mark = ","), seconds, angle,
                paste(sprintf("%+.3f", errors), collapse = ", ")))
  }
}

switch(part, scale = scale_part(if (length(args) > 1L) as.numeric(args[2]) else 1e6), peers = peers_part(),
       pca = pca_part())
