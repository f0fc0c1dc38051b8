# rff_ridge()'s selection: the evidence against the dense marginal
# likelihood, the choice of lambda and of the kernel's scales by each
# criterion, and the scales against a Gaussian-process draw's truth and
# against the exact Gaussian process's maximum likelihood.

# log of the integral over b0 of N(y; b0 1, s2 C), C = W^-1 + Z Z' / lambda,
# maximized over s2: the dense form of the evidence, with the integral over
# b0 taken numerically and s2 by optimize().
dense_evidence <- function(z, y, w, lambda) {
  n <- length(y)
  C <- diag(1 / w, n) + tcrossprod(z) / lambda
  Ci <- solve(C)
  at_s2 <- function(log_s2) {
    s2 <- exp(log_s2)
    log_det <- determinant(s2 * C)$modulus
    density <- function(b0) vapply(b0, function(b) {
      r <- y - b
      -0.5 * n * log(2 * pi) - 0.5 * log_det - 0.5 * drop(crossprod(r, Ci %*% r)) / s2
    }, 1)
    mode <- sum(Ci %*% y) / sum(Ci)
    spread <- sqrt(s2 / sum(Ci))
    top <- density(mode)
    log(stats::integrate(function(b) exp(density(b) - top), mode - 40 * spread, mode + 40 * spread,
                         rel.tol = 1e-12)$value) + top
  }
  stats::optimize(at_s2, c(-15, 10), maximum = TRUE, tol = 1e-10)$objective
}

test_that("the evidence is the dense marginal likelihood, weights and more columns than rows included", {
  set.seed(3)
  for (case in list(list(n = 40, features = 12), list(n = 25, features = 30))) {
    n <- case$n
    x <- matrix(rnorm(2 * n), n)
    y <- sin(x[, 1]) + rnorm(n, sd = 0.3)
    w <- runif(n, 0.5, 2)
    map <- rff_map(gaussian_kernel(1), 2, case$features, seed = 1)
    fit <- rff_ridge(x, y, map, weights = w, lambda = c(0.01, 0.3, 3), criterion = "evidence")
    direct <- vapply(fit$path$lambda, dense_evidence, 1, z = rff_features(map, x), y = y, w = w)
    # both exact: what is left is rounding of the solves and the quadrature
    expect_equal(fit$path$evidence, direct, tolerance = 1e-8)
    expect_identical(fit$lambda, fit$path$lambda[which.max(fit$path$evidence)])
    expect_identical(fit$criterion, "evidence")
  }
  # a row of zero weight has no say: the evidence of the other rows
  w[1] <- 0
  fit <- rff_ridge(x, y, map, weights = w, lambda = 0.3, criterion = "evidence")
  expect_equal(fit$path$evidence, dense_evidence(rff_features(map, x)[-1, ], y[-1], w[-1], 0.3), tolerance = 1e-8)
})

test_that("each criterion chooses its own optimum on the refined grid, whatever the chunks", {
  set.seed(4)
  x <- matrix(rnorm(600), 300)
  y <- sin(2 * x[, 1]) + rnorm(300, sd = 0.3)
  map <- rff_map(gaussian_kernel(1), 2, 40, seed = 2)
  for (criterion in c("gcv", "evidence")) {
    fit <- rff_ridge(x, y, map, criterion = criterion)
    value <- fit$path[[criterion]]
    best <- if (criterion == "gcv") which.min(value) else which.max(value)
    expect_identical(fit$lambda, fit$path$lambda[best])
    # the grid's 100 values and the refined one, between the grid's neighbours
    expect_identical(nrow(fit$path), 101L)
    expect_false(fit$lambda %in% fit$path$lambda[-best])
    expect_true(all(diff(fit$path$lambda) < 0))
    near <- fit$lambda * exp(c(-1, 1) * 0.01)
    again <- rff_ridge(x, y, map, lambda = c(near, fit$lambda), criterion = criterion)
    expect_identical(again$lambda, fit$lambda)
    chunks <- lapply(split(seq_len(300), rep(1:3, each = 100)), function(i) list(x = x[i, ], y = y[i]))
    expect_equal(rff_ridge(chunks, map = map, criterion = criterion)$lambda, fit$lambda, tolerance = 1e-12)
  }
  expect_output(print(fit), "chosen by evidence among 101 values")
})
