# broom's tidy(), glance() and augment() for rff_ridge() and rff_glm() fits:
# columns and types, agreement with coef() and predict(), and the ridge
# standard errors against the closed-form Bayesian linear regression.

skip_if_not_installed("generics")
skip_if_not_installed("tibble")

# The posterior covariance of (b0, b) under b ~ N(0, s2 / lambda I),
# e ~ N(0, s2 / w) and a flat prior on b0: s2 (X'WX + diag(0, lambda I))^-1
# with X = [1, Z], s2 the weighted RSS over n - df (as test-ridge-intervals.R
# computes it for predictions).
direct_covariance <- function(z, y, w, lambda) {
  x <- cbind(1, z)
  precision <- crossprod(x, w * x) + diag(c(0, rep(lambda, ncol(z))))
  coefficients <- solve(precision, crossprod(x, w * y))
  df <- sum(diag(solve(precision, crossprod(x, w * x))))
  residual_df <- sum(w > 0) - df
  s2 <- sum(w * (y - x %*% coefficients)^2) / residual_df
  list(estimate = drop(coefficients), covariance = s2 * solve(precision), df = residual_df, s2 = s2)
}

test_that("tidy() of a ridge fit gives coef() and the closed-form posterior standard errors", {
  set.seed(1)
  n <- 80
  x <- matrix(rnorm(2 * n), n, 2)
  y <- sin(x[, 1]) + x[, 2] / 2 + rnorm(n, sd = 0.2)
  w <- runif(n, 0.5, 2)
  # fewer feature columns than rows, and more (then the prior alone outside
  # the eigenvectors' span)
  for (features in c(10, 60)) {
    map <- rff_map(gaussian_kernel(1), 2, features, seed = features)
    for (weights in list(NULL, w)) {
      label <- sprintf("%d features, %s", 2 * features, if (is.null(weights)) "unweighted" else "weighted")
      fit <- rff_ridge(x, y, map, lambda = 0.3, weights = weights)
      tidied <- generics::tidy(fit, conf.int = TRUE, conf.level = 0.9)
      expected <- direct_covariance(rff_features(map, x), y, if (is.null(weights)) rep(1, n) else weights, 0.3)
      expect_s3_class(tidied, "tbl_df")
      expect_named(tidied, c("term", "estimate", "std.error", "conf.low", "conf.high"))
      expect_identical(tidied$term, names(coef(fit)))
      expect_equal(tidied$estimate, unname(coef(fit)), tolerance = 1e-12, label = label)
      # 120 columns on 80 points of a smooth kernel: Z'WZ is numerically of
      # low rank (eigenvalues down to 1e-17 of the largest), and the
      # eigendecomposition's route and the direct solve's round differently
      # along those directions, by about 1e-8 of the coefficients
      expect_equal(tidied$estimate, expected$estimate, tolerance = 1e-7, label = label)
      expect_equal(tidied$std.error, sqrt(diag(expected$covariance)), tolerance = 1e-10, label = label)
      half <- qt(0.95, expected$df) * tidied$std.error
      expect_equal(tidied$conf.high, tidied$estimate + half, tolerance = 1e-12, label = label)
      expect_equal(tidied$conf.low, tidied$estimate - half, tolerance = 1e-12, label = label)
    }
  }
  expect_named(generics::tidy(fit), c("term", "estimate", "std.error"))
})

