# rff_effects(): derivatives of rff_ridge() fits by the data's variables,
# with standard errors from the ridge posterior.

effects_data <- function(n = 300) {
  set.seed(1)
  data <- data.frame(a = stats::runif(n, -2, 2), b = stats::runif(n, 1, 3), g = factor(sample(c("u", "v"), n, TRUE)))
  data$y <- sin(2 * data$a) + log(data$b) + (data$g == "v") / 2 + stats::rnorm(n, sd = 0.1)
  data
}

# Central differences of the fit's predictions by a variable, a check
# independent of the closed-form derivative features.
predicted_slopes <- function(fit, rows, variable, h = 1e-4) {
  up <- rows
  down <- rows
  up[, variable] <- up[, variable] + h
  down[, variable] <- down[, variable] - h
  unname((predict(fit, up) - predict(fit, down)) / (2 * h))
}

test_that("the effects are the derivatives of the predictions, through transformations and standardization", {
  data <- effects_data()
  fit <- rff_ridge(y ~ a + poly(b, 2) + g, data, kernel = gaussian_kernel(1.5), n_features = 64, seed = 2)
  rows <- data[1:20, ]
  effects <- rff_effects(fit, rows)
  expect_s3_class(effects, "askrff_effects")
  expect_equal(names(effects), c("rowid", "term", "contrast", "value", "estimate", "std.error", "conf.low",
                                 "conf.high"))
  expect_equal(unique(effects$term), c("a", "b", "g"))
  # central differences of the predictions err by about h^2 f''' / 6 and
  # rounding (1e-12 / h): 1e-6 relative covers both
  for (v in c("a", "b")) {
    expect_equal(effects$estimate[effects$term == v], predicted_slopes(fit, rows, v), tolerance = 1e-6)
    expect_equal(effects$value[effects$term == v], rows[[v]])
  }
  # a fit of the default method, standardized, its columns by number
  x <- as.matrix(data[, c("a", "b")])
  plain <- rff_ridge(x, data$y, kernel = gaussian_kernel(1), n_features = 64, seed = 3, standardize = TRUE)
  by_number <- rff_effects(plain, x[1:10, ], variables = 2)
  expect_equal(by_number$estimate, predicted_slopes(plain, x[1:10, ], 2), tolerance = 1e-6)
  expect_equal(unique(by_number$term), "b")
})

test_that("the standard errors and the average's are the posterior's, by the delta method", {
  data <- effects_data(200)
  x <- as.matrix(data[, c("a", "b")])
  map <- rff_map(gaussian_kernel(1), 2, 30, seed = 4)
  fit <- rff_ridge(x, data$y, map, lambda = 0.3)
  rows <- x[1:6, ]
  effects <- rff_effects(fit, rows, variables = "a")
  # the derivative features by central differences of rff_features(), and
  # the posterior variance sigma^2 g'(Zc'Zc + lambda I)^-1 g from the
  # training features directly (unit weights)
  h <- 1e-5
  slope_features <- function(at) {
    (rff_features(map, sweep(at, 2L, c(h, 0), "+")) - rff_features(map, sweep(at, 2L, c(h, 0), "-"))) / (2 * h)
  }
  z <- rff_features(map, x)
  inverse <- solve(crossprod(sweep(z, 2L, colMeans(z))) + 0.3 * diag(ncol(z)))
  g <- slope_features(rows)
  s2 <- predict(fit, rows, se.fit = TRUE)$residual.scale^2
  expect_equal(effects$std.error, sqrt(s2 * rowSums((g %*% inverse) * g)), tolerance = 1e-6)
  expect_equal(effects$estimate, drop(g %*% fit$coefficients), tolerance = 1e-6)
  # the sampling variance given the smoothing: sigma^2 g'A G A g, A the
  # inverse, smaller than the posterior's
  sampling <- rff_effects(fit, rows, variables = "a", vcov = "sampling")
  sandwich <- inverse %*% crossprod(sweep(z, 2L, colMeans(z))) %*% inverse
  expect_equal(sampling$std.error, sqrt(s2 * rowSums((g %*% sandwich) * g)), tolerance = 1e-6)
  expect_true(all(sampling$std.error < effects$std.error))
  expect_equal(sampling$estimate, effects$estimate)
  # t intervals on the residual degrees of freedom
  df <- 200 - fit$path$df[fit$path$lambda == fit$lambda]
  expect_equal(effects$conf.high - effects$estimate, stats::qt(0.975, df) * effects$std.error, tolerance = 1e-12)
  # the average effect over all rows: the mean of the pointwise ones, its
  # variance that of the mean derivative features (the rows share b)
  all_rows <- summary(rff_effects(fit, x, variables = "a"))
  every <- rff_effects(fit, x, variables = "a")
  expect_equal(all_rows$estimate, mean(every$estimate), tolerance = 1e-12)
  mean_g <- colMeans(slope_features(x))
  expect_equal(all_rows$std.error, sqrt(s2 * drop(mean_g %*% inverse %*% mean_g)), tolerance = 1e-6)
  expect_equal(summary(rff_effects(fit, x, variables = "a", vcov = "sampling"))$std.error,
               sqrt(s2 * drop(mean_g %*% sandwich %*% mean_g)), tolerance = 1e-6)
  expect_equal(all_rows$median, stats::median(every$estimate))
  expect_output(print(all_rows), "Average marginal effects")
})

