test_that("random features are unbiased for the Gaussian and Laplace kernels, x != y", {
  x <- fixture_points(5, 3)
  y <- fixture_points(4, 3, seed = 9)
  for (kernel in list(gaussian_kernel(0.8), laplace_kernel(1.5))) {
    for (method in if (inherits(kernel, "laplace_kernel")) "iid" else c("iid", "orthogonal")) {
      exact <- kernel_matrix(kernel, x, y)
      z <- unbiasedness_z(exact, function(r) rff_kernel_matrix(rff_map(kernel, 3, 16, method, seed = r), x, y),
                          replicates = 400)
      expect_lt(max(abs(z)), 4.5, label = paste(class(kernel)[1], method, "max |z|"))
    }
  }
})

test_that("the approximate kernel matrix is the product of the left and right features", {
  x <- fixture_points(70, 4)
  y <- fixture_points(130, 4, seed = 5)
  map <- rff_map(gaussian_kernel(1), 4, 50, seed = 3)
  expected <- rff_features(map, x, "left") %*% t(rff_features(map, y, "right"))
  expect_equal(rff_kernel_matrix(map, x, y), expected, tolerance = 1e-13)
})

test_that("features are cos and sin of x'W scaled by sqrt(mass / n), computed by any SIMD path", {
  x <- fixture_points(37, 6)
  map <- rff_map(gaussian_kernel(0.5), 6, 13, seed = 11)
  projection <- x %*% map$omega
  expected <- cbind(cos(projection), sin(projection)) / sqrt(13)
  old <- askrff_cpu()
  on.exit(askrff_cpu(old$path))
  for (path in old$paths) {
    askrff_cpu(path)
    expect_equal(rff_features(map, x), expected, tolerance = 1e-14)
  }
})

test_that("a row's features do not depend on the other rows computed with it", {
  x <- fixture_points(301, 5)
  map <- rff_map(gaussian_kernel(1), 5, 9, seed = 4)
  all_rows <- rff_features(map, x)
  expect_identical(rff_features(map, x[c(300, 2, 17), , drop = FALSE]), all_rows[c(300, 2, 17), ])
})

test_that("the vectorized sincos matches libm to 2 ulp-scale error over |t| up to 1e7", {
  set.seed(1)
  t <- c(0, -0, pi / 4, pi / 2, pi, 1e-300, -1e-9, stats::runif(2e4, -1e5, 1e5),
         stats::runif(2e3, -1e7, 1e7), stats::runif(2e4, -10, 10))
  old <- askrff_cpu()
  on.exit(askrff_cpu(old$path))
  for (path in old$paths) {
    askrff_cpu(path)
    result <- askrff:::.cpp_sincos(t)
    # |sin|, |cos| <= 1, so an absolute error of 4.5e-16 is about 2 ulp at 1.
    expect_lt(max(abs(result[, 1] - sin(t))), 4.5e-16)
    expect_lt(max(abs(result[, 2] - cos(t))), 4.5e-16)
  }
})

test_that("heavy-tailed Laplace frequencies beyond the reduction range still give exact features", {
  # One nonzero coordinate makes x'w a single correctly rounded product, the
  # same in R and in the core, so the comparison with libm can be exact.
  x <- matrix(c(123456.7, 0, 0), 1)
  map <- rff_map(laplace_kernel(1e-3), 3, 400, seed = 2)
  projection <- x %*% map$omega
  expect_gt(max(abs(projection)), 1e6)
  expect_equal(rff_features(map, x), cbind(cos(projection), sin(projection)) / sqrt(400), tolerance = 1e-15)
})

test_that("large results (custom page-populating allocation) hold the right values and are freed", {
  skip_on_cran()
  # 2100 x 2048 doubles is 34 MB, above the 16 MB threshold of src/result_matrix.h.
  x <- fixture_points(2100, 3)
  map <- rff_map(gaussian_kernel(1), 3, 1024, seed = 6)
  for (round in 1:3) {
    z <- rff_features(map, x)
    projection <- x %*% map$omega
    expect_equal(z, cbind(cos(projection), sin(projection)) / 32, tolerance = 1e-14)
    rm(z)
    gc()
  }
  expect_equal(dim(rff_kernel_matrix(map, x, x[1:2050, ])), c(2100L, 2050L))
})
