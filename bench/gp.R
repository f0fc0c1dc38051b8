# Benchmark of rff_ridge()'s kernel scale by evidence against an exact
# Gaussian process (issue: models as statisticians fit them): time and test
# RMSE at n = 2,000, 5,000 and 20,000 rows of y = f(x) + noise, d = 4.
#   askrff: Gaussian kernel, 512 frequencies (1,024 columns), the bandwidth
#     by scale = "optimize" and lambda by the evidence, one thread;
#   exact: the same model's marginal likelihood (flat prior on the
#     intercept, noise variance profiled) from a Cholesky factor of the n x n
#     matrix (R's chol(), with this R's BLAS), maximized over the length
#     scale and lambda by two rounds of a 3 x 3 design in their logs, each
#     moving to the stationary point of the quadratic fitted to it, started
#     at askrff's choice (so its time is a lower bound for a search from
#     scratch: optim() took 30 to 45 evaluations in the tests); then the
#     posterior mean at the test points. Run where one Cholesky takes less
#     than `max_cholesky` seconds (measured at n = 2,000 and extrapolated
#     as n^3).
# Usage: Rscript bench/gp.R (after `make install`). Results are recorded in
# bench/RESULTS.md.
library(askrff)

max_cholesky <- 120
d <- 4

simulate <- function(n, seed) {
  set.seed(seed)
  x <- matrix(stats::runif(n * d, -2, 2), n, d)
  f <- sin(2 * x[, 1]) + x[, 2] * x[, 3] / 2 + cos(x[, 4])
  list(x = x, y = f + stats::rnorm(n, sd = 0.3))
}

# The exact process's log marginal likelihood, and what predictions need.
exact_gp <- function(x, y, length_scale, lambda) {
  n <- length(y)
  C <- kernel_matrix(gaussian_kernel(length_scale), x, n_threads = 1) / lambda
  diag(C) <- diag(C) + 1
  R <- chol(C)
  a <- backsolve(R, cbind(y, 1), transpose = TRUE)
  ones <- sum(a[, 2]^2)
  b0 <- sum(a[, 1] * a[, 2]) / ones
  P <- sum(a[, 1]^2) - sum(a[, 1] * a[, 2])^2 / ones
  list(value = -(n - 1) / 2 * (log(2 * pi * P / (n - 1)) + 1) - sum(log(diag(R))) - 0.5 * log(ones),
       b0 = b0, alpha = backsolve(R, a[, 1] - b0 * a[, 2]) / lambda)
}

exact_optimum <- function(x, y, start) {
  center <- start
  for (half in list(c(0.2, 0.5), c(0.05, 0.15))) {
    design <- expand.grid(u = c(-1, 0, 1) * half[1], v = c(-1, 0, 1) * half[2])
    design$value <- mapply(function(u, v) exact_gp(x, y, exp(center[1] + u), exp(center[2] + v))$value,
                           design$u, design$v)
    q <- stats::coef(stats::lm(value ~ u + v + I(u^2) + I(v^2) + I(u * v), design))
    hessian <- matrix(c(2 * q[4], q[6], q[6], 2 * q[5]), 2)
    step <- drop(solve(hessian, -q[2:3]))
    # a quadratic that is not concave, or a step beyond the design: move to its best point
    if (any(eigen(hessian, symmetric = TRUE)$values >= 0) || any(abs(step) > 2 * half)) {
      step <- unlist(design[which.max(design$value), c("u", "v")])
    }
    center <- center + step
  }
  exp(center)
}

test <- simulate(5000, 99)
rmse <- function(prediction) sqrt(mean((prediction - test$y)^2))
cholesky_2000 <- NULL
rows <- list()
for (n in c(2000, 5000, 20000)) {
  train <- simulate(n, n)
  seconds <- system.time({
    fit <- rff_ridge(train$x, train$y, kernel = gaussian_kernel(median_bandwidth(train$x, seed = 1)), n_features = 512,
                     seed = 1, criterion = "evidence", scale = "optimize", n_threads = 1)
  })[["elapsed"]]
  row <- data.frame(n = n, askrff_s = seconds, askrff_rmse = rmse(predict(fit, test$x, n_threads = 1)),
                    askrff_scale = fit$map$kernel$params$sigma, askrff_lambda = fit$lambda,
                    passes = nrow(fit$selection$scales), exact_s = NA, exact_rmse = NA, exact_scale = NA,
                    exact_lambda = NA)
  if (is.null(cholesky_2000)) {
    cholesky_2000 <- system.time(exact_gp(train$x, train$y, 1, 1))[["elapsed"]]
  }
  if (cholesky_2000 * (n / 2000)^3 <= max_cholesky) {
    seconds <- system.time({
      chosen <- exact_optimum(train$x, train$y, log(c(row$askrff_scale, row$askrff_lambda)))
      gp <- exact_gp(train$x, train$y, chosen[1], chosen[2])
      prediction <- gp$b0 + drop(kernel_matrix(gaussian_kernel(chosen[1]), test$x, train$x, n_threads = 1) %*% gp$alpha)
    })[["elapsed"]]
    row[c("exact_s", "exact_rmse", "exact_scale", "exact_lambda")] <- list(seconds, rmse(prediction), chosen[1], chosen[2])
  } else {
    message(sprintf("n = %d: exact process skipped, one Cholesky would take about %.0f s", n,
                    cholesky_2000 * (n / 2000)^3))
  }
  print(row, digits = 4)
  rows[[length(rows) + 1L]] <- row
}
print(do.call(rbind, rows), digits = 4)
