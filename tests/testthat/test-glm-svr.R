# Support vector regression with rff_glm(): the epsilon-insensitive losses
# against a quadratic program of the same penalized objective on the same
# features (HiGHS), the intercept-only fit against a 1-D minimization, the
# L1 loss at epsilon = 0 against the median's, the smoothing's bound, and
# the checks of `epsilon`.

svr_data <- function(n = 120, seed = 7) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * 2), n, 2)
  list(x = x, y = sin(2 * x[, 1]) + x[, 2] + stats::rnorm(n, sd = 0.3), w = stats::runif(n, 0.5, 2),
       offset = stats::rnorm(n, sd = 0.3))
}

# The fit's penalized objective sum w loss(y - o - eta) + lambda ||b||^2.
svr_objective <- function(fit, z, y, w, lambda, offset = 0, squared = FALSE) {
  r <- y - offset - fit$intercept[[1L]] - drop(z %*% fit$coefficients[, 1L])
  sum(w * svr_loss(r, fit$epsilon, squared)) + lambda * sum(fit$coefficients^2)
}

test_that("both losses reach the minimum of the same quadratic program, with weights and an offset", {
  skip_if_not_installed("highs")
  # HiGHS solves the objective to feasibility 1e-10; the L1 loss's fit
  # shrinks its smoothing until the exact objective changes by less than
  # 1e-9 of itself, the squared loss's is once differentiable and needs
  # none. The issue's bound is 1e-6 relative. epsilon 0.05 is a fifth of
  # the first smoothing width (a quarter of sd(y), about 0.3), so the two
  # kinks' bands overlap; 0.6 keeps them apart.
  data <- svr_data()
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 4)
  z <- rff_features(map, data$x)
  for (squared in c(FALSE, TRUE)) {
    family <- if (squared) "squared_epsilon_insensitive" else "epsilon_insensitive"
    for (epsilon in c(0.05, 0.6)) {
      for (lambda in c(2, 0.05)) {
        fit <- rff_glm(data$x, data$y, map, family = family, epsilon = epsilon, lambda = lambda, weights = data$w,
                       offset = data$offset)
        expect_identical(fit$epsilon, epsilon)
        qp <- svr_qp(z, data$y, data$w, epsilon, lambda, data$offset, squared)
        ours <- svr_objective(fit, z, data$y, data$w, lambda, data$offset, squared)
        expect_lt(abs(ours - qp$objective) / qp$objective, 1e-6)
        # the deviance is the exact loss, the criterion's first term
        expect_equal(fit$deviance + lambda * sum(fit$coefficients^2), ours, tolerance = 1e-12)
        expect_identical(is.null(fit$smoothing), squared)
      }
    }
  }
})

test_that("the intercept-only fit is the 1-D minimum of the loss, offset or not", {
  # The L1 loss of an intercept b is piecewise linear and convex in b, with
  # its breakpoints at y_i - o_i +- epsilon: its minimum is the least value
  # at those. The squared one is smooth: optimize() to 1e-12 moves its value
  # by about 1e-24 times its curvature.
  data <- svr_data(n = 40, seed = 8)
  map <- rff_map(gaussian_kernel(1), 2, 8, seed = 2)
  for (offset in list(0, data$offset)) {
    target <- data$y - offset
    l1 <- function(b) sum(data$w * svr_loss(target - b, 0.2))
    breakpoints <- c(target - 0.2, target + 0.2)
    fit <- rff_glm(data$x, data$y, map, family = "epsilon_insensitive", epsilon = 0.2, lambda = 1,
                   weights = data$w, offset = if (length(offset) > 1L) offset)
    expect_equal(fit$null_deviance, min(vapply(breakpoints, l1, 0)), tolerance = 1e-9)
    l2 <- function(b) sum(data$w * svr_loss(target - b, 0.2, squared = TRUE))
    fit <- rff_glm(data$x, data$y, map, family = "squared_epsilon_insensitive", epsilon = 0.2, lambda = 1,
                   weights = data$w, offset = if (length(offset) > 1L) offset)
    expect_equal(fit$null_deviance, stats::optimize(l2, range(target), tol = 1e-12)$objective, tolerance = 1e-9)
  }
})

