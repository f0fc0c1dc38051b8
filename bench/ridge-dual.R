# Benchmark of rff_ridge()'s dual form against its primal form on data in
# memory with fewer rows than feature columns: n = 500, 1,000 and 2,000
# rows, 1,024 frequencies (2,048 columns), lambda by leave-one-out (the
# default), one thread; a fit with the kernel's scale given, and one with
# the scale searched (scale = "optimize": candidates on 64 frequencies,
# then refined on all 1,024, where every candidate has fewer rows than
# columns). The primal is forced by the internal option
# options(askrff.ridge_form = "primal"). One run each, after a warm-up.
# Usage: Rscript bench/ridge-dual.R (after `make install`). Results are
# recorded in bench/RESULTS.md.
library(askrff)

d <- 10
sigma <- sqrt(d)  # about the median distance of standard normal points in d = 10
frequencies <- 1024

simulate <- function(n, seed) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * d), n, d)
  list(x = x, y = sin(2 * x[, 1]) + x[, 2] * x[, 3] / 2 + cos(x[, 4]) + stats::rnorm(n, sd = 0.3))
}

# The fit in `form` and its time.
timed_fit <- function(form, fit_data) {
  old <- options(askrff.ridge_form = form)
  on.exit(options(old))
  fit <- NULL
  seconds <- system.time(fit <- fit_data())[["elapsed"]]
  list(fit = fit, seconds = seconds)
}

load_average <- function() paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " ")
cat(sprintf("machine: %d cores; R %s; SIMD path %s\n", parallel::detectCores(), getRversion(), askrff_cpu()$path))
cat(sprintf("load average at the start: %s\n\n", load_average()))

map <- rff_map(gaussian_kernel(sigma), d, frequencies, seed = 1)
warm <- simulate(200, 99)
invisible(rff_ridge(warm$x, warm$y, map, n_threads = 1))

test <- simulate(2000, 2)
rows <- list()
for (n in c(500, 1000, 2000)) {
  train <- simulate(n, 1)
  cases <- list(
    `scale given` = function() rff_ridge(train$x, train$y, map, n_threads = 1),
    `scale searched` = function() {
      rff_ridge(train$x, train$y, kernel = gaussian_kernel(sigma), n_features = frequencies, scale = "optimize",
                seed = 1, n_threads = 1)
    })
  for (case in names(cases)) {
    primal <- timed_fit("primal", cases[[case]])
    dual <- timed_fit("auto", cases[[case]])
    stopifnot(identical(dual$fit$form, "dual"), identical(primal$fit$form, "primal"))
    gap <- max(abs(predict(dual$fit, test$x) - predict(primal$fit, test$x)))
    rows[[length(rows) + 1L]] <- data.frame(
      n = n, case = case, primal = primal$seconds, dual = dual$seconds, ratio = primal$seconds / dual$seconds,
      candidates = if (is.null(dual$fit$selection)) NA else nrow(dual$fit$selection$scales),
      prediction_gap = gap)
    print(rows[[length(rows)]], row.names = FALSE)
  }
}
results <- do.call(rbind, rows)
cat(sprintf("\nload average at the end: %s\n\n", load_average()))
cat("| n | case | primal | dual | primal / dual | candidates | max prediction gap |\n|---|---|---|---|---|---|---|\n")
for (i in seq_len(nrow(results))) {
  r <- results[i, ]
  cat(sprintf("| %s | %s | %.2f s | %.2f s | %.1fx | %s | %.1e |\n", format(r$n, big.mark = ","), r$case, r$primal,
              r$dual, r$ratio, if (is.na(r$candidates)) "" else r$candidates, r$prediction_gap))
}