test_that("tidy() of several responses gives each the single-response fit's rows", {
  set.seed(2)
  x <- matrix(rnorm(120), 60, 2)
  y <- cbind(a = x[, 1] + rnorm(60, sd = 0.1), b = cos(x[, 2]) + rnorm(60, sd = 0.3))
  map <- rff_map(gaussian_kernel(1), 2, 12, seed = 2)
  tidied <- generics::tidy(rff_ridge(x, y, map, lambda = 0.5), conf.int = TRUE)
  expect_named(tidied, c("response", "term", "estimate", "std.error", "conf.low", "conf.high"))
  expect_identical(tidied$response, rep(c("a", "b"), each = 25))
  # one lambda, so each column is its own Bayesian regression with its own sigma
  for (name in c("a", "b")) {
    single <- generics::tidy(rff_ridge(x, y[, name], map, lambda = 0.5), conf.int = TRUE)
    expect_equal(as.data.frame(tidied[tidied$response == name, -1]), as.data.frame(single), tolerance = 1e-10)
  }
  classes <- rff_ridge(x, factor(ifelse(x[, 1] > 0, "up", "down")), map, lambda = 0.5)
  tidied <- generics::tidy(classes)
  expect_named(tidied, c("class", "term", "estimate"))
  expect_equal(tidied$estimate, as.vector(coef(classes)))
  expect_error(generics::tidy(classes, conf.int = TRUE), "`conf.int`", class = "askrff_error")
})

test_that("glance() of a ridge fit reads the path at lambda, and sigma is predict()'s", {
  set.seed(3)
  x <- matrix(rnorm(100), 50, 2)
  y <- x[, 1]^2 + rnorm(50, sd = 0.2)
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 3)
  fit <- rff_ridge(x, y, map, weights = c(0, rep(1, 49)))
  glanced <- generics::glance(fit)
  expect_s3_class(glanced, "tbl_df")
  expect_named(glanced, c("lambda", "df", "criterion", "gcv", "evidence", "loo", "sigma", "deviance", "df.residual",
                          "nobs", "n_features"))
  expect_equal(nrow(glanced), 1L)
  chosen <- fit$path[fit$path$lambda == fit$lambda, ]
  expect_equal(glanced$loo, chosen$loo)
  expect_equal(glanced$loo, min(fit$path$loo))
  expect_equal(glanced$df, chosen$df)
  expect_identical(glanced$criterion, "loo")
  expect_identical(glanced$nobs, 49)
  expect_identical(glanced$n_features, 32L)
  expect_equal(glanced$df.residual, 49 - chosen$df)
  expect_equal(glanced$sigma, predict(fit, x[1:2, ], se.fit = TRUE)$residual.scale, tolerance = 1e-14)
  expect_equal(glanced$deviance, sum(fit$residuals[-1]^2), tolerance = 1e-10)
  # a given lambda chose nothing: no leave-one-out column
  expect_false("loo" %in% names(generics::glance(rff_ridge(x, y, map, lambda = 1))))
})

