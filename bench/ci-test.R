# The conditional independence test on random features: its time at scale,
# its size under conditional nulls, and pcalg's pc() with it on a random
# nonlinear DAG against pcalg's Gaussian test. Usage:
#   Rscript bench/ci-test.R [scale] [size] [pcalg]   (after `make install`;
# all three when none is named). Needs pcalg (for the last part).
# Results are recorded in bench/RESULTS.md.
library(askrff)
parts <- commandArgs(trailingOnly = TRUE)
if (length(parts) == 0L) parts <- c("scale", "size", "pcalg")

# x and y depend on z through s = z'beta, and not on each other given z
# (`smooth`: x = s, y = s^2 / 2; `wiggly`: sin(2 s), cos(2 s)); or not at
# all (`independent`).
simulate <- function(n, dz, kind) {
  z <- matrix(stats::rnorm(n * dz), n, dz)
  s <- drop(z %*% rep(1 / sqrt(dz), dz))
  noise <- function() stats::rnorm(n, sd = 0.5)
  switch(kind,
         independent = list(x = stats::rnorm(n), y = stats::rnorm(n), z = z),
         smooth = list(x = s + noise(), y = s^2 / 2 + noise(), z = z),
         wiggly = list(x = sin(2 * s) + noise(), y = cos(2 * s) + noise(), z = z))
}

if ("scale" %in% parts) {
  set.seed(1)
  for (dz in c(1, 5)) {
    data <- simulate(1e5, dz, "smooth")
    for (scale_z in c("search", "median")) {
      seconds <- system.time(result <- rff_ci_test(data$x, data$y, data$z, scale_z = scale_z, seed = 1,
                                                   n_threads = 2))[["elapsed"]]
      cat(sprintf("scale: n = 1e5, |z| = %d, scale_z = %s: %.2f s, p = %.3f\n", dz, scale_z, seconds, result$p.value))
    }
  }
}

if ("size" %in% parts) {
  # Under independence (x, y, z independent): 1,000 replicates for each
  # method; under conditional nulls that the regression must remove, 200
  # replicates of the default method for each scale_z. One thread.
  size_row <- function(kind, n, dz, replicates, ...) {
    settings <- list(...)  # (replicate()'s expression has a `...` of its own)
    set.seed(2)
    seconds <- system.time(p <- replicate(replicates, {
      data <- simulate(n, dz, kind)
      do.call(rff_ci_test, c(list(data$x, data$y, data$z, n_features_z = min(100, n / 8), n_threads = 1),
                             settings))$p.value
    }))[["elapsed"]]
    cat(sprintf("size: %-11s n = %4d |z| = %d %-30s %4d replicates: rate %.3f (s.e. %.3f)  KS %.3f  %.2f s a test\n",
                kind, n, dz, paste(names(settings), unlist(settings), sep = " = ", collapse = ", "), replicates,
                mean(p < 0.05), sqrt(0.05 * 0.95 / replicates), suppressWarnings(stats::ks.test(p, "punif")$statistic),
                seconds / replicates))
  }
  for (n in c(200, 2000)) for (dz in c(1, 5)) for (method in c("chi2_mixture", "gamma")) {
    size_row("independent", n, dz, 1000, method = method)
  }
  for (kind in c("smooth", "wiggly")) for (n in c(200, 2000)) for (dz in c(1, 5)) for (scale_z in c("search", "median")) {
    size_row(kind, n, dz, 200, scale_z = scale_z)
  }
}

if ("pcalg" %in% parts) {
  stopifnot(requireNamespace("pcalg", quietly = TRUE))
  set.seed(3)
  p <- 20
  n <- 10000
  dag <- pcalg::randomDAG(p, prob = 2 / (p - 1))
  adjacency <- methods::as(dag, "matrix") != 0   # adjacency[i, j]: an edge i -> j (nodes in causal order)
  functions <- list(sin, cos, function(v) v^2 / 2, tanh)
  data <- matrix(0, n, p, dimnames = list(NULL, paste0("v", seq_len(p))))
  for (j in seq_len(p)) {
    value <- stats::rnorm(n)
    for (i in which(adjacency[, j])) value <- value + functions[[(i + j) %% 4 + 1]](data[, i])
    data[, j] <- value / stats::sd(value)
  }
  truth <- pcalg::dag2cpdag(dag)
  labels <- colnames(data)
  run <- function(test, suff) {
    seconds <- system.time(fit <- pcalg::pc(suff, indepTest = test, alpha = 0.01, labels = labels))[["elapsed"]]
    estimated <- fit@graph
    graph::nodes(estimated) <- graph::nodes(truth)
    c(seconds = seconds, shd = pcalg::shd(truth, estimated))
  }
  gaussian <- run(pcalg::gaussCItest, list(C = stats::cor(data), n = n))
  cat(sprintf("pcalg: %d edges; Gaussian test: %.1f s, SHD %d\n", sum(adjacency), gaussian[1], gaussian[2]))
  for (scale_z in c("median", "search")) {
    kernel <- run(rff_ci_test_pcalg, rff_ci_suff_stat(data, scale_z = scale_z, n_threads = 2))
    cat(sprintf("pcalg: rff_ci_test_pcalg, scale_z = %s: %.1f s, SHD %d\n", scale_z, kernel[1], kernel[2]))
  }
}
