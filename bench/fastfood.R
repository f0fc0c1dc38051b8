# Fastfood against random Fourier features with stored frequencies: the time
# of rff_features() for 2,000 rows at d = 64, 512 and 2,048 with 2,048
# frequencies (4,096 feature columns), Gaussian kernel, one thread, median of
# three runs; and the map's size in memory.
# Usage: Rscript bench/fastfood.R (after `make install`). Results are recorded
# in bench/RESULTS.md.

library(askrff)
median_time <- function(f) stats::median(replicate(3, system.time(f())[["elapsed"]]))
rows <- lapply(c(64L, 512L, 2048L), function(d) {
  set.seed(1)
  x <- matrix(stats::rnorm(2000 * d), 2000) / sqrt(d)
  kernel <- gaussian_kernel(1)
  rff <- rff_map(kernel, d, 2048, seed = 1)
  fastfood <- fastfood_map(kernel, d, 2048, seed = 1)
  data.frame(d = d, rff_seconds = median_time(function() rff_features(rff, x, n_threads = 1)),
             fastfood_seconds = median_time(function() rff_features(fastfood, x, n_threads = 1)),
             rff_map_mb = as.numeric(utils::object.size(rff)) / 2^20,
             fastfood_map_mb = as.numeric(utils::object.size(fastfood)) / 2^20)
})
print(do.call(rbind, rows), row.names = FALSE, digits = 3)
