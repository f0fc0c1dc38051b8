# Conformance of every entry of the core's table of model families
# (src/core/models/model_families.cpp): the tests take the families from
# the table, so a new family is tested without being named here.

families <- askrff:::model_families()

# Data of each kind of response: a data set, its encoded response (as the
# core reads it) for the rows, and the family's parameters: levels `tau`
# for values (given in no order; the fit sorts them), the tube `epsilon`
# of real numbers (wider than the width, so that the bands of its two kinks
# do not overlap; test-glm-svr.R takes the overlap), and for a loss with
# kinks a smoothing `width` at which its rows are differentiable.
family_data <- function(kind, traits, n = 60) {
  set.seed(11)
  x <- matrix(stats::rnorm(n * 2), n, 2)
  signal <- sin(2 * x[, 1]) + x[, 2]
  tau <- if (kind == "values") c(0.8, 0.2, 0.5)
  y <- switch(kind,
              two_classes = factor(ifelse(signal + stats::rnorm(n, sd = 0.7) > 0, "yes", "no")),
              classes = factor(cut(signal + stats::rnorm(n, sd = 0.5), c(-Inf, -0.5, 0.6, Inf), labels = c("a", "b", "c"))),
              counts = stats::rpois(n, exp(0.5 * signal)),
              values = , real = signal + stats::rnorm(n, sd = 0.5),
              survival = survival_times(0.5 * signal))
  # survival: the event indicators the rows read (helper-survival.R)
  encoded <- switch(kind, two_classes = matrix(as.double(y == "yes")), classes = outer(as.integer(y), 1:3, "==") + 0,
                    counts = , real = matrix(as.double(y)), values = matrix(y, n, length(tau)),
                    survival = matrix(as.double(y[, 2L])))
  list(x = x, y = y, encoded = encoded, w = stats::runif(n, 0.5, 2), tau = tau, epsilon = if (kind == "real") 0.5,
       levels = if (is.null(tau)) numeric() else sort(tau), width = if (traits$kinked) 0.3 else 0)
}

# The family's rows (half losses, residuals, curvatures) at eta.
family_rows <- function(traits, data, eta, width = data$width) {
  askrff:::.cpp_model_family_rows(traits$name, eta, data$encoded, data$levels,
                                  if (is.null(data$epsilon)) 0 else data$epsilon, width)
}

# The data sets a family is tested on: a one-vs-rest family takes two
# classes (one predictor) and three (one per class).
family_datasets <- function(traits) {
  kinds <- if (traits$response == "one_vs_rest") c("two_classes", "classes") else traits$response
  lapply(kinds, family_data, traits = traits)
}

test_that("every family declares its kind of response, its mean and every function it needs", {
  expect_true(length(families) >= 3L)
  for (traits in families) {
    expect_identical(traits$missing, character(), info = sprintf("the \"%s\" family lacks these functions", traits$name))
    expect_true(traits$response %in% c("two_classes", "classes", "counts", "one_vs_rest", "values", "real", "survival"),
                info = traits$name)
    expect_true(traits$mean %in% c("probability", "mean", "risk", "quantile", "expectile", "value", ""), info = traits$name)
    expect_true(isTRUE(traits$likelihood) || isFALSE(traits$likelihood), info = traits$name)
    expect_true(isTRUE(traits$kinked) || isFALSE(traits$kinked), info = traits$name)
    expect_true(is.character(traits$label) && nzchar(traits$label), info = traits$name)
  }
})