test_that("augment() of a formula fit follows predict(), with NA rows kept and residuals where the response is", {
  frame <- data.frame(y = mtcars$mpg, wt = mtcars$wt, hp = mtcars$hp, row.names = rownames(mtcars))
  frame$wt[3] <- NA
  fit <- rff_ridge(y ~ wt + hp, frame, kernel = gaussian_kernel(1), n_features = 16, standardize = TRUE, seed = 1,
                   na.action = na.exclude, lambda = 0.5)
  alone <- generics::augment(fit)
  expect_named(alone, c(".fitted", ".resid"))
  expect_equal(alone$.fitted, unname(fitted(fit)))
  expect_equal(alone$.resid, unname(residuals(fit)))
  expect_true(is.na(alone$.fitted[3]) && is.na(alone$.resid[3]))
  with_data <- generics::augment(fit, data = frame, interval = "prediction", se_fit = TRUE, conf.level = 0.9)
  expect_named(with_data, c(".rownames", "y", "wt", "hp", ".fitted", ".lower", ".upper", ".se.fit", ".resid"))
  expect_identical(with_data$.rownames, rownames(mtcars))
  predicted <- predict(fit, frame, interval = "prediction", se.fit = TRUE, level = 0.9)
  expect_equal(with_data$.lower, unname(predicted$fit[, "lwr"]))
  expect_equal(with_data$.se.fit, unname(predicted$se.fit))
  expect_equal(with_data$.fitted, alone$.fitted, tolerance = 1e-10)
  expect_equal(with_data$.resid, alone$.resid)
  # new rows: predictions, and residuals from the response they hold
  new <- frame[c(1, 3, 5), ]
  new$y <- c(20, 21, 22)
  augmented <- generics::augment(fit, newdata = new, interval = "confidence")
  expect_equal(augmented$.fitted, unname(predict(fit, new)))
  expect_equal(augmented$.upper, unname(predict(fit, new, interval = "confidence")[, "upr"]))
  expect_equal(augmented$.resid, new$y - augmented$.fitted)
  expect_true(is.na(augmented$.resid[2]))
  expect_false(".resid" %in% names(generics::augment(fit, newdata = new[, -1])))
  # a transformed response is evaluated in the rows
  logged <- rff_ridge(log(y) ~ wt + hp, frame, kernel = gaussian_kernel(1), n_features = 16, standardize = TRUE,
                      seed = 1, lambda = 0.5)
  augmented <- generics::augment(logged, newdata = new)
  expect_equal(augmented$.resid, log(new$y) - augmented$.fitted)
  # with na.omit the data have more rows than the fit: they are predicted
  omitted <- rff_ridge(y ~ wt + hp, frame, kernel = gaussian_kernel(1), n_features = 16, standardize = TRUE, seed = 1,
                       lambda = 0.5)
  augmented <- generics::augment(omitted, data = frame)
  expect_equal(nrow(augmented), 32L)
  expect_equal(augmented$.resid[-3], unname(residuals(omitted)), tolerance = 1e-10)
})

test_that("augment() takes the response from the formula's expression, never from a stored string", {
  frame <- data.frame(y = mtcars$mpg, wt = mtcars$wt, hp = mtcars$hp)
  fit <- rff_ridge(log(y) ~ wt + hp, frame, kernel = gaussian_kernel(1), n_features = 8, standardize = TRUE, seed = 1,
                   lambda = 0.5)
  expect_identical(fit$design$response, quote(log(y)))
  # a name in the terms' data classes is text a saved fit carries: editing
  # it must not run anything
  edited <- fit
  classes <- attr(edited$design$terms, "dataClasses")
  names(classes)[1L] <- "stop(\"ran code from the fit\")"
  attr(edited$design$terms, "dataClasses") <- classes
  augmented <- generics::augment(edited, newdata = frame[1:3, ])
  expect_equal(augmented$.resid, log(frame$y[1:3]) - augmented$.fitted)
  # the response's expression must be one
  edited <- fit
  edited$design$response <- "log(y)"
  expect_error(generics::augment(edited, newdata = frame[1:3, ]), "design\\$response", class = "askrff_invalid_object")
  # a binomial fit with na.exclude on its own data: NA rows stay NA
  frame$am <- mtcars$am
  frame$wt[4] <- NA
  binomial <- rff_glm(am ~ wt + hp, frame, family = "binomial", kernel = gaussian_kernel(1), n_features = 8,
                      standardize = TRUE, seed = 1, lambda = 1, na.action = na.exclude)
  augmented <- generics::augment(binomial, data = frame)
  expect_true(is.na(augmented$.resid[4]))
  expect_true(all(is.finite(augmented$.resid[-4])))
})

