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
#   spectral: rff_spectral() (Nyström map, 300 landmarks) against
#     kernlab::specc() with the same Gaussian kernel on two rings and two
#     moons: seconds, the R heap's peak (MB, gc()'s "max used") and the
#     adjusted Rand index, specc up to 5,000 rows and rff_spectral() up to
#     100,000.
#   pca-scale [n]: rff_pca() by the randomized solver, top 10 components of
#     the scale part's rows (default 1e6) with 2,048 frequencies, two
#     threads: seconds and peak memory.
# Usage: Rscript bench/unsupervised.R scale|peers|pca|spectral|pca-scale [n] (after `make install`).
# Results are recorded in bench/RESULTS.md.

library(askrff)
args <- commandArgs(TRUE)
part <- if (length(args)) args[1] else "scale"

here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "common.R"))

# The adjusted Rand index of two partitions (Hubert and Arabie 1985).
adjusted_rand <- function(a, b) {
  pairs <- function(v) sum(choose(v, 2))
  tab <- table(a, b)
  expected <- pairs(rowSums(tab)) * pairs(colSums(tab)) / choose(length(a), 2)
  largest <- (pairs(rowSums(tab)) + pairs(colSums(tab))) / 2
  (pairs(tab) - expected) / (largest - expected)
}

# n rows of 50 columns around 10 centres, and each row's centre.
clustered_rows <- function(n) {
  set.seed(1)
  d <- 50
  centre <- sample(10, n, replace = TRUE)
  means <- matrix(stats::rnorm(10 * d, sd = 0.6), 10, d)
  list(x = means[centre, ] + matrix(stats::rnorm(n * d), n, d), centre = centre)
}

scale_part <- function(n) {
  rows <- clustered_rows(n)
  x <- rows$x
  centre <- rows$centre
  d <- ncol(x)
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

# rff_pca()'s top 10 components of the same rows by the randomized solver
# (the eigendecomposition's pass alone is n D^2).
pca_scale_part <- function(n) {
  x <- clustered_rows(n)$x
  seconds <- system.time(fit <- rff_pca(x, kernel = gaussian_kernel(sqrt(ncol(x))), n_features = 2048, rank = 10,
                                        solver = "randomized", seed = 1, n_threads = 2))[["elapsed"]]
  cat(sprintf("PCA, n = %s, d = %d, %d columns, top 10 (randomized): %.1f s, %.1f %% of the variance, peak memory %.2f GB\n",
              format(n, big.mark = ","), ncol(x), nrow(fit$rotation), seconds,
              100 * sum(fit$sdev^2) / fit$total_variance, peak_gb()))
}

# Two shapes of n points with their labels: rings of radii 1 and 3, and
# two interleaved half circles (moons).
shape <- function(name, n) {
  set.seed(5)
  label <- rep(1:2, length.out = n)
  angle <- if (name == "rings") stats::runif(n, 0, 2 * pi) else stats::runif(n, 0, pi)
  x <- if (name == "rings") {
    cbind(c(1, 3)[label] * cos(angle), c(1, 3)[label] * sin(angle))
  } else {
    cbind(ifelse(label == 1, cos(angle), 1 - cos(angle)), ifelse(label == 1, sin(angle), 0.5 - sin(angle)))
  }
  list(x = x + stats::rnorm(2 * n, sd = 0.1), label = label)
}

# Seconds and the R heap's peak in MB of `expr`.
measured <- function(expr) {
  invisible(gc(reset = TRUE))
  seconds <- system.time(value <- expr)[["elapsed"]]
  list(value = value, seconds = seconds, mb = sum(gc()[, 6L]))
}

spectral_part <- function() {
  sigma <- c(rings = 0.5, moons = 0.1)
  cat("| shape | n | specc s | specc MB | specc ARI | rff_spectral s | rff_spectral MB | rff_spectral ARI |\n")
  cat("|---|---|---|---|---|---|---|---|\n")
  for (name in names(sigma)) {
    for (n in c(1000, 2000, 5000, 1e5)) {
      d <- shape(name, n)
      ours <- measured(rff_spectral(d$x, 2, kernel = gaussian_kernel(sigma[[name]]), seed = 1, n_threads = 2))
      exact <- list(seconds = NA, mb = NA, ari = NA)
      if (n <= 5000) {
        exact <- measured(kernlab::specc(d$x, 2, kernel = "rbfdot", kpar = list(sigma = 1 / (2 * sigma[[name]]^2))))
        exact$ari <- adjusted_rand(exact$value@.Data, d$label)
      }
      cat(sprintf("| %s | %s | %.1f | %.0f | %.3f | %.2f | %.0f | %.3f |\n", name, format(n, big.mark = ",", scientific = FALSE),
                  exact$seconds, exact$mb, exact$ari, ours$seconds, ours$mb, adjusted_rand(ours$value$cluster, d$label)))
    }
  }
}

switch(part, scale = scale_part(if (length(args) > 1L) as.numeric(args[2]) else 1e6), peers = peers_part(),
       pca = pca_part(), spectral = spectral_part(),
       "pca-scale" = pca_scale_part(if (length(args) > 1L) as.numeric(args[2]) else 1e6))
