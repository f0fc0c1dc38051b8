# Quantile and expectile regression with rff_glm(): fits against a quadratic
# program of the same penalized objective on the same features (HiGHS),
# several levels at once, their predictions and rearrangement, the levels'
# checks, and what the fits say of their loss.

quantile_data <- function(n = 150, seed = 3) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * 2), n, 2)
  list(x = x, y = sin(2 * x[, 1]) + x[, 2] + (1 + abs(x[, 2])) * stats::rnorm(n, sd = 0.4),
       w = stats::runif(n, 0.5, 2), offset = stats::rnorm(n, sd = 0.3))
}

# The fit's penalized objective sum w rho_tau(y - o - eta) + lambda ||b||^2,
# summed over its levels.
quantile_objective <- function(fit, z, y, w, lambda, offset = 0) {
  sum(vapply(seq_along(fit$tau), function(j) {
    r <- y - offset - fit$intercept[j] - drop(z %*% fit$coefficients[, j])
    sum(w * check_loss(r, fit$tau[j])) + lambda * sum(fit$coefficients[, j]^2)
  }, 0))
}

test_that("quantile fits at one and several levels reach the minimum of the same quadratic program", {
  skip_if_not_installed("highs")
  # HiGHS solves the objective as a QP to feasibility 1e-10; rff_glm()
  # smooths the kink and shrinks the smoothing until the exact objective
  # changes by less than 1e-9 of itself (measured: within 1e-10 of the QP's).
  # The issue's bound is 1e-6 relative; the coefficients, unique since the
  # objective is strictly convex in them, agree to the QP's own accuracy.
  data <- quantile_data()
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 4)
  z <- rff_features(map, data$x)
  for (lambda in c(3, 0.05)) {
    for (tau in list(0.5, c(0.9, 0.1, 0.25))) {
      fit <- rff_glm(data$x, data$y, map, family = "quantile", tau = tau, lambda = lambda, weights = data$w)
      expect_identical(fit$tau, sort(tau))
      qp <- lapply(sort(tau), function(t) quantile_qp(z, data$y, data$w, t, lambda))
      minimum <- sum(vapply(qp, `[[`, 0, "objective"))
      ours <- quantile_objective(fit, z, data$y, data$w, lambda)
      expect_lt(abs(ours - minimum) / minimum, 1e-6)
      expect_equal(unname(rbind(fit$intercept, fit$coefficients)), sapply(qp, `[[`, "coefficients"), tolerance = 1e-5)
      # the deviance is the check loss, exactly, and the criterion's
      expect_equal(fit$deviance + lambda * sum(fit$coefficients^2), ours, tolerance = 1e-12)
    }
  }
})

test_that("a quantile fit with an offset minimises the objective of the responses less the offset", {
  skip_if_not_installed("highs")
  data <- quantile_data(seed = 4)
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 5)
  z <- rff_features(map, data$x)
  fit <- rff_glm(data$x, data$y, map, family = "quantile", tau = c(0.3, 0.8), lambda = 0.5, offset = data$offset)
  minimum <- sum(vapply(c(0.3, 0.8), function(t) quantile_qp(z, data$y, 1, t, 0.5, data$offset)$objective, 0))
  expect_lt(abs(quantile_objective(fit, z, data$y, 1, 0.5, data$offset) - minimum) / minimum, 1e-6)
  # one offset for every level's predictor
  expect_equal(predict(fit, data$x[1:3, ], offset = data$offset[1:3]),
               predict(fit, data$x[1:3, ], offset = rep(0, 3)) + data$offset[1:3])
  # the intercept-only model is the levels' weighted quantiles of y - o: its
  # loss, the null deviance, is the QP's with no features
  null <- sum(vapply(c(0.3, 0.8), function(t) quantile_qp(matrix(0, nrow(z), 0), data$y, 1, t, 0, data$offset)$objective, 0))
  expect_equal(fit$null_deviance, null, tolerance = 1e-8)
})

