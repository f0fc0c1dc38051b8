# rff_ridge()'s formula and data-frame interface: the model frame as lm()
# builds it (subset, weights, na.action), factors as indicator columns,
# standardization kept in the fit, a kernel drawn for the data's columns,
# and predict() rebuilding the same columns from a data frame.

formula_data <- function(n = 150, seed = 1) {
  set.seed(seed)
  data.frame(y = rnorm(n), a = rnorm(n), b = runif(n), g = factor(sample(c("lo", "mid", "hi"), n, TRUE)),
             flag = sample(c(TRUE, FALSE), n, TRUE))
}

test_that("the formula fit is the matrix fit on the expanded columns", {
  data <- formula_data()
  fit <- rff_ridge(y ~ a + b + g, data, kernel = gaussian_kernel(1), n_features = 20, seed = 3, lambda = 0.5)
  # one indicator column per level, no intercept column
  x <- cbind(a = data$a, b = data$b, ghi = data$g == "hi", glo = data$g == "lo", gmid = data$g == "mid") + 0
  expect_identical(fit$map$d, 5L)
  direct <- rff_ridge(x, data$y, rff_map(gaussian_kernel(1), 5, 20, seed = 3), lambda = 0.5)
  expect_equal(coef(fit), coef(direct), tolerance = 1e-12)
  expect_equal(unname(predict(fit, data[1:4, ])), unname(predict(direct, x[1:4, ])), tolerance = 1e-12)
  expect_equal(unname(fitted(fit)), unname(fitted(direct)), tolerance = 1e-12)
  # a logical is one 0/1 column; characters are factors
  chars <- transform(data, g = as.character(g))
  expect_equal(coef(rff_ridge(y ~ a + b + g, chars, kernel = gaussian_kernel(1), n_features = 20, seed = 3, lambda = 0.5)),
               coef(fit), tolerance = 1e-12)
  expect_identical(rff_ridge(y ~ a + flag, data, kernel = gaussian_kernel(1), n_features = 4, seed = 1)$map$d, 2L)
  # treatment contrasts when asked for
  treated <- rff_ridge(y ~ a + g, data, kernel = gaussian_kernel(1), n_features = 4, seed = 1,
                       contrasts = list(g = "contr.treatment"))
  expect_identical(treated$map$d, 3L)
  expect_equal(predict(treated, data[1:3, ]), fitted(treated)[1:3], tolerance = 1e-12)
})

test_that("subset, weights and na.action follow lm()", {
  data <- formula_data()
  data$a[c(3, 7)] <- NA
  data$y[10] <- NA
  data$w <- rep(1:3, length.out = nrow(data))
  omitted <- rff_ridge(y ~ a + b, data, kernel = gaussian_kernel(1), n_features = 10, seed = 2, lambda = 0.3)
  expect_equal(omitted$n, nrow(data) - 3)
  expect_length(fitted(omitted), nrow(data) - 3)
  excluded <- rff_ridge(y ~ a + b, data, kernel = gaussian_kernel(1), n_features = 10, seed = 2, lambda = 0.3,
                        na.action = na.exclude)
  expect_equal(coef(excluded), coef(omitted))
  expect_length(fitted(excluded), nrow(data))
  expect_identical(unname(which(is.na(residuals(excluded)))), c(3L, 7L, 10L))
  expect_identical(unname(which(is.na(predict(excluded)))), c(3L, 7L, 10L))
  # a new row with a missing predictor predicts NA; its neighbours are unchanged
  new <- data[1:4, ]
  new$b[2] <- NA
  predicted <- predict(omitted, new)
  expect_true(is.na(predicted[2]))
  expect_equal(predicted[-2], predict(omitted, new[-2, ]))
  expect_error(rff_ridge(y ~ a + b, data, kernel = gaussian_kernel(1), n_features = 10, na.action = na.fail),
               "model frame of `formula`", class = "askrff_error")
  # weights: integer weights are repeated rows
  complete <- data[stats::complete.cases(data), ]
  weighted <- rff_ridge(y ~ a + b, complete, weights = w, kernel = gaussian_kernel(1), n_features = 10, seed = 2,
                        lambda = 0.3)
  repeated <- complete[rep(seq_len(nrow(complete)), complete$w), ]
  expanded <- rff_ridge(y ~ a + b, repeated, kernel = gaussian_kernel(1), n_features = 10, seed = 2, lambda = 0.3)
  expect_equal(coef(weighted), coef(expanded), tolerance = 1e-10)
  # GCV's n counts rows of positive weight: the same only at a given lambda
  expect_equal(weighted$n, nrow(complete))
  # the matrix form takes the same weights
  x <- as.matrix(complete[, c("a", "b")])
  expect_equal(coef(rff_ridge(x, complete$y, weighted$map, lambda = 0.3, weights = complete$w)), coef(weighted),
               tolerance = 1e-12)
  # subset
  sub <- rff_ridge(y ~ a + b, data, subset = b > 0.5, kernel = gaussian_kernel(1), n_features = 10, seed = 2, lambda = 0.3)
  expect_equal(sub$n, sum(data$b > 0.5 & stats::complete.cases(data[, c("y", "a", "b")])))
  # rows of zero weight are left out of n, and the fit equals dropping them
  zero <- rff_ridge(x, complete$y, weighted$map, lambda = 0.3, weights = replace(complete$w, 1:5, 0))
  expect_equal(coef(zero), coef(rff_ridge(x[-(1:5), ], complete$y[-(1:5)], weighted$map, lambda = 0.3,
                                          weights = complete$w[-(1:5)])), tolerance = 1e-10)
  expect_equal(zero$n, nrow(complete) - 5)
})

