# Inputs at the ends of the double range, and what the fits name: weights
# multiplied by 1e200 or 1e-200 (the passes sum them in unit weights,
# R/model-weight-units.R), predictors without variation at a penalty near
# the smallest double, responses whose squares would underflow, intervals
# at levels next to 1, and per-coordinate scales named by their columns.

scaled_data <- function() {
  set.seed(5)
  n <- 150
  x <- matrix(rnorm(n * 3), n)
  list(x = x, n = n, y = sin(x[, 1]) + rnorm(n, sd = 0.2), w = runif(n, 0.2, 2),
       map = rff_map(gaussian_kernel(1), d = 3, n_features = 16, seed = 1))
}

test_that("weights times 1e200 or 1e-200 give the same ridge fit, its penalty and sums times the constant", {
  d <- scaled_data()
  for (criterion in c("gcv", "loo", "evidence")) {
    reference <- rff_ridge(d$x, d$y, d$map, weights = d$w, criterion = criterion)
    for (constant in c(1e200, 1e-200)) {
      fit <- rff_ridge(d$x, d$y, d$map, weights = d$w * constant, criterion = criterion)
      label <- sprintf("%s, weights times %g", criterion, constant)
      # the criterion is lm()'s, sum w e^2 + lambda ||b||^2: the same minimiser
      # at lambda times the constant, and every criterion picks it
      expect_equal(predict(fit, d$x), predict(reference, d$x), tolerance = 1e-10, label = label)
      expect_equal(fit$lambda, reference$lambda * constant, tolerance = 1e-10, label = label)
      expect_equal(fit$rss, reference$rss * constant, tolerance = 1e-10, label = label)
      expect_equal(fit$path$evidence, reference$path$evidence, tolerance = 1e-10, label = label)
      expect_equal(fit$path$gcv, reference$path$gcv * constant, tolerance = 1e-10, label = label)
      expect_equal(predict(fit, d$x[1:5, ], interval = "confidence"), predict(reference, d$x[1:5, ], interval = "confidence"),
                   tolerance = 1e-8, label = label)
      # lm()'s weighted likelihood does not change either: the half sum of
      # the log weights and the log RSS move by opposite amounts
      expect_equal(logLik(fit), logLik(reference), tolerance = 1e-10, label = label)
    }
  }
})

test_that("weights times 1e200 or 1e-200 give the same GLM fit, its penalty and deviances times the constant", {
  d <- scaled_data()
  responses <- list(binomial = d$y > 0, poisson = rpois(d$n, exp(d$y)))
  for (family in names(responses)) {
    reference <- rff_glm(d$x, responses[[family]], d$map, family = family, weights = d$w, seed = 3)
    for (constant in c(1e200, 1e-200)) {
      fit <- rff_glm(d$x, responses[[family]], d$map, family = family, weights = d$w * constant, seed = 3)
      label <- sprintf("%s, weights times %g", family, constant)
      expect_equal(coef(fit), coef(reference), tolerance = 1e-8, label = label)
      expect_equal(fit$lambda, reference$lambda * constant, tolerance = 1e-10, label = label)
      expect_equal(fit$deviance, reference$deviance * constant, tolerance = 1e-8, label = label)
      # the cross-validation fits away from the chosen lambda stop at the
      # solver's tolerance, so weights that differ by rounding move their
      # deviances by that much (2e-5 measured), not by rounding
      expect_equal(fit$path$cv, reference$path$cv, tolerance = 1e-4, label = label)
      expect_equal(vcov(fit), vcov(reference) / constant, tolerance = 1e-6, label = label)
    }
  }
})

test_that("predictors without variation at a penalty near the smallest double give a fit its methods accept", {
  d <- scaled_data()
  fit <- rff_ridge(matrix(0, d$n, 3), d$y, d$map, lambda = 1e-300)
  expect_true(all(is.finite(unlist(fit$path))))
  expect_output(print(fit), "lambda = 1e-300, given")
  # nothing to fit but the intercept, the mean
  expect_equal(unname(predict(fit, matrix(0, 2, 3))), rep(mean(d$y), 2), tolerance = 1e-12)
})

test_that("responses whose squares underflow are refused, and all-zero ones are fitted", {
  d <- scaled_data()
  expect_error(rff_ridge(d$x, d$y * 1e-300, d$map), "`y` has values only up to .*must reach 1e-100", class = "askrff_error")
  chunks <- list(list(x = d$x[1:75, ], y = d$y[1:75]), list(x = d$x[76:150, ], y = d$y[76:150] * 1e-300))
  expect_error(rff_ridge(chunks, map = d$map), "`y` of chunk 2 of `x` has values only up to", class = "askrff_error")
  zero <- rff_ridge(d$x, rep(0, d$n), d$map, criterion = "gcv")
  expect_equal(unname(predict(zero, d$x[1:3, ])), rep(0, 3))
})

test_that("confidence bounds stay finite at levels next to 1", {
  d <- scaled_data()
  fit <- rff_ridge(d$x, d$y, d$map)
  near_one <- 1 - 1e-16
  tidied <- generics::tidy(fit, conf.int = TRUE, conf.level = near_one)
  expect_true(all(is.finite(c(tidied$conf.low, tidied$conf.high))))
  # from the upper tail, as predict.lm() takes it: not the quantile of a
  # probability that rounds to 1
  residual_df <- attr(logLik(fit), "df")
  expect_gt(min(tidied$conf.high - tidied$estimate), 0)
  bounds <- predict(fit, d$x[1:3, ], interval = "prediction", level = near_one)
  expect_true(all(is.finite(bounds)))
})

test_that("per-coordinate scales are named by the columns they scale", {
  d <- scaled_data()
  frame <- data.frame(y = d$y, size = d$x[, 1], age = d$x[, 2], group = factor(rep(c("a", "b"), length.out = d$n)))
  fit <- rff_ridge(y ~ ., frame, n_features = 8, criterion = "gcv", ard = TRUE, seed = 1)
  columns <- c("size", "age", "groupa", "groupb")
  expect_named(fit$map$kernel$params$sigma, columns)
  expect_identical(colnames(fit$selection$scales), columns)
  expect_identical(askrff:::coordinate_names(fit$selection$scales), columns)
  # a matrix without names gets x1, x2, ...
  expect_identical(askrff:::coordinate_names(matrix(1, 1, 2)), c("x1", "x2"))
})