test_that("at epsilon = 0 the L1 loss is the absolute error, twice the median's check loss", {
  # |r| = 2 rho_0.5(r): sum |r| + lambda ||b||^2 is twice sum rho_0.5(r) +
  # (lambda / 2) ||b||^2, the same minimizer; both fits reach their minima
  # to about 1e-9 relative, the coefficients to the QP's accuracy.
  data <- svr_data(seed = 9)
  map <- rff_map(gaussian_kernel(1), 2, 12, seed = 3)
  svr <- rff_glm(data$x, data$y, map, family = "epsilon_insensitive", epsilon = 0, lambda = 0.4, weights = data$w)
  median <- rff_glm(data$x, data$y, map, family = "quantile", tau = 0.5, lambda = 0.2, weights = data$w)
  expect_equal(svr$deviance, 2 * median$deviance, tolerance = 1e-7)
  expect_equal(unname(svr$coefficients), unname(median$coefficients), tolerance = 1e-4)
  expect_equal(svr$null_deviance, 2 * median$null_deviance, tolerance = 1e-8)
})

test_that("the smoothed L1 loss is convex, at least the exact one and at most h / 2 above it", {
  # in half losses: each smoothed hinge rises by (h - |u|)^2 / (8h) within
  # its band; the rise is largest at a kink, r = epsilon, where the other
  # band adds (h - 2 epsilon)^2 / (8h) if 2 epsilon < h: at most h / 4 in
  # all (epsilon = 0), h / 8 once epsilon >= h / 2. The smoothed half
  # loss's second differences are >= 0 (convex).
  h <- 0.3
  r <- seq(-1, 1, by = 1e-3)
  for (epsilon in c(0, 0.1, 0.2, 0.5)) {
    rows <- function(width) {
      askrff:::.cpp_model_family_rows("epsilon_insensitive", matrix(-r), matrix(0, length(r), 1L), numeric(), epsilon,
                                      width)
    }
    smooth <- rows(h)
    excess <- smooth$half - rows(0)$half
    bound <- (h^2 + max(h - 2 * epsilon, 0)^2) / (8 * h)
    expect_true(all(excess >= 0 & excess <= bound + 1e-15), info = epsilon)
    expect_equal(max(excess), bound, tolerance = 1e-6, info = epsilon)
    expect_true(all(diff(smooth$half, differences = 2) >= -1e-15), info = epsilon)
    expect_true(all(smooth$curvature >= 0 & smooth$curvature <= 1 / (2 * h)), info = epsilon)
  }
})

test_that("the fit keeps epsilon, prints it, and predicts values, not classes", {
  data <- svr_data(n = 60)
  fit <- rff_glm(data$x, data$y, family = "epsilon_insensitive", kernel = gaussian_kernel(1), n_features = 8, seed = 1,
                 nfolds = 3)
  # kernlab's default tube
  expect_identical(fit$epsilon, 0.1)
  expect_output(print(fit), "epsilon-insensitive, epsilon = 0.1", fixed = TRUE)
  expect_identical(predict(fit, data$x, type = "response"), predict(fit, data$x))
  expect_error(predict(fit, data$x, type = "class"), "needs a fit to classes", class = "askrff_error")
  expect_error(logLik(fit), "needs a family with a likelihood", class = "askrff_error")
  broken <- fit
  broken$epsilon <- -1
  expect_error(predict(broken, data$x), "epsilon", class = "askrff_error")
  broken$epsilon <- NULL
  expect_error(predict(broken, data$x), "epsilon", class = "askrff_error")
  other <- rff_glm(data$x, data$y, family = "quantile", kernel = gaussian_kernel(1), n_features = 8, seed = 1, nfolds = 3)
  other$epsilon <- 0.1
  expect_error(predict(other, data$x), "no tube", class = "askrff_error")
})

test_that("bad epsilons and epsilon for a family without a tube are errors naming it", {
  data <- svr_data(n = 30)
  map <- rff_map(gaussian_kernel(1), 2, 4, seed = 1)
  for (bad in list(-0.1, NA_real_, Inf, NaN, c(0.1, 0.2), "0.1", numeric(), TRUE)) {
    expect_error(rff_glm(data$x, data$y, map, family = "epsilon_insensitive", epsilon = bad, lambda = 1),
                 "`epsilon` must be one finite nonnegative number", class = "askrff_error")
  }
  expect_error(rff_glm(data$x, data$y, map, family = "quantile", epsilon = 0.1, lambda = 1),
               "`epsilon` is for the families of a tube", class = "askrff_error")
  expect_error(rff_glm(y ~ ., data.frame(y = data$y, data$x), family = "expectile", epsilon = 0, map = map,
                       lambda = 1), "`epsilon` is for the families of a tube", class = "askrff_error")
})