test_that("weighted chunks give the weighted fit in memory", {
  data <- formula_data(n = 90)
  x <- as.matrix(data[, c("a", "b")])
  w <- seq(0.5, 2, length.out = 90)
  map <- rff_map(gaussian_kernel(1), 2, 12, seed = 4)
  chunks <- lapply(split(1:90, rep(1:3, each = 30)), function(i) list(x = x[i, ], y = data$y[i], w = w[i]))
  expect_equal(coef(rff_ridge(chunks, map = map)), coef(rff_ridge(x, data$y, map, weights = w)), tolerance = 1e-10)
  chunks[[2]]$w <- -w[31:60]
  expect_error(rff_ridge(chunks, map = map), "`w` of chunk 2 of `x`", class = "askrff_error")
})

test_that("predict() rebuilds the columns from a data frame; unseen levels are errors", {
  data <- formula_data()
  fit <- rff_ridge(y ~ a + g, data, kernel = gaussian_kernel(1), n_features = 8, seed = 5)
  # rows in another order and a subset of levels give the same predictions
  new <- data[c(5, 2, 9), c("g", "a")]
  new$g <- factor(as.character(new$g))
  expect_equal(unname(predict(fit, new)), unname(fitted(fit)[c(5, 2, 9)]), tolerance = 1e-12)
  new$g <- factor(c("lo", "top", "hi"))
  expect_error(predict(fit, new), "`newdata` does not fit the model's formula.*new level", class = "askrff_error")
  expect_error(predict(fit, data.frame(a = 1)), "`newdata` does not fit", class = "askrff_error")
  expect_error(predict(fit, 1:3), "`newdata` must be a data frame", class = "askrff_error")
})

test_that("standardize is kept in the fit and applied by predict()", {
  data <- formula_data()
  data$a <- data$a * 100 + 40
  fit <- rff_ridge(y ~ a + b, data, kernel = gaussian_kernel(1), n_features = 10, seed = 6, standardize = TRUE,
                   lambda = 0.2)
  x <- as.matrix(data[, c("a", "b")])
  expect_equal(fit$scaling$center, colMeans(x))
  expect_equal(fit$scaling$scale, apply(x, 2, sd))
  scaled <- rff_ridge(scale(x), data$y, fit$map, lambda = 0.2)
  expect_equal(coef(fit), coef(scaled), tolerance = 1e-12)
  expect_equal(unname(predict(fit, data[1:3, ])), unname(predict(scaled, scale(x)[1:3, ])), tolerance = 1e-12)
  # the matrix form keeps it too, and chunks need it given
  matrix_fit <- rff_ridge(x, data$y, fit$map, lambda = 0.2, standardize = TRUE)
  expect_equal(predict(matrix_fit, x[1:3, ]), predict(scaled, scale(x)[1:3, ]), tolerance = 1e-12)
  chunks <- list(list(x = x, y = data$y))
  expect_error(rff_ridge(chunks, map = fit$map, standardize = TRUE), "needs the data in memory", class = "askrff_error")
  expect_equal(coef(rff_ridge(chunks, map = fit$map, lambda = 0.2, standardize = fit$scaling)), coef(fit),
               tolerance = 1e-12)
  edited <- fit
  edited$scaling$scale[1] <- -1
  expect_error(predict(edited, data), "`object\\$scaling`", class = "askrff_error")
})