test_that("offsets thousands of smoothing widths apart reach the fit, not a point on the way", {
  # two rows offset by 2,000: the loss is linear in the intercept for
  # thousands of widths, over which the intercept-only model's Newton steps,
  # cut at 20 widths, stopped after 100 (a fit of objective 2,374 against
  # 2,002 came back with no warning of its own); a step taken whole at the
  # limit now doubles it
  x <- fixture_points(5, 3, seed = 3)
  y <- c(0.3, -1.2, 2, 0.7, 1.1)
  o <- c(0, 2000, 0, 2000, 0)
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  fit <- expect_no_warning(rff_glm(x, y, map, family = "quantile", lambda = 1, offset = o))
  z <- rff_features(map, x)
  # the QP of the three rows near the fit: the far rows stay on the check
  # loss's lower branch, adding (1 - tau) (o + eta - y), linear in (b0, b)
  near <- c(1, 3, 5)
  far <- c(2, 4)
  p <- ncol(z) + 1L
  qp <- qp_solve(quadratic = c(0, rep(2, p - 1L), rep(0, 6)),
                 linear = c(0.5 * colSums(cbind(1, z)[far, ]), rep(0.5, 6)), lower = c(rep(-Inf, p), rep(0, 6)),
                 constraints = cbind(1, z[near, ], diag(3), -diag(3)), lhs = y[near], rhs = y[near], p = p)
  minimum <- qp$objective + 0.5 * sum(o[far] - y[far])
  expect_lt(abs(quantile_objective(fit, z, y, 1, 1, o) - minimum) / minimum, 1e-9)
  # the null deviance at the median of y - o
  expect_equal(fit$null_deviance, min(vapply(y - o, function(b) sum(check_loss(y - o - b, 0.5)), 0)), tolerance = 1e-10)
})

test_that("several levels are fitted as each alone, and a chunk source as data in memory", {
  data <- quantile_data(seed = 5)
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 6)
  both <- rff_glm(data$x, data$y, map, family = "quantile", tau = c(0.2, 0.7), lambda = 0.3)
  alone <- vapply(c(0.2, 0.7), function(t) {
    fit <- rff_glm(data$x, data$y, map, family = "quantile", tau = t, lambda = 0.3)
    c(fit$intercept, fit$coefficients)
  }, numeric(33))
  # each level solved to its minimizer: the same up to the last widths' rounding
  expect_equal(unname(rbind(both$intercept, both$coefficients)), unname(alone), tolerance = 1e-7)
  chunks <- list(list(x = data$x[1:70, ], y = data$y[1:70]), list(x = data$x[71:150, ], y = data$y[71:150]))
  streamed <- rff_glm(chunks, map = map, family = "quantile", tau = c(0.2, 0.7), lambda = 0.3)
  expect_equal(streamed$coefficients, both$coefficients, tolerance = 1e-7)
  expect_equal(streamed$null_deviance, both$null_deviance, tolerance = 1e-10)
})

test_that("predictions have a column per level named by tau, and type = \"response\" rearranges them", {
  # many crossings: close levels, a small penalty, new rows beyond the data
  set.seed(1)
  x <- matrix(stats::runif(120, -1, 1), 60, 2)
  y <- x[, 1] + stats::rnorm(60, sd = 0.3)
  tau <- c(0.6, 0.4, 0.5)
  fit <- rff_glm(x, y, family = "quantile", tau = tau, kernel = gaussian_kernel(0.3), n_features = 64, seed = 1,
                 lambda = 0.01)
  new <- matrix(stats::runif(800, -1.5, 1.5), 400, 2)
  link <- predict(fit, new)
  expect_identical(colnames(link), c("tau=0.4", "tau=0.5", "tau=0.6"))
  expect_identical(colnames(coef(fit)), colnames(link))
  crossed <- link[, 1] > link[, 2] | link[, 2] > link[, 3]
  expect_gt(sum(crossed), 50)
  response <- predict(fit, new, type = "response")
  expect_identical(dimnames(response), dimnames(link))
  expect_equal(unname(response), unname(t(apply(link, 1L, sort))))
  # never worse: the summed check loss of every row at any response, here
  # the new rows' own, is no larger once rearranged; it differs between
  # orders only by -sum tau_j q_j, whatever the response
  y_new <- new[, 1] + stats::rnorm(400, sd = 0.3)
  loss <- function(q) rowSums(sapply(1:3, function(j) check_loss(y_new - q[, j], sort(tau)[j])))
  expect_true(all(loss(response) <= loss(link) + 1e-12))
  expect_equal(loss(link) - loss(response), drop((response - link) %*% sort(tau)), tolerance = 1e-12)
  expect_gt(sum((loss(link) - loss(response))[crossed]), 0)
  expect_equal(fitted(fit), t(apply(fit$linear_predictors, 1L, sort)), ignore_attr = TRUE)
  expect_error(predict(fit, new, type = "class"), "needs a fit to classes", class = "askrff_error")
  # one level: a vector, as for the other families
  one <- rff_glm(x, y, family = "quantile", kernel = gaussian_kernel(0.3), n_features = 8, seed = 1, lambda = 1)
  expect_identical(one$tau, 0.5)
  expect_null(dim(predict(one, new[1:3, ])))
})

