# rff_glm()'s penalty path on a sample of many rows: the sample's path is
# the fit of those rows alone, and the chosen lambda's fit the fit of every
# row at that lambda.

path_sample_data <- function(n = 2400, seed = 8) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * 2), n, 2)
  list(x = x, y = factor(ifelse(sin(2 * x[, 1]) + x[, 2] + stats::rnorm(n, sd = 0.5) > 0, "b", "a")),
       value = x[, 1] + stats::rnorm(n))
}

test_that("with more than twice askrff.path_rows rows, lambda is cross-validated on a sample and fitted on all", {
  data <- path_sample_data()
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 3)
  withr_options <- options(askrff.path_rows = 500)
  on.exit(options(withr_options))
  for (family in c("binomial", "squared_hinge", "quantile")) {
    y <- if (family == "quantile") data$value else data$y
    fit <- rff_glm(data$x, y, map, family = family, seed = 5, standardize = FALSE)
    # the sample: about one row in floor(2400 / 500) = 4, by position under
    # the seed, the same rows the fit reports
    rows <- which(askrff:::.cpp_hessian_rows(0, 2400, 4L, askrff:::resolve_seed(5)))
    expect_identical(fit$path_rows, length(rows))
    expect_gt(length(rows), 450)
    expect_lt(length(rows), 750)
    alone <- rff_glm(data$x[rows, ], y[rows], map, family = family, seed = 5, standardize = FALSE)
    expect_equal(fit$lambda, alone$lambda, info = family)
    # the sample's path is that of its rows alone; at the chosen lambda its
    # deviance is the path's model's, as converged as the path's models (a
    # loss with kinks: at the path's smoothing width), where the fit of the
    # sample alone runs on to the exact fit
    chosen <- fit$path$lambda == fit$lambda
    expect_equal(fit$path[!chosen, ], alone$path[!chosen, ], info = family)
    expect_equal(fit$path[chosen, c("lambda", "cv", "cv_se")], alone$path[chosen, c("lambda", "cv", "cv_se")],
                 info = family)
    expect_equal(fit$path$deviance[chosen], alone$path$deviance[chosen], tolerance = 0.01, info = family)
    # the fit of every row at that lambda, here from the sample's model
    # (within sampling error of it) instead of the intercept-only model: the
    # same minimum as far as the runs converge (relative decrease 1e-20, a
    # kinked loss's criterion to 1e-9 across widths), in fewer passes
    every <- rff_glm(data$x, y, map, family = family, lambda = alone$lambda, standardize = FALSE)
    expect_equal(coef(fit), coef(every), tolerance = 1e-7, info = family)
    expect_equal(fit$deviance, every$deviance, tolerance = 1e-9, info = family)
    expect_equal(fit$null_deviance, every$null_deviance, tolerance = 1e-12, info = family)
    expect_lt(fit$passes, every$passes)
    expect_output(print(fit), sprintf("cross-validation on a sample of %d rows", length(rows)), fixed = TRUE)
  }
  # the sample is by position: the same fit on any number of threads
  two <- rff_glm(data$x, data$y, map, seed = 5, standardize = FALSE, n_threads = 2)
  expect_identical(two$path_rows, fit$path_rows)
  expect_equal(coef(two), coef(rff_glm(data$x, data$y, map, seed = 5, standardize = FALSE, n_threads = 1)),
               tolerance = 1e-12)
})

test_that("a given lambda, a chunk source, a Cox model and fewer rows take every row", {
  data <- path_sample_data()
  map <- rff_map(gaussian_kernel(1), 2, 8, seed = 3)
  old <- options(askrff.path_rows = 500)
  on.exit(options(old))
  expect_null(rff_glm(data$x, data$y, map, lambda = 0.1)$path_rows)
  expect_null(rff_glm(data$x[1:1000, ], data$y[1:1000], map)$path_rows)
  chunks <- list(list(x = data$x[1:1200, ], y = data$y[1:1200]), list(x = data$x[1201:2400, ], y = data$y[1201:2400]))
  expect_null(rff_glm(chunks, map = map)$path_rows)
  skip_if_not_installed("survival")
  time <- stats::rexp(2400, exp(data$x[, 1]))
  cox <- rff_glm(data$x, survival::Surv(time, rep(1, 2400)), map, family = "cox", nfolds = 3)
  expect_null(cox$path_rows)
})

test_that("a bad askrff.path_rows and an edited path_rows are named", {
  data <- path_sample_data(1200)
  map <- rff_map(gaussian_kernel(1), 2, 8, seed = 3)
  for (bad in list(10, -1, "many", NA)) {
    old <- options(askrff.path_rows = bad)
    expect_error(rff_glm(data$x, data$y, map), "askrff.path_rows", class = "askrff_error")
    options(old)
  }
  old <- options(askrff.path_rows = 300)
  on.exit(options(old))
  fit <- rff_glm(data$x, data$y, map, seed = 1)
  expect_true(fit$path_rows > 0)
  for (bad in list(0, 1e9, 2.5, "300", c(300, 300))) {
    edited <- fit
    edited$path_rows <- bad
    expect_error(predict(edited, data$x[1:2, ]), "path_rows", class = "askrff_error")
  }
})
