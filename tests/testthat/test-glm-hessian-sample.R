# The engine's preconditioning Hessians from a sample of the rows
# (options(askrff.hessian_rows)): the fits converge to the same minimum,
# the same for any thread count, and the Laplace covariance is still the
# whole Hessian's.

sample_data <- function(n = 400, seed = 5) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * 3), n, 3)
  score <- sin(2 * x[, 1]) + x[, 2] * x[, 3] + stats::rnorm(n, sd = 0.5)
  list(x = x, y = factor(score > 0), w = stats::runif(n, 0.5, 2))
}

# `code` runs (lazily) with the options set
with_options <- function(values, code) {
  old <- options(values)
  on.exit(options(old))
  code
}

criterion <- function(fit) fit$deviance / 2 + fit$lambda / 2 * sum(fit$coefficients^2)

test_that("Hessians of one row in two give the fits of all rows", {
  data <- sample_data()
  map <- rff_map(gaussian_kernel(1), 3, 32, seed = 2)
  for (family in c("binomial", "squared_hinge", "quantile")) {
    y <- if (family == "quantile") data$x[, 1] + stats::rnorm(400) else data$y
    all_rows <- rff_glm(data$x, y, map, family = family, lambda = 0.3, weights = data$w, seed = 1)
    # 200 rows for 65 coefficients: a sample well above the columns, as
    # the default's 50,000 rows are at any D the engine takes
    sampled <- with_options(list(askrff.hessian_rows = 200), {
      rff_glm(data$x, y, map, family = family, lambda = 0.3, weights = data$w, seed = 1)
    })
    # both minimize a strictly convex criterion to a relative decrease of
    # 1e-20 (the kinked loss to 1e-9 of its exact criterion)
    tolerance <- if (family == "quantile") 1e-8 else 1e-10
    expect_equal(criterion(sampled), criterion(all_rows), tolerance = tolerance, info = family)
    expect_equal(sampled$coefficients, all_rows$coefficients, tolerance = 1e-4, info = family)
    # the sample changed the steps (the first pass's Z'WZ, and the band's
    # Hessians of the quantile's Newton steps while it holds over 200 rows)
    expect_false(identical(sampled$coefficients, all_rows$coefficients), info = family)
    # the first pass's weights, rows and responses' sums are every row's
    expect_equal(sampled[c("n", "weight")], all_rows[c("n", "weight")], tolerance = 1e-14, info = family)
    expect_equal(sampled$null_deviance, all_rows$null_deviance, tolerance = 1e-12, info = family)
  }
})

test_that("a sampled Hessian's path is the same for any thread count and chunking, and the covariance is exact", {
  data <- sample_data()
  map <- rff_map(gaussian_kernel(1), 3, 16, seed = 3)
  fits <- with_options(list(askrff.hessian_rows = 100), lapply(1:2, function(threads) {
    rff_glm(data$x, data$y, map, family = "binomial", weights = data$w, seed = 4, n_threads = threads)
  }))
  expect_identical(fits[[1]]$coefficients, fits[[2]]$coefficients)
  expect_identical(fits[[1]]$path, fits[[2]]$path)
  exact <- rff_glm(data$x, data$y, map, family = "binomial", weights = data$w, seed = 4, lambda = fits[[1]]$lambda)
  # the covariance is taken at the fit from every row
  expect_equal(vcov(fits[[1]]), vcov(exact), tolerance = 1e-6)
  expect_error(with_options(list(askrff.hessian_rows = 0), rff_glm(data$x, data$y, map, lambda = 1)),
               "askrff.hessian_rows", class = "askrff_error")
})

test_that("a pass's sampled Hessian sums one row of every group of rows, weighted by the group's size", {
  set.seed(3)
  n <- 400
  x <- matrix(stats::rnorm(n * 2), n, 2)
  map <- rff_map(gaussian_kernel(1), 2, 4, seed = 1)
  z <- rff_features(map, x)
  input <- askrff:::core_input(map, x, "left", 1L)
  # a weight per group of 4 consecutive rows, distinct between groups
  w <- rep(1 + seq_len(n / 4) / 1000, each = 4)
  pass <- function(every) {
    askrff:::.cpp_glm_pass(input$map, "", input$x, matrix(rep(0:1, n / 2)), w, matrix(0, n, 0), 0, 0L,
                           askrff:::resolve_seed(9), rep(0, ncol(z)), "binomial", numeric(), 0, 0,
                           matrix(0, ncol(z) + 1, 1), 0L, matrix(0, ncol(z) + 1, 1), matrix(0, ncol(z) + 1, 0),
                           numeric(), numeric(), every, integer(), matrix(0, 0, 0), 1L)$hessians[[1]]
  }
  # at eta = 0 every row's logistic curvature is 1/4
  full <- pass(1L)
  sampled <- pass(4L)
  expect_equal(full$weight, sum(w) / 4, tolerance = 1e-14)
  expect_equal(full$zz, crossprod(z, w * z) / 4, tolerance = 1e-12, ignore_attr = TRUE)
  # one row of each group, weighted by 4: the groups' weights once each
  expect_equal(sampled$weight, sum(w) / 4, tolerance = 1e-14)
  # a sample, not the whole: its Hessian differs, by a sampling error
  expect_gt(max(abs(sampled$zz - full$zz)) / max(abs(full$zz)), 1e-3)
  expect_lt(max(abs(sampled$zz - full$zz)) / max(abs(full$zz)), 0.5)
})
