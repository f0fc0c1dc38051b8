# rff_effects() against the exact kernel ridge's derivatives (a Cholesky
# of the n x n matrix) and KRLS::krls()'s, on 1,000 rows of a known smooth
# function, at the same kernel and penalty.

exact_case <- function() {
  set.seed(1)
  n <- 1000
  x <- scale(matrix(stats::runif(2 * n, -2, 2), n))
  list(x = x, y = sin(x[, 1]) + x[, 2]^2 / 2 + stats::rnorm(n, sd = 0.2), sigma = 1, lambda = 1)
}

test_that("the derivatives agree with the exact kernel ridge's, and the average within a standard error", {
  skip_on_cran()
  case <- exact_case()
  x <- case$x
  n <- nrow(x)
  fit <- rff_ridge(x, case$y, kernel = gaussian_kernel(case$sigma), n_features = 1024, lambda = case$lambda, seed = 1)
  ours <- rff_effects(fit, x, variables = 1)
  # the exact fit with an unpenalized intercept is kernel ridge with the
  # centred kernel: alpha = (HKH + lambda I)^-1 (y - mean(y)); as
  # 1'alpha = 0 its derivative is sum_j alpha_j dk(x, x_j)/dx, and the
  # Gaussian's is -k(x, x_j) (x - x_j) / sigma^2
  k <- exp(-as.matrix(stats::dist(x))^2 / (2 * case$sigma^2))
  centring <- diag(n) - 1 / n
  alpha <- drop(chol2inv(chol(centring %*% k %*% centring + case$lambda * diag(n))) %*% (case$y - mean(case$y)))
  exact <- drop((-k * outer(x[, 1], x[, 1], "-") / case$sigma^2) %*% alpha)
  # 1,024 frequencies: the derivatives' Monte Carlo error is about 3 % of
  # their spread here (correlation 0.9995 for this seed; 0.99 leaves room)
  expect_gt(stats::cor(exact, ours$estimate), 0.99)
  average <- summary(ours)
  expect_lt(abs(average$estimate - mean(exact)), average$std.error)
})

test_that("the derivatives agree with KRLS::krls()'s at its bandwidth convention", {
  skip_on_cran()
  skip_if_not_installed("KRLS")
  case <- exact_case()
  fit <- rff_ridge(case$x, case$y, kernel = gaussian_kernel(case$sigma), n_features = 1024, lambda = case$lambda,
                   seed = 1)
  ours <- rff_effects(fit, case$x, variables = 1)
  # krls' Gaussian kernel is exp(-|x - y|^2 / sigma) on the standardized
  # columns (these are), so its sigma is 2 sigma^2; its penalty is ours on
  # the standardized response, where it fits no intercept (its kernel is
  # not centred: the derivatives differ from the centred fit's by a little)
  theirs <- KRLS::krls(case$x, case$y, whichkernel = "gaussian", lambda = case$lambda, sigma = 2 * case$sigma^2,
                       print.level = 0, approx = "none")
  expect_gt(stats::cor(theirs$derivatives[, 1], ours$estimate), 0.99)
  average <- summary(ours)
  expect_lt(abs(average$estimate - theirs$avgderivatives[1]), average$std.error)
})
