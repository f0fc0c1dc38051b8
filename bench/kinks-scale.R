# The losses with kinks at scale: an L1-loss SVM (family = "hinge") and a
# median regression (family = "quantile") on 1,000,000 rows of 20 columns
# with 2,048 feature columns (1,024 frequencies of a Gaussian kernel), on
# two threads, each at one given lambda (a cross-validated path fits 25
# lambdas on 6 sets of rows in every pass, some 150 times the work of a
# pass here). Prints each fit's seconds, passes, the final fit's smoothing
# widths and the peak memory of the process (VmHWM, Linux). Usage:
# Rscript bench/kinks-scale.R [rows] [given|cv] [hinge|quantile] (after
# installing askrff; 1e6 rows by default, about 160 MB of data; `cv`
# chooses lambda by the engine's 5-fold path, on its sample of the rows,
# instead of the given one; both families by default). Results are
# recorded in bench/RESULTS.md.

library(askrff)
args <- commandArgs(TRUE)
n <- if (length(args) > 0L) as.numeric(args[1L]) else 1e6
d <- 20L

peak_memory <- function() {
  status <- readLines("/proc/self/status")
  sub("^VmHWM:[[:space:]]*", "", grep("^VmHWM", status, value = TRUE))
}

set.seed(1)
x <- matrix(stats::rnorm(n * d), n, d)
signal <- sin(x[, 1]) + x[, 2] * x[, 3] / 2 + rowSums(x[, 4:d]) / 8
classes <- signal + stats::rnorm(n, sd = 0.5) > 0
values <- signal + (1 + abs(x[, 5])) * stats::rnorm(n, sd = 0.5)
map <- rff_map(gaussian_kernel(sqrt(d)), d, 1024, seed = 1)
# a penalty of one per thousand rows: sum w loss + lambda ||b||^2 keeps the
# penalty's share of the criterion as the rows grow
lambda <- n / 1000
if (length(args) > 1L && args[2L] == "cv") lambda <- NULL
families <- if (length(args) > 2L) args[-(1:2)] else c("hinge", "quantile")

report <- function(name, seconds, fit) {
  cat(sprintf("%s: %.1f s, %d passes, lambda %.3g (path on %s rows), converged %s; smoothing widths (passes): %s\n",
              name, seconds, fit$passes, fit$lambda, if (is.null(fit$path_rows)) "all" else fit$path_rows,
              fit$path$converged[fit$path$lambda == fit$lambda],
              paste(sprintf("%.2g (%d)", fit$smoothing$width, fit$smoothing$passes), collapse = ", ")))
}

cat(sprintf("%s rows x %d columns, %d feature columns, 2 threads, lambda = %s\n",
            format(n, big.mark = ",", scientific = FALSE), d, n_feature_columns(map),
            if (is.null(lambda)) "by 5-fold cross-validation" else format(lambda)))
if ("hinge" %in% families) {
  svm <- NULL
  report("hinge (L1-loss SVM)", system.time(svm <- rff_glm(x, classes, map, family = "hinge", lambda = lambda,
                                                           n_threads = 2))[["elapsed"]], svm)
}
if ("quantile" %in% families) {
  median_fit <- NULL
  report("quantile (tau = 0.5)", system.time(median_fit <- rff_glm(x, values, map, family = "quantile",
                                                                   lambda = lambda, n_threads = 2))[["elapsed"]],
         median_fit)
}
cat("peak memory of the process:", peak_memory(), "\n")
