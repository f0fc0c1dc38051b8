# Benchmark of Nystrom features and ridge fits, which the core computes a
# block of rows at a time (K(x, Z) by the kernel's Gram blocks, then the
# product with the weights), against random Fourier features of the same
# Gaussian kernel: 24,000 x 6 standard normal rows, 1,024 landmarks (k-means++),
# and maps of 512 and 1,024 frequencies (1,024 and 2,048 feature columns,
# since each frequency gives a cosine and a sine). Times are medians of
# `reps` runs on 1 and 2 threads; the Nystrom map is made once, outside the
# timings. Usage: Rscript bench/nystrom.R (after `make install`); results are
# recorded in bench/RESULTS.md.
library(askrff)

reps <- 3L
n <- 24000L
d <- 6L
landmarks <- 1024L
sigma <- sqrt(d)  # about the median distance of standard normal points in d = 6

set.seed(1)
x <- matrix(stats::rnorm(n * d), n, d)
y <- sin(2 * x[, 1]) + x[, 2] * x[, 3] / 2 + stats::rnorm(n, sd = 0.3)
kernel <- gaussian_kernel(sigma)
made <- system.time(nystrom <- nystrom_map(kernel, nystrom_landmarks(x, landmarks, "kmeans++", seed = 1)))[["elapsed"]]
maps <- list(nystrom = nystrom, rff_512 = rff_map(kernel, d, 512, seed = 1), rff_1024 = rff_map(kernel, d, 1024, seed = 1))

median_seconds <- function(run) {
  stats::median(vapply(seq_len(reps), function(i) system.time(run())[["elapsed"]], 0))
}

cat(sprintf("machine: %s cores; R %s; load average %s\n", parallel::detectCores(), getRversion(),
            paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " ")))
cat(sprintf("Nystrom map: %d landmarks, rank %d, made in %.2f s (not timed below)\n", landmarks, nystrom$rank, made))
cat(sprintf("n = %d, d = %d, Gaussian kernel sigma = %.3f; median of %d runs\n\n", n, d, sigma, reps))
times <- list()
for (threads in c(1L, 2L)) {
  for (name in names(maps)) {
    map <- maps[[name]]
    features <- median_seconds(function() rff_features(map, x, n_threads = threads))
    ridge <- median_seconds(function() rff_ridge(x, y, map, n_threads = threads))
    times[[sprintf("%s_%d", name, threads)]] <- c(features = features, ridge = ridge)
    cat(sprintf("%-9s %4d columns, %d thread%s: rff_features %6.2f s, rff_ridge %6.2f s\n", name,
                n_feature_columns(map)[["left"]], threads, if (threads == 1L) " " else "s", features, ridge))
  }
}
cat("\nNystrom against random features (time ratio; target <= 1.5):\n")
for (threads in c(1L, 2L)) {
  for (rff in c("rff_512", "rff_1024")) {
    ratio <- times[[sprintf("nystrom_%d", threads)]] / times[[sprintf("%s_%d", rff, threads)]]
    cat(sprintf("  %d thread%s, against %-8s: features %5.2fx, ridge %5.2fx\n", threads, if (threads == 1L) " " else "s",
                rff, ratio[["features"]], ratio[["ridge"]]))
  }
}
speedup <- times$nystrom_1 / times$nystrom_2
cat(sprintf("Nystrom, 2 threads against 1 (target >= 1.6): features %.2fx, ridge %.2fx\n", speedup[["features"]],
            speedup[["ridge"]]))