test_that("the levels are checked, in any order, and only families of levels take them", {
  x <- matrix(stats::rnorm(40), 20, 2)
  y <- x[, 1] + stats::rnorm(20)
  map <- rff_map(gaussian_kernel(1), 2, 4, seed = 1)
  for (bad in list(0, 1, -0.2, 1.5, NA, NaN, c(0.5, NA), "0.5", numeric(), matrix(0.5), list(0.5), TRUE)) {
    expect_error(rff_glm(x, y, map, family = "quantile", tau = bad, lambda = 1), "`tau` must be one or more levels",
                 class = "askrff_error")
  }
  expect_error(rff_glm(x, y, map, family = "quantile", tau = c(0.5, 0.2, 0.5), lambda = 1), "distinct levels; 0.5",
               class = "askrff_error")
  expect_error(rff_glm(x, y > 0, map, family = "binomial", tau = 0.5, lambda = 1), "`tau` is for the families of levels",
               class = "askrff_error")
  expect_error(rff_glm(x, factor(y > 0), map, family = "quantile", lambda = 1), "must be finite numbers",
               class = "askrff_error")
  sorted <- rff_glm(x, y, map, family = "expectile", tau = c(0.2, 0.9), lambda = 1)
  shuffled <- rff_glm(x, y, map, family = "expectile", tau = c(0.9, 0.2), lambda = 1)
  expect_identical(shuffled$coefficients, sorted$coefficients)
  frame <- data.frame(y = y, a = x[, 1], b = x[, 2])
  formula <- rff_glm(y ~ a + b, frame, family = "quantile", tau = c(0.9, 0.2), map = map, lambda = 1)
  expect_equal(formula$coefficients, rff_glm(x, y, map, family = "quantile", tau = c(0.2, 0.9), lambda = 1)$coefficients)
})

test_that("expectiles are asymmetric least squares: at 1/2, rff_ridge() at twice the penalty", {
  data <- quantile_data(seed = 6)
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 7)
  z <- cbind(1, rff_features(map, data$x))
  lambda <- 0.8
  half <- rff_glm(data$x, data$y, map, family = "expectile", tau = 0.5, lambda = lambda, weights = data$w)
  ridge <- rff_ridge(data$x, data$y, map, lambda = 2 * lambda, weights = data$w, standardize = FALSE)
  expect_equal(unname(c(half$intercept, half$coefficients)), unname(c(ridge$intercept, ridge$coefficients)), tolerance = 1e-9)
  # other levels: the fixed point of weighted ridge regression with weights
  # w |tau - 1{r < 0}|, which Newton's method on the piecewise quadratic
  # reaches exactly once the signs of the residuals stop changing
  fit <- rff_glm(data$x, data$y, map, family = "expectile", tau = c(0.1, 0.8), lambda = lambda, weights = data$w)
  for (j in 1:2) {
    tau <- fit$tau[j]
    b <- c(fit$intercept[j], fit$coefficients[, j])
    for (step in 1:50) {
      a <- data$w * ifelse(data$y - drop(z %*% b) < 0, 1 - tau, tau)
      b <- solve(crossprod(z, a * z) + diag(c(0, rep(lambda, ncol(z) - 1L))), crossprod(z, a * data$y))
    }
    expect_equal(unname(c(fit$intercept[j], fit$coefficients[, j])), drop(b), tolerance = 1e-9)
  }
})

test_that("quantile and expectile fits report their loss and claim no likelihood", {
  data <- quantile_data(n = 80, seed = 8)
  for (family in c("quantile", "expectile")) {
    fit <- rff_glm(data$x, data$y, family = family, tau = c(0.25, 0.75), kernel = gaussian_kernel(1), n_features = 8,
                   seed = 2, nfolds = 3)
    expect_output(print(fit), sprintf("%s, tau = 0.25, 0.75", family), fixed = TRUE)
    expect_output(print(fit), "loss .*, null loss")
    expect_output(print(summary(fit)), "Residual loss: .*AIC: none \\(the loss is no likelihood\\)")
    expect_identical(deviance(fit), fit$deviance)
    for (method in list(logLik, AIC, vcov)) {
      expect_error(method(fit), "needs a family with a likelihood", class = "askrff_error")
    }
    # lambda by the cross-validated loss, per unit weight
    expect_true("cv" %in% names(fit$path))
    expect_identical(is.null(fit$smoothing), family == "expectile")
  }
  # the smoothing the quantile fit went through: decreasing widths, each's passes
  expect_true(all(diff(fit$smoothing$width) < 0) || nrow(fit$smoothing) == 1L)
})
