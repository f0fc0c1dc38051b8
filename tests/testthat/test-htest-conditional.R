# The conditional independence test and its pcalg adapter.

test_that("the statistic is n times the squared mean of the residuals' products, the residuals by ridge on z", {
  set.seed(1)
  n <- 300
  z <- rnorm(n)
  x <- z + rnorm(n)
  y <- z^2 + rnorm(n)
  map_z <- rff_map(gaussian_kernel(1), 1, 20, seed = 9)
  kernels <- list(kernel_x = gaussian_kernel(1), kernel_y = gaussian_kernel(2))
  result <- do.call(rff_ci_test, c(list(x, y, z, kernel_z = map_z, seed = 2, standardize = FALSE), kernels))
  seeds <- askrff:::test_seeds(2, 3)
  fx <- rff_features(rff_map(kernels$kernel_x, 1, 5, seed = seeds[1]), matrix(x))
  fy <- rff_features(rff_map(kernels$kernel_y, 1, 5, seed = seeds[2]), matrix(y))
  # the residuals recomputed with solve() at the chosen penalty, which
  # multiplies the identity against the centered features' cross-products
  zc <- scale(rff_features(map_z, matrix(z)), scale = FALSE)
  residual <- function(f) {
    fc <- scale(f, scale = FALSE)
    fc - zc %*% solve(crossprod(zc) + result$lambda * diag(ncol(zc)), crossprod(zc, fc))
  }
  u <- askrff:::residual_products(residual(fx), residual(fy))
  expect_equal(unname(result$statistic), n * sum(colMeans(u)^2), tolerance = 1e-6)
  expect_equal(unname(result$parameter), c(300, 10, 10, 40))
  # without z, the residuals are the centered features
  plain <- do.call(rff_ci_test, c(list(x, y, seed = 2, standardize = FALSE), kernels))
  u <- askrff:::residual_products(scale(fx, scale = FALSE), scale(fy, scale = FALSE))
  expect_equal(unname(plain$statistic), n * sum(colMeans(u)^2), tolerance = 1e-8)
  expect_null(plain$lambda)
})

test_that("the size holds where z explains the dependence, and a direct effect is found", {
  skip_statistics_under_sanitizers()
  # 200 replicates: the rate's standard error is sqrt(0.05 * 0.95 / 200) =
  # 0.0154; 3.5 of them is 0.054 around 0.05. The median scale keeps it
  # fast (bench/kernel-tests.R measures the default's size).
  skip_on_cran()
  set.seed(2)
  p <- replicate(200, {
    z <- matrix(rnorm(600), 300)
    s <- z[, 1] + 0.5 * z[, 2]
    rff_ci_test(s + rnorm(300), s^2 / 2 + rnorm(300), z, n_features_z = 40, scale_z = "median")$p.value
  })
  expect_lt(abs(mean(p < 0.05) - 0.05), 3.5 * sqrt(0.05 * 0.95 / 200))
  z <- rnorm(500)
  x <- z + rnorm(500)
  y <- z + sin(2 * x) + rnorm(500, sd = 0.5)
  expect_lt(rff_ci_test(x, y, z, seed = 1)$p.value, 1e-4)
})

test_that("chunks give the sums of the data in memory, and z may be left out", {
  set.seed(3)
  z <- matrix(rnorm(400), 200)
  x <- z[, 1] + rnorm(200)
  y <- z[, 2] + rnorm(200)
  kernels <- list(kernel_x = gaussian_kernel(1), kernel_y = gaussian_kernel(1), kernel_z = gaussian_kernel(1.5))
  whole <- do.call(rff_ci_test, c(list(x, y, z, seed = 4, standardize = FALSE, n_features_z = 20), kernels))
  chunks <- lapply(split(1:200, rep(1:2, each = 100)), function(i) list(x = x[i], y = y[i], z = z[i, ]))
  streamed <- do.call(rff_ci_test, c(list(chunks, seed = 4, n_features_z = 20), kernels))
  expect_equal(streamed$statistic, whole$statistic, tolerance = 1e-8)
  expect_equal(streamed$p.value, whole$p.value, tolerance = 1e-8)
})

test_that("the pcalg adapter gives the test's p-value, and pcalg::pc() recovers a chain", {
  set.seed(5)
  n <- 600
  a <- rnorm(n)
  b <- sin(2 * a) + rnorm(n, sd = 0.3)
  c <- b^2 + rnorm(n, sd = 0.3)
  data <- cbind(a, b, c)
  suff <- rff_ci_suff_stat(data, seed = 7)
  expect_equal(rff_ci_test_pcalg(1, 3, 2, suff), rff_ci_test(a, c, b, seed = 7)$p.value)
  expect_equal(rff_ci_test_pcalg(1, 2, integer(), suff), rff_ci_test(a, b, seed = 7)$p.value)
  expect_error(rff_ci_test_pcalg(1, 4, integer(), suff), "`y` must be", class = "askrff_invalid_argument")
  expect_error(rff_ci_test_pcalg(1, 2, integer(), list(data = data)), "rff_ci_suff_stat", class = "askrff_invalid_argument")
  expect_error(rff_ci_suff_stat(data, seed = NULL), "`seed`", class = "askrff_invalid_argument")
  skip_if_not_installed("pcalg")
  graph <- pcalg::pc(suff, indepTest = rff_ci_test_pcalg, alpha = 0.01, labels = colnames(data))
  edges <- methods::as(graph@graph, "matrix") != 0
  skeleton <- edges | t(edges)
  expect_true(skeleton["a", "b"] && skeleton["b", "c"])
  expect_false(skeleton["a", "c"])
})

test_that("bad input to the conditional test is refused with the argument named", {
  x <- rnorm(50)
  expect_error(rff_ci_test(x), "`y` must be given", class = "askrff_invalid_argument")
  expect_error(rff_ci_test(x, x, rnorm(40)), "same number of rows", class = "askrff_data_error")
  expect_error(rff_ci_test(x, x, x, method = "permutation"), "`method`", class = "askrff_invalid_argument")
  expect_error(rff_ci_test(function() NULL), "list of chunks", class = "askrff_invalid_argument")
  expect_error(rff_ci_test(x, x, x, n_features_z = 0), "`n_features_z`", class = "askrff_invalid_argument")
})
