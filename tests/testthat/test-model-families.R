# Conformance of every entry of the core's table of model families
# (src/core/models/model_families.cpp): the tests take the families from
# the table, so a new family is tested without being named here.

families <- askrff:::model_families()

# Data of each kind of response: a data set and its encoded response (as
# the core reads it) for the rows.
family_data <- function(kind, n = 60) {
  set.seed(11)
  x <- matrix(stats::rnorm(n * 2), n, 2)
  signal <- sin(2 * x[, 1]) + x[, 2]
  y <- switch(kind,
              two_classes = factor(ifelse(signal + stats::rnorm(n, sd = 0.7) > 0, "yes", "no")),
              classes = factor(cut(signal + stats::rnorm(n, sd = 0.5), c(-Inf, -0.5, 0.6, Inf), labels = c("a", "b", "c"))),
              counts = stats::rpois(n, exp(0.5 * signal)))
  encoded <- switch(kind, two_classes = matrix(as.double(y == "yes")), classes = outer(as.integer(y), 1:3, "==") + 0,
                    counts = matrix(as.double(y)))
  list(x = x, y = y, encoded = encoded, w = stats::runif(n, 0.5, 2))
}

# The data sets a family is tested on: a one-vs-rest family takes two
# classes (one predictor) and three (one per class).
family_datasets <- function(traits) {
  kinds <- if (traits$response == "one_vs_rest") c("two_classes", "classes") else traits$response
  lapply(kinds, family_data)
}

test_that("every family declares its kind of response, its mean and every function it needs", {
  expect_true(length(families) >= 3L)
  for (traits in families) {
    expect_identical(traits$missing, character(), info = sprintf("the \"%s\" family lacks these functions", traits$name))
    expect_true(traits$response %in% c("two_classes", "classes", "counts", "one_vs_rest"), info = traits$name)
    expect_true(traits$mean %in% c("probability", "mean", ""), info = traits$name)
    expect_true(is.character(traits$label) && nzchar(traits$label), info = traits$name)
  }
})

test_that("every family's residual is minus the gradient of its half loss, and its curvature the gradient's slope", {
  # central differences with step h have error O(h^2) times the third
  # derivative (O(1) here), well below the tolerance; the points avoid
  # kinks of piecewise-quadratic losses by their random offsets
  h <- 1e-5
  for (traits in families) {
    for (data in family_datasets(traits)) {
      k <- ncol(data$encoded)
      eta <- matrix(stats::rnorm(nrow(data$encoded) * k, sd = 1.5), ncol = k) + 0.0137
      rows <- askrff:::.cpp_model_family_rows(traits$name, eta, data$encoded)
      expect_true(all(is.finite(rows$half)) && all(rows$half >= 0), info = traits$name)
      expect_true(all(rows$curvature >= 0), info = traits$name)
      for (j in seq_len(k)) {
        up <- eta
        down <- eta
        up[, j] <- up[, j] + h
        down[, j] <- down[, j] - h
        rows_up <- askrff:::.cpp_model_family_rows(traits$name, up, data$encoded)
        rows_down <- askrff:::.cpp_model_family_rows(traits$name, down, data$encoded)
        gradient <- (rows_up$half - rows_down$half) / (2 * h)
        expect_equal(-gradient, rows$residual[, j], tolerance = 1e-7, info = traits$name)
        slope <- -(rows_up$residual[, j] - rows_down$residual[, j]) / (2 * h)
        expect_equal(slope, rows$curvature[, j], tolerance = 1e-6, info = traits$name)
      }
    }
  }
})

test_that("every family's fit satisfies the optimality conditions of its criterion and reports its deviance", {
  # The criterion sum w half(eta) + lambda / 2 ||b||^2 is strictly convex in
  # the feature coefficients, so the fit is its minimizer exactly when the
  # gradient vanishes: a reference fit needs no other program. The fit stops
  # at a relative decrease of 1e-20 or once the gradient stops falling, which
  # leaves a gradient of order 1e-12 relative to the data's scale here.
  lambda <- 0.7
  for (traits in families) {
    for (data in family_datasets(traits)) {
      fit <- rff_glm(data$x, data$y, family = traits$name, kernel = gaussian_kernel(1), n_features = 12, seed = 2,
                     lambda = lambda, weights = data$w)
      z <- rff_features(fit$map, data$x)
      eta <- sweep(z %*% fit$coefficients, 2L, fit$intercept, "+")
      rows <- askrff:::.cpp_model_family_rows(traits$name, eta, data$encoded)
      gradient <- -crossprod(cbind(1, z), data$w * rows$residual) + lambda * rbind(0, fit$coefficients)
      scale <- sum(data$w * abs(rows$residual))
      expect_lt(max(abs(gradient)) / scale, 1e-9, label = sprintf("the \"%s\" fit's relative gradient", traits$name))
      expect_equal(fit$deviance, 2 * sum(data$w * rows$half), tolerance = 1e-10, info = traits$name)
      expect_equal(unname(predict(fit, data$x)), unname(drop(eta)), tolerance = 1e-10, info = traits$name)
    }
  }
})

test_that("every family's fit prints, predicts what its traits promise, and survives saving", {
  for (traits in families) {
    for (data in family_datasets(traits)) {
      fit <- rff_glm(data$x, data$y, family = traits$name, kernel = gaussian_kernel(1), n_features = 8, seed = 3,
                     nfolds = 3)
      expect_output(print(fit), traits$label, fixed = TRUE)
      saved <- tempfile(fileext = ".rds")
      saveRDS(fit, saved)
      expect_identical(predict(readRDS(saved), data$x[1:5, ]), predict(fit, data$x[1:5, ]))
      if (traits$response == "counts") {
        expect_error(predict(fit, data$x, type = "class"), "needs a fit to classes", class = "askrff_error")
      } else {
        classes <- predict(fit, data$x, type = "class")
        expect_identical(levels(classes), levels(data$y))
      }
      if (identical(traits$mean, "")) {
        expect_error(predict(fit, data$x, type = "response"), "gives scores", class = "askrff_error")
      } else {
        mean <- predict(fit, data$x, type = "response")
        if (traits$mean == "probability" && is.matrix(mean)) expect_equal(unname(rowSums(mean)), rep(1, nrow(data$x)))
        if (traits$mean == "probability") expect_true(all(mean >= 0 & mean <= 1))
        if (traits$mean == "mean") expect_true(all(mean > 0))
      }
    }
  }
})