test_that("every family's residual is minus the gradient of its half loss, and its curvature the gradient's slope", {
  # central differences with step h have error O(h^2) times the third
  # derivative (O(1) here), well below the tolerance; the points avoid
  # kinks of piecewise-quadratic losses (and the edges of a smoothed kink's
  # band) by their random offsets
  h <- 1e-5
  for (traits in families) {
    for (data in family_datasets(traits)) {
      k <- ncol(data$encoded)
      eta <- matrix(stats::rnorm(nrow(data$encoded) * k, sd = 1.5), ncol = k) + 0.0137
      rows <- family_rows(traits, data, eta)
      expect_true(all(is.finite(rows$half)) && all(rows$half >= 0), info = traits$name)
      expect_true(all(rows$curvature >= 0), info = traits$name)
      for (j in seq_len(k)) {
        up <- eta
        down <- eta
        up[, j] <- up[, j] + h
        down[, j] <- down[, j] - h
        rows_up <- family_rows(traits, data, up)
        rows_down <- family_rows(traits, data, down)
        gradient <- (rows_up$half - rows_down$half) / (2 * h)
        expect_equal(-gradient, rows$residual[, j], tolerance = 1e-7, info = traits$name)
        slope <- -(rows_up$residual[, j] - rows_down$residual[, j]) / (2 * h)
        expect_equal(slope, rows$curvature[, j], tolerance = 1e-6, info = traits$name)
      }
    }
  }
})

test_that("a loss with kinks is smoothed within its band only, by at most a quarter of the width", {
  # the smoothed loss minus the exact one is (h - |r|)^2 / (4h) within h of
  # the kink (r the residual, or the margin 1 - s eta) and 0 outside: a row
  # at the kink gains h / 4 in loss, h / 8 in half loss
  for (traits in Filter(function(f) f$kinked, families)) {
    for (data in family_datasets(traits)) {
      k <- ncol(data$encoded)
      eta <- matrix(stats::rnorm(nrow(data$encoded) * k, sd = 1.5), ncol = k)
      # some rows exactly at the kink
      kink <- switch(traits$response, values = data$encoded[1:3, ], real = data$encoded[1:3, ] - data$epsilon,
                     2 * data$encoded[1:3, ] - 1)
      eta[1:3, ] <- kink
      excess <- family_rows(traits, data, eta)$half - family_rows(traits, data, eta, width = 0)$half
      expect_true(all(excess >= 0 & excess <= k * data$width / 8 + 1e-15), info = traits$name)
      expect_equal(excess[1:3], rep(k * data$width / 8, 3), tolerance = 1e-12, info = traits$name)
      expect_identical(family_rows(traits, data, eta + 10)$half, family_rows(traits, data, eta + 10, width = 0)$half,
                       info = traits$name)
    }
  }
})

# The survival kind's equivalent: no row's loss is its own, so the fit is
# checked against the partial likelihood's definition (helper-survival.R):
# the gradient of half its deviance plus lambda / 2 ||b||^2 (no intercept)
# vanishes, by central differences of step 1e-5, whose error (about 1e-10
# times the third derivative) lies far below the bound; the deviance is
# that of the definition.
check_survival_fit <- function(fit, data, z, lambda) {
  y <- data$y
  criterion <- function(b) {
    partial_deviance(drop(z %*% b), y[, 1L], y[, 2L], data$w, fit$ties) / 2 + lambda / 2 * sum(b^2)
  }
  b <- fit$coefficients[, 1L]
  gradient <- vapply(seq_along(b), function(j) {
    e <- replace(numeric(length(b)), j, 1e-5)
    (criterion(b + e) - criterion(b - e)) / 2e-5
  }, 0)
  expect_lt(max(abs(gradient)) / sum(data$w * y[, 2L]), 1e-7, label = "the Cox fit's relative gradient")
  eta <- drop(z %*% b)
  expect_equal(fit$deviance, partial_deviance(eta, y[, 1L], y[, 2L], data$w, fit$ties), tolerance = 1e-10)
  expect_equal(unname(predict(fit, data$x)), eta, tolerance = 1e-10)
}

