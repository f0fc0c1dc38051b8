# Benchmark of semi-quantized products: packed one-bit features against the
# same products from data and from stored double features, timed in the same
# run. Usage: Rscript bench/periodic.R (after `make install`); results are
# recorded in bench/RESULTS.md.
library(askrff)

d <- 32; m <- 1024; threads <- 2L; reps <- 5L
set.seed(1)
map <- rpf_map(gaussian_kernel(4), d, m, seed = 1)
points <- function(n) matrix(stats::rnorm(n * d), n, d)

median_time <- function(expr_fn) {
  stats::median(vapply(seq_len(reps), function(i) {
    gc()
    system.time(expr_fn())[["elapsed"]]
  }, numeric(1)))
}

compare <- function(title, x, y, left, right) {
  packed_x <- if (left == "square") rpf_pack(rpf_features(map, x, "square")) else x
  packed_y <- if (right == "square") rpf_pack(rpf_features(map, y, "square")) else y
  zx <- rpf_features(map, x, left)
  zy <- rpf_features(map, y, right)
  scale <- if (left == right) 1 else pi / 2
  t_packed <- median_time(function() rpf_kernel_matrix(map, packed_x, packed_y, left, right, n_threads = threads))
  t_data <- median_time(function() rpf_kernel_matrix(map, x, y, left, right, n_threads = threads))
  t_doubles <- median_time(function() scale * tcrossprod(zx, zy))
  stored <- function(z, side) if (side == "square") length(rpf_pack(z)$bits) else 8 * length(z)
  cat(sprintf("\n%s: %d x %d, m = %d, %s x %s, %d threads\n", title, nrow(x), nrow(y), m, left, right, threads))
  cat(sprintf("  packed bits:            %.3f s\n", t_packed))
  cat(sprintf("  from data:              %.3f s  -> packed is %.1fx faster\n", t_data, t_data / t_packed))
  cat(sprintf("  stored doubles, R BLAS: %.3f s  -> packed is %.1fx faster\n", t_doubles, t_doubles / t_packed))
  cat(sprintf("  stored bytes, packed side(s): %s instead of %s\n",
              format(structure(stored(zx, left) + if (right == "square") stored(zy, right) else 0, class = "object_size"), units = "auto"),
              format(structure(8 * length(zx) + if (right == "square") 8 * length(zy) else 0, class = "object_size"), units = "auto")))
  K <- rpf_kernel_matrix(map, packed_x, packed_y, left, right, n_threads = threads)
  cat(sprintf("  max |packed - doubles|: %.2e\n", max(abs(K - scale * tcrossprod(zx, zy)))))
}

cat(sprintf("machine: %s cores; R %s; BLAS %s\n", parallel::detectCores(), getRversion(),
            extSoftVersion()[["BLAS"]]))
compare("quantized queries against a full-precision dataset (003 Fig. 1a)", points(2000), points(20000), "square", "cos")
compare("full-precision queries against a quantized dataset (003 Fig. 1b)", points(200), points(50000), "cos", "square")
compare("both quantized", points(5000), points(5000), "square", "square")