test_that("a kernel with n_features draws the map for the data's columns", {
  data <- formula_data()
  x <- as.matrix(data[, c("a", "b")])
  fit <- rff_ridge(x, data$y, kernel = matern_kernel(1, nu = 1.5), n_features = 16, method = "orthogonal", seed = 7,
                   lambda = 1)
  expect_identical(fit$map$d, 2L)
  map <- rff_map(matern_kernel(1, nu = 1.5), 2, 16, method = "orthogonal", seed = 7)
  expect_equal(coef(fit), coef(rff_ridge(x, data$y, map, lambda = 1)), tolerance = 1e-14)
  # A kernel in the map's place is the kernel, for every model.
  expect_equal(coef(rff_ridge(x, data$y, matern_kernel(1, nu = 1.5), n_features = 16, method = "orthogonal", seed = 7,
                              lambda = 1)), coef(fit), tolerance = 0)
  # without n_features, the map has 256 frequencies
  expect_identical(rff_ridge(x, data$y, gaussian_kernel(1), seed = 1, lambda = 1)$map$n_features, 256L)
  expect_error(rff_ridge(x, data$y, gaussian_kernel(1), kernel = gaussian_kernel(2), n_features = 4),
               "`map` is a kernel and `kernel` is given too", class = "askrff_error")
  binary <- data$y > median(data$y)
  expect_equal(coef(rff_glm(x, binary, gaussian_kernel(1), n_features = 8, seed = 3, lambda = 0.1)),
               coef(rff_glm(x, binary, kernel = gaussian_kernel(1), n_features = 8, seed = 3, lambda = 0.1)), tolerance = 0)
  expect_equal(unclass(rff_basis(x[, 1], x[, 2], map = gaussian_kernel(1), n_features = 4, seed = 2)),
               unclass(rff_basis(x[, 1], x[, 2], kernel = gaussian_kernel(1), n_features = 4, seed = 2)), tolerance = 0)
  basis_fit <- lm(y ~ rff_basis(a, b, map = gaussian_kernel(1), n_features = 4, seed = 2), data = data)
  expect_equal(predict(basis_fit, data[1:3, ]), fitted(basis_fit)[1:3], tolerance = 1e-12)
  expect_error(rff_ridge(x, data$y, kernel = "gauss"), "`kernel` must be one of", class = "askrff_error")
  expect_error(rff_ridge(x, data$y, map, kernel = gaussian_kernel(1)), "either `map` or `kernel`", class = "askrff_error")
  expect_error(rff_ridge(x, data$y, map, lamda = 1), "Unknown argument: `lamda`", class = "askrff_error")
  expect_error(rff_ridge(y ~ a, data, kernel = gaussian_kernel(1), n_features = 4, lamda = 1), "`lamda`",
               class = "askrff_error")
  expect_error(rff_ridge(y ~ 1, data, kernel = gaussian_kernel(1), n_features = 4), "at least one predictor",
               class = "askrff_error")
  expect_error(rff_ridge(~ a, data, kernel = gaussian_kernel(1), n_features = 4), "response", class = "askrff_error")
})

test_that("a saved formula fit predicts after readRDS() in a fresh session", {
  data <- formula_data()
  fit <- rff_ridge(y ~ a + g, data, kernel = gaussian_kernel(1), n_features = 8, seed = 5)
  path <- tempfile(fileext = ".rds")
  saveRDS(fit, path)
  on.exit(unlink(path))
  script <- sprintf("library(askrff); fit <- readRDS('%s'); cat(format(predict(fit, data.frame(a = 0.3, g = 'mid')), digits = 17))",
                    path)
  out <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(script)), stdout = TRUE)
  expect_equal(as.numeric(out), unname(predict(fit, data.frame(a = 0.3, g = "mid"))), tolerance = 1e-15)
})

test_that("a data frame with a factor given to the matrix form points to the formula method", {
  data <- formula_data()
  expect_error(rff_ridge(data[, c("a", "g")], data$y, kernel = gaussian_kernel(1), n_features = 4),
               "not numeric \\(g\\); the formula method", class = "askrff_error")
})
