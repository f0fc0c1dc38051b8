# Benchmark of the choice of lambda in rff_ridge() (issue: models as
# statisticians fit them): on four data sets, simulated and real, from 1,000
# to 100,000 rows and up to 4,096 feature columns, the test RMSE of lambda
# chosen by each criterion of rff_ridge() (evidence, exact leave-one-out, and
# GCV on the leave-one-out fit's path), against
#   the oracle: the best lambda of 400 log-spaced over the path's range
#     (1e-11 to 10 times the largest eigenvalue of Z'Z), from the same
#     eigendecomposition;
#   scikit-learn's RidgeCV on the same feature matrices (written to a
#     temporary file), with 61 alphas log-spaced from 1e-8 to 1e4 and its
#     efficient leave-one-out, one thread, on OpenBLAS when it is installed
#     (Debian's libopenblas0-pthread; the reference BLAS otherwise).
# Each case uses a Gaussian kernel with the median-distance bandwidth of the
# standardized predictors and one map; askrff runs on one thread.
# Usage: Rscript bench/ridge-lambda.R [case ...] (after `make install`);
# needs python3 with scikit-learn (Debian: python3-sklearn), and ggplot2 for
# the diamonds. Results are recorded in bench/RESULTS.md.
library(askrff)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "common.R"))

python <- Sys.getenv("ASKRFF_PYTHON", "/usr/bin/python3")

# y = f(x) + noise with f smooth in the first four coordinates of d
# standard normal ones.
simulate <- function(n, d, seed, noise = 0.3) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * d), n, d)
  f <- sin(2 * x[, 1]) + x[, 2] * x[, 3] / 2 + cos(x[, 4])
  list(x = x, y = f + stats::rnorm(n, sd = noise))
}

split_rows <- function(x, y, test_share, seed) {
  set.seed(seed)
  test <- sample.int(nrow(x), round(test_share * nrow(x)))
  list(x = x[-test, , drop = FALSE], y = y[-test], test_x = x[test, , drop = FALSE], test_y = y[test])
}

cases <- list(
  quakes = function() {
    # magnitude of 1,000 earthquakes near Fiji from location, depth and the
    # number of stations that reported them; 800 rows to fit 4,096 columns
    q <- datasets::quakes
    c(split_rows(as.matrix(q[, c("lat", "long", "depth", "stations")]), q$mag, 0.2, 1), frequencies = 2048)
  },
  simulated_10k = function() {
    # the issue's case: 10,000 rows, d = 8, 2,048 columns
    train <- simulate(10000, 8, 1)
    test <- simulate(10000, 8, 2)
    list(x = train$x, y = train$y, test_x = test$x, test_y = test$y, frequencies = 1024)
  },
  diamonds = function() {
    # log price of 53,940 diamonds from carat, cut, colour, clarity and
    # the cut's dimensions (ordered factors as their ranks)
    if (!requireNamespace("ggplot2", quietly = TRUE)) return(NULL)
    g <- as.data.frame(ggplot2::diamonds)
    x <- cbind(log_carat = log(g$carat), cut = as.integer(g$cut), color = as.integer(g$color),
               clarity = as.integer(g$clarity), depth = g$depth, table = g$table)
    c(split_rows(x, log(g$price), 0.2, 1), frequencies = 512)
  },
  simulated_100k = function() {
    train <- simulate(1e5, 10, 3)
    test <- simulate(10000, 10, 4)
    list(x = train$x, y = train$y, test_x = test$x, test_y = test$y, frequencies = 256)
  }
)

# Test predictions at every lambda from one fit: with the fit's eigenvectors
# V and eigenvalues s, c = (s + lambda*) V'b* at the chosen lambda*, and
# b(lambda) = V (c / (s + lambda)); the intercept keeps the weighted means.
path_rmse <- function(fit, test_z, test_y, lambdas) {
  p <- fit$posterior
  b <- fit$coefficients[, 1L]
  c <- (p$values + fit$lambda) * drop(crossprod(p$vectors, b))
  y_mean <- fit$intercept[[1L]] + sum(p$z_mean * b)
  projected <- sweep(test_z, 2L, p$z_mean) %*% p$vectors
  vapply(lambdas, function(l) sqrt(mean((drop(projected %*% (c / (p$values + l))) + y_mean - test_y)^2)), 1)
}