test_that("rows with missing values get NA, and a variable the fit does not move gets 0", {
  data <- effects_data(100)
  fit <- rff_ridge(y ~ a + g, data, kernel = gaussian_kernel(1), n_features = 32, seed = 1)
  rows <- data[1:4, ]
  rows$a[2] <- NA
  effects <- rff_effects(fit, rows, variables = "a")
  expect_true(is.na(effects$estimate[2]) && is.na(effects$std.error[2]))
  expect_false(anyNA(effects$estimate[-2]))
  # b is in the data but not the formula: not a variable of the fit
  expect_error(rff_effects(fit, rows, variables = "b"), "`b`", class = "askrff_error")
})

test_that("rff_effects() refuses what it cannot differentiate, naming the argument", {
  data <- effects_data(100)
  fit <- rff_ridge(y ~ a + g, data, kernel = gaussian_kernel(1), n_features = 32, seed = 1)
  expect_error(rff_effects(fit), "newdata", class = "askrff_error")
  expect_error(rff_effects(fit, data, variables = "y"), "non-numeric term other than itself", class = "askrff_error")
  # a number the formula reads as a factor or through an offset has none
  data$m <- rep(1:4, 25)
  data$e <- stats::runif(100, 1, 2)
  through <- rff_ridge(y ~ a + factor(m) + offset(log(e)), data, kernel = gaussian_kernel(1), n_features = 16, seed = 1)
  expect_equal(unique(rff_effects(through, data[1:3, ])$term), "a")
  expect_error(rff_effects(through, data, variables = "m"), "`m`", class = "askrff_error")
  expect_error(rff_effects(through, data, variables = "e"), "`e`", class = "askrff_error")
  expect_error(rff_effects(fit, data, level = 2), "level", class = "askrff_error")
  expect_error(rff_effects(fit, data, bogus = 1), class = "askrff_error")
  expect_error(rff_effects(list(), data), "fit", class = "askrff_error")
  x <- as.matrix(data[, c("a", "b")])
  nystrom <- rff_ridge(x, data$y, map = nystrom_map(gaussian_kernel(1), x[1:20, ]), lambda = 0.1)
  expect_error(rff_effects(nystrom, x), "trigonometric", class = "askrff_error")
  several <- rff_ridge(x, cbind(data$y, data$a), kernel = gaussian_kernel(1), n_features = 16, seed = 1)
  expect_error(rff_effects(several, x), "one numeric response", class = "askrff_error")
})

test_that("the effects' summary, tidy() and plot() read the averages, and refuse edited results", {
  data <- effects_data(150)
  fit <- rff_ridge(y ~ a + b, data, kernel = gaussian_kernel(1), n_features = 32, seed = 1)
  effects <- rff_effects(fit, data)
  average <- summary(effects)
  skip_if_not_installed("tibble")
  tidied <- generics::tidy(effects)
  expect_equal(names(tidied), c("term", "contrast", "estimate", "std.error", "statistic", "p.value", "conf.low",
                                "conf.high"))
  expect_equal(tidied$estimate, average$estimate)
  df <- 150 - fit$path$df[fit$path$lambda == fit$lambda]
  expect_equal(tidied$p.value, 2 * stats::pt(-abs(average$estimate / average$std.error), df))
  expect_equal(names(generics::tidy(effects, conf.int = FALSE)), c("term", "contrast", "estimate", "std.error",
                                                                   "statistic", "p.value"))
  file <- tempfile(fileext = ".png")
  grDevices::png(file)
  expect_identical(plot(effects, variables = "a"), effects)
  grDevices::dev.off()
  expect_error(plot(effects, variables = "c"), "variables", class = "askrff_error")
  edited <- effects
  attr(edited, "average") <- NULL
  expect_error(summary(edited), "rff_effects", class = "askrff_invalid_object")
  expect_error(generics::tidy(edited), "rff_effects", class = "askrff_invalid_object")
})