test_that("every family's fit satisfies the optimality conditions of its criterion and reports its deviance", {
  # The criterion sum w half(eta) + lambda / 2 ||b||^2 is strictly convex in
  # the feature coefficients, so the fit is its minimizer exactly when the
  # gradient vanishes: a reference fit needs no other program. The fit stops
  # at a relative decrease of 1e-20 or once the gradient stops falling, which
  # leaves a gradient of order 1e-12 relative to the data's scale here.
  # A loss with kinks has a subgradient instead: the fit is its minimizer
  # when some residuals of the rows at a kink (within the last smoothing
  # width, where the fit's curvature is positive), each between the
  # residuals on either side of the kink, make the gradient vanish; least
  # squares finds them; those rows lie within the last width of the kink,
  # which must be small beside the first (here 1e-5; the fits stop near
  # 1e-8, where the exact criterion stops changing). The deviance is the
  # loss without smoothing.
  lambda <- 0.7
  for (traits in families) {
    for (data in family_datasets(traits)) {
      fit <- rff_glm(data$x, data$y, family = traits$name, tau = data$tau, epsilon = data$epsilon,
                     kernel = gaussian_kernel(1), n_features = 12,
                     seed = 2, lambda = lambda, weights = data$w)
      z <- cbind(1, rff_features(fit$map, data$x))
      eta <- sweep(z[, -1L] %*% fit$coefficients, 2L, fit$intercept, "+")
      if (traits$response == "survival") {
        check_survival_fit(fit, data, z[, -1L], lambda)
        next
      }
      expect_equal(is.null(fit$smoothing), !traits$kinked, info = traits$name)
      if (traits$kinked) expect_lt(utils::tail(fit$smoothing$width, 1L) / fit$smoothing$width[1L], 1e-5)
      rows <- family_rows(traits, data, eta, width = if (traits$kinked) utils::tail(fit$smoothing$width, 1L) else 0)
      residual <- rows$residual
      at_kink <- traits$kinked & rows$curvature > 0
      for (j in seq_len(ncol(eta))) {
        kink <- at_kink[, j]
        target <- lambda * c(0, fit$coefficients[, j]) - crossprod(z[!kink, ], data$w[!kink] * residual[!kink, j])
        if (!any(kink)) next
        # the residuals on either side of the kink, far past it
        sides <- cbind(family_rows(traits, data, eta + 100, width = 0)$residual[kink, j],
                       family_rows(traits, data, eta - 100, width = 0)$residual[kink, j])
        free <- qr.solve(t(data$w[kink] * z[kink, , drop = FALSE]), target)
        expect_true(all(free >= apply(sides, 1L, min) - 1e-9 & free <= apply(sides, 1L, max) + 1e-9), info = traits$name)
        residual[kink, j] <- free
      }
      gradient <- -crossprod(z, data$w * residual) + lambda * rbind(0, fit$coefficients)
      scale <- sum(data$w * abs(rows$residual))
      expect_lt(max(abs(gradient)) / scale, 1e-9, label = sprintf("the \"%s\" fit's relative gradient", traits$name))
      exact <- family_rows(traits, data, eta, width = 0)
      expect_equal(fit$deviance, 2 * sum(data$w * exact$half), tolerance = 1e-10, info = traits$name)
      expect_equal(unname(predict(fit, data$x)), unname(drop(eta)), tolerance = 1e-10, info = traits$name)
    }
  }
})

test_that("every family's fit prints, predicts what its traits promise, and survives saving", {
  for (traits in families) {
    for (data in family_datasets(traits)) {
      fit <- rff_glm(data$x, data$y, family = traits$name, tau = data$tau, epsilon = data$epsilon,
                     kernel = gaussian_kernel(1), n_features = 8,
                     seed = 3, nfolds = 3)
      expect_output(print(fit), traits$label, fixed = TRUE)
      # a family without a likelihood reports its loss, and refuses logLik()
      expect_output(print(fit), if (traits$likelihood) "deviance" else "loss", fixed = TRUE)
      if (!traits$likelihood) expect_error(logLik(fit), "needs a family with a likelihood", class = "askrff_error")
      saved <- tempfile(fileext = ".rds")
      saveRDS(fit, saved)
      expect_identical(predict(readRDS(saved), data$x[1:5, ]), predict(fit, data$x[1:5, ]))
      if (traits$response %in% c("counts", "values", "real", "survival")) {
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
        if (traits$mean %in% c("mean", "risk")) expect_true(all(mean > 0))
        if (traits$mean == "value") expect_identical(mean, predict(fit, data$x))
        # the levels' predictions, rearranged: each row's link values in increasing order
        if (traits$response == "values") {
          expect_identical(colnames(mean), paste0("tau=", data$levels))
          expect_equal(unname(mean), unname(t(apply(predict(fit, data$x), 1L, sort))))
        }
      }
    }
  }
})