test_that("augment() of matrix and streamed fits, several responses and factors", {
  set.seed(4)
  x <- matrix(rnorm(80), 40, 2)
  y <- cbind(first = x[, 1], second = x[, 2]^2)
  map <- rff_map(gaussian_kernel(1), 2, 8, seed = 4)
  fit <- rff_ridge(x, y, map, lambda = 0.1)
  augmented <- generics::augment(fit, data = x)
  expect_named(augmented, c("V1", "V2", ".fitted_first", ".fitted_second", ".resid_first", ".resid_second"))
  expect_equal(augmented$.resid_second, unname(residuals(fit)[, "second"]))
  new <- generics::augment(fit, newdata = x[1:3, ])
  expect_equal(unname(as.matrix(new[c(".fitted_first", ".fitted_second")])), unname(predict(fit, x[1:3, ])))
  # each response's standard errors and interval, as predict() gives them
  uncertain <- generics::augment(fit, newdata = x[1:3, ], se_fit = TRUE, interval = "prediction")
  predicted <- predict(fit, x[1:3, ], se.fit = TRUE, interval = "prediction")
  expect_equal(uncertain$.se.fit_second, unname(predicted$se.fit[, "second"]))
  expect_equal(uncertain$.upper_first, unname(predicted$fit[, "upr", "first"]))
  expect_error(generics::augment(rff_ridge(x, factor(x[, 1] > 0), map), newdata = x, se_fit = TRUE), "`se_fit`",
               class = "askrff_error")
  chunks <- list(list(x = x[1:20, ], y = y[1:20, 1]), list(x = x[21:40, ], y = y[21:40, 1]))
  streamed <- rff_ridge(chunks, map = map, lambda = 0.1)
  expect_error(generics::augment(streamed), "`newdata`", class = "askrff_error")
  augmented <- generics::augment(streamed, data = x, interval = "confidence")
  expect_equal(augmented$.fitted, unname(predict(streamed, x)))
  expect_false(".resid" %in% names(augmented))
  classes <- rff_ridge(x, factor(ifelse(x[, 1] > 0, "up", "down")), map, lambda = 0.1)
  expect_named(generics::augment(classes), c(".fitted_down", ".fitted_up"))
  expect_identical(generics::augment(classes, newdata = x, type.predict = "class")$.fitted, predict(classes, x, type = "class"))
})

test_that("tidy(), glance() and augment() of GLMs: coefficients, the path at lambda and deviance residuals", {
  set.seed(5)
  frame <- data.frame(u = rnorm(60), v = rnorm(60))
  frame$event <- factor(ifelse(frame$u + rnorm(60, sd = 0.5) > 0, "yes", "no"))
  frame$count <- rpois(60, exp(0.5 + frame$v / 2))
  binomial <- rff_glm(event ~ u + v, frame, family = "binomial", kernel = gaussian_kernel(1), n_features = 8, seed = 1,
                      nfolds = 3)
  tidied <- generics::tidy(binomial)
  expect_named(tidied, c("term", "estimate"))
  expect_equal(tidied$estimate, unname(coef(binomial)))
  glanced <- generics::glance(binomial)
  expect_named(glanced, c("lambda", "family", "deviance", "null.deviance", "cv", "cv_se", "nfolds", "converged", "nobs",
                          "n_features"))
  expect_equal(glanced$cv, binomial$path$cv[binomial$path$lambda == binomial$lambda])
  expect_identical(glanced$family, "binomial")
  augmented <- generics::augment(binomial, data = frame, type.predict = "response")
  expect_equal(augmented$.fitted, unname(predict(binomial, type = "response")))
  # the squared deviance residuals add up to the fit's deviance (weights 1)
  expect_equal(sum(augmented$.resid^2), binomial$deviance, tolerance = 1e-10)
  expect_equal(sign(augmented$.resid), sign((frame$event == "yes") - augmented$.fitted))
  given <- rff_glm(count ~ u + v, frame, family = "poisson", kernel = gaussian_kernel(1), n_features = 8, seed = 1,
                   lambda = 2)
  expect_false(any(c("cv", "cv_se") %in% names(generics::glance(given))))
  augmented <- generics::augment(given, newdata = frame)
  expect_equal(augmented$.fitted, unname(predict(given, frame)))
  expect_equal(sum(augmented$.resid^2), given$deviance, tolerance = 1e-10)
  frame$event[2] <- NA
  expect_true(is.na(generics::augment(binomial, newdata = frame)$.resid[2]))
  frame$event <- factor(ifelse(frame$u > 0, "yes", "maybe"))
  expect_error(generics::augment(binomial, newdata = frame), "levels", class = "askrff_error")
  multinomial <- rff_glm(Species ~ ., iris, family = "multinomial", kernel = gaussian_kernel(1), n_features = 8,
                         standardize = TRUE, seed = 1, lambda = 1)
  tidied <- generics::tidy(multinomial)
  expect_named(tidied, c("class", "term", "estimate"))
  expect_equal(tidied$estimate, as.vector(coef(multinomial)))
  expect_identical(unique(tidied$class), levels(iris$Species))
  augmented <- generics::augment(multinomial, newdata = iris[c(1, 51, 101), ], type.predict = "response")
  probabilities <- as.matrix(augmented[paste0(".fitted_", levels(iris$Species))])
  expect_equal(unname(probabilities), unname(predict(multinomial, iris[c(1, 51, 101), ], type = "response")))
  expect_false(".resid" %in% names(augmented))
  expect_identical(generics::augment(multinomial, type.predict = "class")$.fitted, unname(predict(multinomial, type = "class")))
})