sklearn_ridgecv <- function(z, y, test_z, test_y) {
  dir <- tempfile("ridgecv")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  writeBin(as.vector(z), file.path(dir, "z"))
  writeBin(as.vector(test_z), file.path(dir, "test_z"))
  writeBin(y, file.path(dir, "y"))
  writeBin(test_y, file.path(dir, "test_y"))
  script <- file.path(dir, "ridgecv.py")
  writeLines(c(
    "import sys, time, numpy as np",
    "from sklearn.linear_model import RidgeCV",
    "d, n, m, p = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])",
    "z = np.fromfile(d + '/z').reshape((p, n)).T",
    "tz = np.fromfile(d + '/test_z').reshape((p, m)).T",
    "y = np.fromfile(d + '/y'); ty = np.fromfile(d + '/test_y')",
    "t = time.time()",
    "fit = RidgeCV(alphas=np.logspace(-8, 4, 61)).fit(z, y)",
    "t = time.time() - t",
    "print(np.sqrt(np.mean((fit.predict(tz) - ty) ** 2)), fit.alpha_, t)"), script)
  env <- if (file.exists(file.path(openblas_dir, "libblas.so.3"))) openblas_env(1L) else
    c("OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1", "MKL_NUM_THREADS=1")
  out <- system2(python, c(script, dir, nrow(z), nrow(test_z), ncol(z)), stdout = TRUE, env = env)
  values <- as.numeric(strsplit(utils::tail(out, 1L), " ")[[1L]])
  list(rmse = values[1L], alpha = values[2L], seconds = values[3L])
}

run_case <- function(name) {
  data <- cases[[name]]()
  if (is.null(data)) return(NULL)
  scaling <- list(center = colMeans(data$x), scale = apply(data$x, 2L, stats::sd))
  x <- sweep(sweep(data$x, 2L, scaling$center), 2L, scaling$scale, "/")
  test_x <- sweep(sweep(data$test_x, 2L, scaling$center), 2L, scaling$scale, "/")
  kernel <- gaussian_kernel(median_bandwidth(x, seed = 1))
  map <- rff_map(kernel, ncol(x), data$frequencies, seed = 1)
  seconds <- system.time(fit <- rff_ridge(x, data$y, map, criterion = "evidence", n_threads = 1))[["elapsed"]]
  loo_seconds <- system.time(loo <- rff_ridge(x, data$y, map, criterion = "loo", n_threads = 1))[["elapsed"]]
  test_z <- rff_features(map, test_x, n_threads = 1)
  gcv_lambda <- loo$path$lambda[which.min(loo$path$gcv)]
  top <- fit$posterior$values[1L]
  grid <- top * 10^seq(1, -11, length.out = 400)
  oracle <- path_rmse(fit, test_z, data$test_y, grid)
  chosen <- path_rmse(fit, test_z, data$test_y, c(fit$lambda, loo$lambda, gcv_lambda))
  sk <- sklearn_ridgecv(rff_features(map, x, n_threads = 1), data$y, test_z, data$test_y)
  data.frame(case = name, rows = nrow(x) + nrow(test_x), train = nrow(x), columns = ncol(test_z),
             evidence = chosen[1L], loo = chosen[2L], gcv = chosen[3L], oracle = min(oracle), sklearn = sk$rmse,
             lambda_evidence = fit$lambda, lambda_loo = loo$lambda, lambda_gcv = gcv_lambda,
             lambda_oracle = grid[which.min(oracle)], alpha_sklearn = sk$alpha, evidence_s = seconds,
             loo_s = loo_seconds, sklearn_s = sk$seconds)
}

chosen_cases <- commandArgs(trailingOnly = TRUE)
if (length(chosen_cases) == 0L) chosen_cases <- names(cases)
results <- do.call(rbind, lapply(chosen_cases, function(name) {
  row <- run_case(name)
  print(row, digits = 4)
  row
}))
for (criterion in c("evidence", "loo", "gcv")) {
  results[[paste0(criterion, "_vs_oracle")]] <- results[[criterion]] / results$oracle
  results[[paste0(criterion, "_vs_sklearn")]] <- results[[criterion]] / results$sklearn
}
print(results, digits = 4)
