# The fixed cost of rff_glm() on small data: a multinomial fit (3 classes)
# with its default 5-fold cross-validated lambda on 300 rows of 4
# predictors, at 128 and 256 frequencies (256 and 512 feature columns),
# one thread, median of five runs. The rows are few, so the time is the
# solver's own: its eigendecompositions and its bookkeeping between passes.
# Usage: Rscript bench/glm-small.R (after `make install`). Results are
# recorded in bench/RESULTS.md.

library(askrff)
set.seed(1)
n <- 300
x <- matrix(stats::rnorm(n * 4), n, 4)
y <- factor(cut(x[, 1] + x[, 2] * x[, 3] + stats::rnorm(n, sd = 0.5), c(-Inf, -0.5, 0.5, Inf), labels = c("a", "b", "c")))
kernel <- gaussian_kernel(median_bandwidth(x))
rows <- lapply(c(128, 256), function(frequencies) {
  fit <- NULL
  times <- replicate(5, system.time(fit <<- rff_glm(x, y, family = "multinomial", kernel = kernel,
                                                    n_features = frequencies, seed = 1, n_threads = 1))[["elapsed"]])
  data.frame(frequencies = frequencies, columns = 2 * frequencies, seconds = stats::median(times), passes = fit$passes)
})
print(do.call(rbind, rows), row.names = FALSE)