test_that("bad arguments and edited fits are refused by name", {
  set.seed(6)
  x <- matrix(rnorm(60), 30, 2)
  map <- rff_map(gaussian_kernel(1), 2, 8, seed = 1)
  fit <- rff_ridge(x, x[, 1], map, lambda = 0.1)
  glm <- rff_glm(x, x[, 1] > 0, map, family = "binomial", lambda = 1)
  expect_error(generics::tidy(fit, conf.level = 1.5), "`conf.level`", class = "askrff_error")
  expect_error(generics::tidy(fit, conf.int = NA), "`conf.int`", class = "askrff_error")
  expect_error(generics::tidy(fit, level = 0.9), "`level`", class = "askrff_error")
  expect_error(generics::augment(fit, interval = "wide"), "`interval`", class = "askrff_error")
  expect_error(generics::augment(fit, se_fit = TRUE), "`data` or `newdata`", class = "askrff_error")
  expect_error(generics::augment(fit, type.predict = "class"), "`type.predict = \"class\"`", class = "askrff_error")
  expect_error(generics::augment(fit, data = "a"), "`data`", class = "askrff_error")
  expect_error(generics::augment(fit, data = x[, 1, drop = FALSE]), "`data`", class = "askrff_error")
  expect_error(generics::augment(glm, type.predict = "probability"), "`type.predict`", class = "askrff_error")
  expect_error(generics::augment(glm, se_fit = TRUE), "`se_fit`", class = "askrff_error")
  expect_error(generics::tidy(structure(list(), class = "askrff_ridge")), "`x", class = "askrff_error")
  edited <- fit
  edited$posterior$values[1] <- -1
  expect_error(generics::tidy(edited), "`x\\$posterior`", class = "askrff_error")
  edited <- glm
  edited$path <- edited$path[0, ]
  expect_error(generics::glance(edited), "`x\\$path`", class = "askrff_error")
})

test_that("a missing suggested package is named with how to install it", {
  expect_silent(askrff:::require_suggested("tibble", "tidy()"))
  expect_error(askrff:::require_suggested(c("tibble", "askrffNoSuchPackageA", "askrffNoSuchPackageB"), "step_rff()"),
               "step_rff\\(\\) needs the askrffNoSuchPackageA and askrffNoSuchPackageB packages: install.packages\\(c\\(\"askrffNoSuchPackageA\", \"askrffNoSuchPackageB\"\\)\\)",
               class = "askrff_error")
  expect_error(askrff:::require_suggested("askrffNoSuchPackageA", "`tidy()` of a random-feature fit"),
               "needs the askrffNoSuchPackageA package: install.packages\\(\"askrffNoSuchPackageA\"\\)",
               class = "askrff_error")
})
