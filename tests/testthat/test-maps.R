test_that("the same seed gives the same map, and set.seed() reproduces seed = NULL", {
  kernel <- gaussian_kernel(1)
  expect_identical(rff_map(kernel, 4, 20, seed = 5)$omega, rff_map(kernel, 4, 20, seed = 5)$omega)
  expect_false(identical(rff_map(kernel, 4, 20, seed = 5)$omega, rff_map(kernel, 4, 20, seed = 6)$omega))
  set.seed(10)
  first <- rff_map(kernel, 4, 20, "orthogonal")
  set.seed(10)
  expect_identical(rff_map(kernel, 4, 20, "orthogonal")$omega, first$omega)
})

test_that("features and Gram matrices are identical for 1 and 2 threads", {
  x <- fixture_points(1000, 7)
  map <- rff_map(gaussian_kernel(1), 7, 33, "orthogonal", seed = 1)
  expect_identical(rff_features(map, x, n_threads = 1), rff_features(map, x, n_threads = 2))
  expect_identical(rff_kernel_matrix(map, x, n_threads = 1), rff_kernel_matrix(map, x, n_threads = 2))
  old_options <- options(askrff.threads = 1)
  on.exit(options(old_options))
  expect_identical(rff_features(map, x), rff_features(map, x, n_threads = 2))
})

test_that("a map survives saveRDS and readRDS", {
  x <- fixture_points(50, 3)
  map <- rff_map(laplace_kernel(2), 3, 40, seed = 8)
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path))
  saveRDS(map, path)
  restored <- readRDS(path)
  expect_identical(rff_features(restored, x), rff_features(map, x))
  expect_identical(total_masses(restored), c(pos = 1))
})

test_that("orthogonal frequencies are orthogonal within a block and have chi radii", {
  map <- rff_map(gaussian_kernel(2), 5, 5000, "orthogonal", seed = 3)
  gram <- crossprod(map$omega[, 1:5])
  expect_equal(gram[upper.tri(gram)], rep(0, 10), tolerance = 1e-12)
  # Radii are chi_5 / sigma: mean sqrt(2) Gamma(3) / Gamma(2.5) / 2, sd
  # sqrt(5 - mean_chi^2) / 2; allow 4.5 standard errors of the mean of 5000.
  mean_chi <- sqrt(2) * gamma(3) / gamma(2.5)
  se <- sqrt(5 - mean_chi^2) / 2 / sqrt(5000)
  expect_lt(abs(mean(sqrt(colSums(map$omega^2))) - mean_chi / 2), 4.5 * se)
})

test_that("orthogonal features have lower error than i.i.d. at n_features = d (Yu et al. 2016)", {
  d <- 16
  x <- fixture_points(200, d) / sqrt(d)
  kernel <- gaussian_kernel(0.3)
  exact <- kernel_matrix(kernel, x)
  errors <- function(method) {
    vapply(1:40, function(r) relative_error(exact, rff_kernel_matrix(rff_map(kernel, d, d, method, seed = r), x)), 0)
  }
  iid <- errors("iid")
  orthogonal <- errors("orthogonal")
  # The difference of means must exceed four standard errors of that difference.
  se <- sqrt(stats::var(iid) / 40 + stats::var(orthogonal) / 40)
  expect_gt(mean(iid) - mean(orthogonal), 4 * se)
})

test_that("total_masses names the single part of a positive definite kernel pos", {
  expect_identical(total_masses(rff_map(gaussian_kernel(1), 2, 3, seed = 1)), c(pos = 1))
})

test_that("print and summary describe the map", {
  map <- rff_map(gaussian_kernel(1), 3, 10, "orthogonal", seed = 1)
  expect_output(print(map), "orthogonal frequencies: 10 = 20 features per side")
  shared <- rff_map(shift_gaussian_kernel(1, 0.5), 3, 10, seed = 1)
  expect_output(print(shared), "iid frequencies: 10 \\(shared by mass: real_pos [0-9]+, real_neg [0-9]+, imag_pos [0-9]+\\) = 20 features per side")
  expect_output(print(summary(shared)), "allocation by mass")
  s <- summary(map)
  expect_s3_class(s, "summary.askrff_map")
  expect_identical(s$parts$n_frequencies, 10L)
  expect_output(print(s), "mean_radius")
})
