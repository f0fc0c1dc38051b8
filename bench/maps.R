# Benchmark of map set-up: rff_map() builds the kernel's measure once and
# draws the map in one core call. Usage: Rscript bench/maps.R (after
# `make install`); results are recorded in bench/RESULTS.md.
library(askrff)

reps <- 50L

median_ms <- function(expr_fn, reps) {
  expr_fn()  # warm up: the first call loads code and fills caches
  1000 * stats::median(vapply(seq_len(reps), function(i) system.time(expr_fn())[["elapsed"]], numeric(1)))
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

cat(sprintf("rff_map set-up, median of %d runs after one warm-up\n", reps))
for (case in cases) {
  ms <- median_ms(case$run, reps)
  verdict <- if (is.na(case$target)) "" else
    sprintf("  (target <= %g ms: %s)", case$target, if (ms <= case$target) "met" else "NOT met")
  cat(sprintf("  %-58s %8.2f ms%s\n", case$label, ms, verdict))
}
