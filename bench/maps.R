# Benchmark of map set-up: rff_map() builds the kernel's measure once and
# draws the map in one core call. Usage: Rscript bench/maps.R (after
# `make install`); results are recorded in bench/RESULTS.md.
library(askrff)

reps <- 15L

# Median over `reps` runs of the time of one call, each run timing a batch of
# `batch` calls so that millisecond calls are resolved to a few microseconds.
median_ms <- function(expr_fn, reps, batch = 1L) {
  expr_fn()  # warm up: the first call loads code and fills caches
  1000 * stats::median(vapply(seq_len(reps), function(i) {
    system.time(for (j in seq_len(batch)) expr_fn())[["elapsed"]] / batch
  }, numeric(1)))
}

cases <- list(
  list(label = "Gaussian, d = 16, 64 frequencies", target = 2,
       run = function() rff_map(gaussian_kernel(1), 16, 64, seed = 1)),
  list(label = "Shift-Gaussian, d = 16, 8 frequencies", target = 30,
       run = function() rff_map(shift_gaussian_kernel(2, 2 / 16), 16, 8, seed = 1)),
  list(label = "Shift-Gaussian, d = 16, 8 frequencies, equal allocation", target = NA,
       run = function() rff_map(shift_gaussian_kernel(2, 2 / 16), 16, 8, allocation = "equal", seed = 1)),
  list(label = "Delta-Gaussian, d = 16, 64 frequencies", target = NA,
       run = function() rff_map(delta_gaussian_kernel(), 16, 64, seed = 1))
)

cat(sprintf("rff_map set-up, median of %d runs of 50 calls after one warm-up\n", reps))
for (case in cases) {
  ms <- median_ms(case$run, reps, batch = 50L)
  verdict <- if (is.na(case$target)) "" else
    sprintf("  (target <= %g ms: %s)", case$target, if (ms <= case$target) "met" else "NOT met")
  cat(sprintf("  %-58s %8.2f ms%s\n", case$label, ms, verdict))
}

# Structured (SORF) against Haar orthogonal blocks: sampling time at d = 1024
# with 8192 frequencies, and the error of each at n_features = d on Gaussian
# data. A structured map is an ordinary frequency matrix, so its features
# cost what a dense map's do; that is timed too.
d <- 1024; n_freq <- 8192
sampling <- vapply(c("orthogonal", "structured"), function(method) {
  median_ms(function() rff_map(gaussian_kernel(1), d, n_freq, method, seed = 1), 3L)
}, 0)
cat(sprintf("\nsampling %d frequencies at d = %d: orthogonal %.0f ms, structured %.0f ms (%.1fx faster; target >= 10x)\n",
            n_freq, d, sampling[["orthogonal"]], sampling[["structured"]], sampling[["orthogonal"]] / sampling[["structured"]]))
set.seed(2)
x <- matrix(stats::rnorm(500 * d), 500) / sqrt(d)
K <- kernel_matrix(gaussian_kernel(1), x)
error <- vapply(c("orthogonal", "structured"), function(method) {
  mean(vapply(1:5, function(r) relative_error(K, rff_kernel_matrix(rff_map(gaussian_kernel(1), d, d, method, seed = r), x)), 0))
}, 0)
cat(sprintf("relative error at n_features = d (mean of 5 maps, 500 points): orthogonal %.4f, structured %.4f\n",
            error[["orthogonal"]], error[["structured"]]))
x_big <- matrix(stats::rnorm(20000 * 64) / 8, 20000)
features <- vapply(c("orthogonal", "structured"), function(method) {
  map <- rff_map(gaussian_kernel(1), 64, 1024, method, seed = 1)
  median_ms(function() rff_features(map, x_big, n_threads = 2L), 5L)
}, 0)
cat(sprintf("rff_features 20000 x 64 -> 2048 columns: orthogonal map %.0f ms, structured map %.0f ms\n",
            features[["orthogonal"]], features[["structured"]]))

# Features of the dot-product maps, which the core computes (Random
# Maclaurin's products of Rademacher projections; Tensor Sketch's count
# sketches convolved through discrete Fourier transforms of each block's
# length): 5,000 points on the sphere in d = 20, 4,000 columns of the
# polynomial kernel of degree 8.
sphere <- normalize_rows(matrix(stats::rnorm(5000 * 20), 5000))
dot_product <- vapply(list(maclaurin = maclaurin_map, tensor_sketch = tensor_sketch_map), function(make) {
  map <- make(poly_sphere_kernel(2, 8), 20, 4000, seed = 1)
  vapply(1:2, function(threads) median_ms(function() rff_features(map, sphere, n_threads = threads), 3L), 0)
}, double(2))
cat(sprintf("rff_features 5000 x 20 -> 4000 columns, poly_sphere_kernel(2, 8): Random Maclaurin %.0f / %.0f ms, Tensor Sketch %.0f / %.0f ms (1 / 2 threads)\n",
            dot_product[1, "maclaurin"], dot_product[2, "maclaurin"], dot_product[1, "tensor_sketch"],
            dot_product[2, "tensor_sketch"]))
