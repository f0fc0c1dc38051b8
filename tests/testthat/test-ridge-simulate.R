# simulate() of rff_ridge() fits: draws of the whole function from the
# posterior that predict()'s standard errors and intervals read.

simulate_fit <- function(n = 300) {
  set.seed(11)
  x <- matrix(stats::runif(2 * n, -2, 2), n)
  y <- sin(2 * x[, 1]) + x[, 2] / 2 + stats::rnorm(n, sd = 0.3)
  map <- rff_map(gaussian_kernel(0.8), 2, 20, seed = 3)
  list(x = x, y = y, map = map, fit = rff_ridge(x, y, map, lambda = 0.5))
}

test_that("the draws' covariance across rows is the posterior's, with sigma^2's t inflation", {
  # few rows, so that the residual degrees of freedom are few and sigma^2's
  # draws visibly widen the draws (by df / (df - 2))
  n <- 40
  setup <- simulate_fit(n)
  fit <- setup$fit
  new <- rbind(c(0, 0), c(0.1, 0), c(1.5, -1), c(-1.9, 1.9))
  # the posterior covariance of b0 + z'b from the training features directly:
  # s^2 (1 / n + (z - m)' (Zc'Zc + lambda I)^-1 (z' - m)), unit weights
  z <- rff_features(setup$map, setup$x)
  m <- colMeans(z)
  centred <- sweep(z, 2L, m)
  znew <- sweep(rff_features(setup$map, new), 2L, m)
  s2 <- predict(fit, new, se.fit = TRUE)$residual.scale^2
  exact <- s2 * (1 / n + znew %*% solve(crossprod(centred) + 0.5 * diag(ncol(z)), t(znew)))
  expect_equal(sqrt(diag(exact)), unname(predict(fit, new, se.fit = TRUE)$se.fit), tolerance = 1e-8)
  nsim <- 20000
  draws <- as.matrix(simulate(fit, nsim, seed = 5, newdata = new))
  df <- n - fit$path$df[fit$path$lambda == fit$lambda]
  expect_lt(df, 40)
  expected <- exact * df / (df - 2)
  # variances to 5 % (their relative standard error is sqrt((2 + 6 / (df -
  # 4)) / nsim), about 1 %, where df / (df - 2) is 5 to 10 % above 1),
  # correlations to 0.05 (standard error at most 1 / sqrt(nsim), 0.007)
  empirical <- stats::cov(t(draws))
  expect_equal(unname(diag(empirical)), diag(expected), tolerance = 0.05)
  expect_lt(max(abs(stats::cov2cor(empirical) - stats::cov2cor(expected))), 0.05)
  # the draws centre on the fit: within 5 standard errors of their mean
  expect_lt(max(abs(rowMeans(draws) - predict(fit, new)) / sqrt(diag(expected) / nsim)), 5)
  # each row's draws follow the t of the confidence interval: its bounds are
  # the draws' 2.5 % and 97.5 % quantiles, to a tenth of a standard error
  # (the quantiles' own standard error is 0.02 of it)
  bounds <- predict(fit, new, interval = "confidence")
  quantiles <- t(apply(draws, 1L, stats::quantile, c(0.025, 0.975)))
  expect_lt(max(abs(quantiles - bounds[, c("lwr", "upr")]) / sqrt(diag(exact))), 0.1)
  # new responses: the prediction interval's spread
  noisy <- as.matrix(simulate(fit, nsim, seed = 6, newdata = new, noise = TRUE))
  expect_equal(unname(apply(noisy, 1L, stats::var)), (diag(exact) + s2) * df / (df - 2), tolerance = 0.05)
})

test_that("simulate() follows stats::simulate(): columns, seeds, the generator's state, rows with NA", {
  setup <- simulate_fit()
  new <- setup$x[1:5, ]
  new[3, 2] <- NA
  draws <- simulate(setup$fit, 3, seed = 1, newdata = new)
  expect_s3_class(draws, "data.frame")
  expect_equal(names(draws), c("sim_1", "sim_2", "sim_3"))
  expect_equal(attr(draws, "seed"), structure(1, kind = as.list(RNGkind())))
  expect_true(all(is.na(draws[3, ])))
  expect_false(anyNA(draws[-3, ]))
  # the same seed, the same draws, whatever the threads; the state restored
  set.seed(99)
  before <- .Random.seed
  expect_identical(simulate(setup$fit, 3, seed = 1, newdata = new, n_threads = 2), draws)
  expect_identical(.Random.seed, before)
  expect_false(identical(simulate(setup$fit, 3, seed = 2, newdata = new), draws))
  # without a seed the draws come from the generator's current state
  set.seed(4)
  first <- simulate(setup$fit, 2, newdata = new)
  set.seed(4)
  expect_identical(simulate(setup$fit, 2, newdata = new), first)
  # a formula fit, its lambda by the evidence, row names kept
  frame <- data.frame(y = setup$y, a = setup$x[, 1], b = setup$x[, 2])
  tuned <- rff_ridge(y ~ a + b, frame, kernel = gaussian_kernel(0.8), n_features = 20, seed = 3,
                     criterion = "evidence")
  frame_draws <- simulate(tuned, 2, seed = 1, newdata = frame[c(7, 9), ])
  expect_equal(rownames(frame_draws), c("7", "9"))
})

test_that("simulate() refuses what it cannot draw, naming the argument", {
  setup <- simulate_fit()
  fit <- setup$fit
  expect_error(simulate(fit, 2), "newdata", class = "askrff_error")
  expect_error(simulate(fit, 0, newdata = setup$x), "nsim", class = "askrff_error")
  expect_error(simulate(fit, 2, newdata = setup$x, noise = NA), "noise", class = "askrff_error")
  expect_error(simulate(fit, 2, seed = "a", newdata = setup$x), "seed", class = "askrff_error")
  expect_error(simulate(fit, 2, newdata = setup$x, bogus = 1), class = "askrff_error")
  classes <- rff_ridge(setup$x, factor(setup$y > 0), setup$map, lambda = 0.5)
  expect_error(simulate(classes, 2, newdata = setup$x), "one numeric response", class = "askrff_error")
})
