# The randomized dependence coefficient (R/htest-rdc.R): cancor() of the
# features of the copula transforms, exactly; invariance to monotone
# transformations; the size and power of Bartlett's test.

test_that("rff_rdc() is cancor() of the random features of the variables' ranks over n", {
  set.seed(1)
  x <- cbind(a = rnorm(300), b = runif(300))
  y <- x[, 1]^2 + rnorm(300, sd = 0.5)
  result <- rff_rdc(x, y, n_features = 8, seed = 11)
  expect_s3_class(result, "htest")
  seeds <- askrff:::test_seeds(11, 2L)
  ux <- apply(x, 2, rank) / 300
  uy <- matrix(rank(y) / 300)
  zx <- rff_features(rff_map(gaussian_kernel(sqrt(6)), 2, 8, seed = seeds[1]), ux)
  zy <- rff_features(rff_map(gaussian_kernel(sqrt(6)), 1, 8, seed = seeds[2]), uy)
  reference <- stats::cancor(zx, zy)
  expect_equal(result$correlations, reference$cor, tolerance = 1e-10)
  expect_equal(unname(result$estimate), reference$cor[1], tolerance = 1e-10)
  p <- nrow(reference$xcoef)
  q <- nrow(reference$ycoef)
  statistic <- -(300 - (p + q + 3) / 2) * sum(log(1 - reference$cor^2))
  expect_equal(unname(result$statistic), statistic, tolerance = 1e-10)
  expect_identical(unname(result$parameter), c(p * q, 300))
  expect_equal(result$p.value, stats::pchisq(statistic, p * q, lower.tail = FALSE), tolerance = 1e-10)
  # ranks do not see monotone transformations
  expect_identical(rff_rdc(exp(x), y^3, n_features = 8, seed = 11)$statistic, result$statistic)
})

test_that("Bartlett's test holds its size under independence and sees a dependence correlation misses", {
  skip_on_cran()
  set.seed(2)
  # 200 replicates: the rejection rate's standard error at 5 % is 0.015; the
  # bounds are about three of them either side
  p_values <- replicate(200, rff_rdc(rnorm(300), rnorm(300))$p.value)
  expect_gt(mean(p_values < 0.05), 0.01)
  expect_lt(mean(p_values < 0.05), 0.10)
  x <- runif(500, -1, 1)
  y <- cos(4 * x) + rnorm(500, sd = 0.3)
  expect_gt(stats::cor.test(x, y)$p.value, 0.01)
  dependent <- rff_rdc(x, y, seed = 1)
  expect_lt(dependent$p.value, 1e-10)
  expect_gt(dependent$estimate, 0.8)
})

test_that("rff_rdc() refuses bad arguments by name", {
  set.seed(3)
  x <- rnorm(50)
  expect_error(rff_rdc(x, rep(1, 50)), "`y` has one value", class = "askrff_error")
  expect_error(rff_rdc(x, x[1:40]), "same number of rows", class = "askrff_error")
  expect_error(rff_rdc(x, x, n_features = 0), "n_features", class = "askrff_error")
  expect_error(rff_rdc(x, x, kernel_x = "gaussian"), "kernel_x", class = "askrff_error")
  expect_error(rff_rdc(x, x, kernel_y = laplace_kernel(1) - gaussian_kernel(2)), "kernel_y", class = "askrff_error")
  expect_error(rff_rdc(x[1:5], x[1:5], n_features = 20), "rows", class = "askrff_error")
  # factors become indicator columns, as in the other tests
  expect_s3_class(rff_rdc(factor(x > 0), x, seed = 1), "htest")
})
