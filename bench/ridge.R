# Benchmark of rff_ridge() (issue: models at scale). Each case runs in a
# fresh R process so that its peak memory (VmHWM) is its own.
#   (a) n = 1e5, d = 10, 1024 frequencies: rff_ridge against FastKRR
#       (opt = "rff", lambda by REML, its fastest automatic choice) and bases
#       (ridge on b_rff, lambda by leave-one-out), time, peak memory, test RMSE;
#   (b) n = 1e6 streamed in 100 chunks: peak memory and time;
#   (c) (b) under future::plan(multisession, workers = 2).
# Usage: Rscript bench/ridge.R (after `make install`); the peers need
# install.packages(c("FastKRR", "bases")) and (c) needs future. Results are
# recorded in bench/RESULTS.md.

# The target y = f(x) + noise, with f smooth in the first four coordinates.
simulate <- function(n, d, seed) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * d), n, d)
  f <- sin(2 * x[, 1]) + x[, 2] * x[, 3] / 2 + cos(x[, 4])
  list(x = x, y = f + stats::rnorm(n, sd = 0.3), f = f)
}

peak_mb <- function() {
  status <- readLines("/proc/self/status")
  as.numeric(sub("[^0-9]*([0-9]+).*", "\\1", grep("^VmHWM", status, value = TRUE))) / 1024
}

d <- 10
sigma <- sqrt(d)  # about the median distance of standard normal points in d = 10
frequencies <- 1024

run_case <- function(case) {
  test <- simulate(10000, d, 2)
  rmse <- function(prediction) sqrt(mean((prediction - test$y)^2))
  if (case %in% c("askrff", "askrff_half", "fastkrr", "bases")) train <- simulate(1e5, d, 1)
  seconds <- system.time({
    if (case == "askrff" || case == "askrff_half") {
      library(askrff)
      map <- rff_map(gaussian_kernel(sigma), d, if (case == "askrff") frequencies else frequencies / 2, seed = 1)
      fit <- rff_ridge(train$x, train$y, map)
      error <- rmse(predict(fit, test$x))
    } else if (case == "fastkrr") {
      fit <- FastKRR::fastkrr(train$x, train$y, kernel = "gaussian", opt = "rff", m = frequencies, rho = 1 / (2 * sigma^2),
                              selection_method = "REML", verbose = FALSE)
      error <- rmse(predict(fit, test$x))
    } else if (case == "bases") {
      data <- data.frame(y = train$y, train$x)
      formula <- stats::as.formula(paste("y ~ bases::b_rff(", paste0("X", 1:d, collapse = ", "),
                                         ", p = ", frequencies, ", kernel = bases::k_rbf(", sigma, "))"))
      fit <- bases::ridge(formula, data)
      error <- rmse(predict(fit, data.frame(test$x)))
    } else {
      library(askrff)
      if (case == "stream_multisession") future::plan(future::multisession, workers = 2)
      map <- rff_map(gaussian_kernel(sigma), d, frequencies, seed = 1)
      chunk <- 0L
      source <- function() {
        chunk <<- chunk + 1L
        if (chunk > 100L) return(NULL)
        part <- simulate(1e4, d, 100 + chunk)
        list(x = part$x, y = part$y)
      }
      fit <- rff_ridge(source, map = map)
      error <- rmse(predict(fit, test$x))
    }
  })[["elapsed"]]
  cat(sprintf("%s\t%.1f\t%.0f\t%.4f\n", case, seconds, peak_mb(), error))
}

args <- commandArgs(trailingOnly = TRUE)
if (length(args) == 1L) {
  run_case(args)
} else {
  cat(sprintf("machine: %s cores; R %s; noise sd 0.3 (the best possible RMSE)\n", parallel::detectCores(), getRversion()))
  cat("case\tseconds\tpeak MB\ttest RMSE\n")
  script <- normalizePath(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
  cases <- c("askrff", "askrff_half")
  if (requireNamespace("FastKRR", quietly = TRUE)) cases <- c(cases, "fastkrr")
  if (requireNamespace("bases", quietly = TRUE)) cases <- c(cases, "bases")
  cases <- c(cases, "stream", if (requireNamespace("future", quietly = TRUE)) "stream_multisession")
  for (case in cases) {
    output <- system2(file.path(R.home("bin"), "Rscript"), c(script, case), stdout = TRUE, stderr = TRUE)
    cat(tail(output, 1L), "\n")
  }
}
