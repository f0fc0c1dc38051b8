# rff_ridge()'s selection: the evidence against the dense marginal
# likelihood, the choice of lambda and of the kernel's scales by each
# criterion, and the scales against a Gaussian-process draw's truth and
# against the exact Gaussian process's maximum likelihood.

# log of the integral over b0 of N(y; b0 1, s2 C), C = W^-1 + Z Z' / lambda,
# maximized over s2: the dense form of the evidence, with the integral over
# b0 taken numerically and s2 by optimize().
dense_evidence <- function(z, y, w, lambda) {
  n <- length(y)
  C <- diag(1 / w, n) + tcrossprod(z) / lambda
  Ci <- solve(C)
  at_s2 <- function(log_s2) {
    s2 <- exp(log_s2)
    log_det <- determinant(s2 * C)$modulus
    density <- function(b0) vapply(b0, function(b) {
      r <- y - b
      -0.5 * n * log(2 * pi) - 0.5 * log_det - 0.5 * drop(crossprod(r, Ci %*% r)) / s2
    }, 1)
    mode <- sum(Ci %*% y) / sum(Ci)
    spread <- sqrt(s2 / sum(Ci))
    top <- density(mode)
    log(stats::integrate(function(b) exp(density(b) - top), mode - 40 * spread, mode + 40 * spread,
                         rel.tol = 1e-12)$value) + top
  }
  stats::optimize(at_s2, c(-15, 10), maximum = TRUE, tol = 1e-10)$objective
}

test_that("the evidence is the dense marginal likelihood, weights and more columns than rows included", {
  set.seed(3)
  for (case in list(list(n = 40, features = 12), list(n = 25, features = 30))) {
    n <- case$n
    x <- matrix(rnorm(2 * n), n)
    y <- sin(x[, 1]) + rnorm(n, sd = 0.3)
    w <- runif(n, 0.5, 2)
    map <- rff_map(gaussian_kernel(1), 2, case$features, seed = 1)
    fit <- rff_ridge(x, y, map, weights = w, lambda = c(0.01, 0.3, 3), criterion = "evidence")
    direct <- vapply(fit$path$lambda, dense_evidence, 1, z = rff_features(map, x), y = y, w = w)
    # both exact: what is left is rounding of the solves and the quadrature
    expect_equal(fit$path$evidence, direct, tolerance = 1e-8)
    expect_identical(fit$lambda, fit$path$lambda[which.max(fit$path$evidence)])
    expect_identical(fit$criterion, "evidence")
  }
  # a row of zero weight has no say: the evidence of the other rows
  w[1] <- 0
  fit <- rff_ridge(x, y, map, weights = w, lambda = 0.3, criterion = "evidence")
  expect_equal(fit$path$evidence, dense_evidence(rff_features(map, x)[-1, ], y[-1], w[-1], 0.3), tolerance = 1e-8)
})

test_that("leave-one-out is the brute-force refit without each row, weights and several responses included", {
  set.seed(8)
  n <- 30
  x <- matrix(rnorm(2 * n), n)
  y <- cbind(a = sin(x[, 1]) + rnorm(n, sd = 0.3), b = x[, 2] + rnorm(n))
  w <- runif(n, 0.5, 2)
  map <- rff_map(gaussian_kernel(1), 2, 10, seed = 1)
  lambda <- c(0.01, 0.3, 3)
  fit <- rff_ridge(x, y, map, weights = w, lambda = lambda, criterion = "loo", shared_lambda = TRUE)
  # each response's PRESS / n, lambdas by responses
  brute_each <- t(vapply(sort(lambda, decreasing = TRUE), function(l) {
    rowSums(vapply(seq_len(n), function(i) {
      without <- rff_ridge(x[-i, ], y[-i, ], map, weights = w[-i], lambda = l)
      w[i] * (y[i, ] - predict(without, x[i, , drop = FALSE]))[1L, ]^2
    }, c(1, 1))) / n
  }, c(1, 1)))
  brute <- rowMeans(brute_each)
  # both exact: the leverage identity against n refits, up to rounding;
  # one lambda shared pools the responses, one each takes its own
  expect_equal(fit$path$loo, brute, tolerance = 1e-10)
  expect_identical(fit$lambda, fit$path$lambda[which.min(brute)])
  each <- rff_ridge(x, y, map, weights = w, lambda = lambda, criterion = "loo")
  expect_equal(matrix(each$path$loo, 3), unname(brute_each), tolerance = 1e-10)
  expect_equal(unname(each$lambda), sort(lambda, decreasing = TRUE)[apply(brute_each, 2L, which.min)])
  # the coefficients, fitted values and residual sums at the chosen lambda
  # are the fit at that lambda
  given <- rff_ridge(x, y, map, weights = w, lambda = fit$lambda, shared_lambda = TRUE)
  expect_equal(coef(fit), coef(given), tolerance = 1e-10)
  expect_equal(fit$rss, given$rss, tolerance = 1e-10)
  expect_equal(fitted(fit), fitted(given), tolerance = 1e-10)
  expect_output(print(fit), "chosen by leave-one-out among 3 values.*leave-one-out = ")
  # a second pass reads list chunks again, in any thread count; a function is read once
  chunks <- lapply(split(seq_len(n), rep(1:3, each = 10)), function(i) list(x = x[i, ], y = y[i, ], w = w[i]))
  expect_equal(rff_ridge(chunks, map = map, lambda = lambda, criterion = "loo", shared_lambda = TRUE)$path$loo, fit$path$loo,
               tolerance = 1e-12)
  expect_identical(rff_ridge(x, y, map, weights = w, criterion = "loo", n_threads = 2)$path,
                   rff_ridge(x, y, map, weights = w, criterion = "loo", n_threads = 1)$path)
  expect_error(rff_ridge(function() NULL, map = map, criterion = "loo"), "a function chunk source is read once",
               class = "askrff_error")
  edited <- fit
  edited$path$loo[1] <- -1
  expect_error(print(edited), "`x\\$path\\$loo` must be finite nonnegative", class = "askrff_error")
  edited$path$loo[1] <- Inf
  expect_error(print(edited), "`x\\$path\\$loo` must be finite nonnegative", class = "askrff_error")
  edited$path$loo[1] <- 0
  edited$path$loo <- NULL
  expect_error(print(edited), "`x\\$path` must hold the leave-one-out errors", class = "askrff_error")
})

test_that("each criterion chooses its own optimum on the refined grid, whatever the chunks", {
  set.seed(4)
  x <- matrix(rnorm(600), 300)
  y <- sin(2 * x[, 1]) + rnorm(300, sd = 0.3)
  map <- rff_map(gaussian_kernel(1), 2, 40, seed = 2)
  for (criterion in c("gcv", "evidence")) {
    fit <- rff_ridge(x, y, map, criterion = criterion)
    value <- fit$path[[criterion]]
    best <- if (criterion == "gcv") which.min(value) else which.max(value)
    expect_identical(fit$lambda, fit$path$lambda[best])
    # the grid's 100 values and the refined one, between the grid's neighbours
    expect_identical(nrow(fit$path), 101L)
    expect_false(fit$lambda %in% fit$path$lambda[-best])
    expect_true(all(diff(fit$path$lambda) < 0))
    near <- fit$lambda * exp(c(-1, 1) * 0.01)
    again <- rff_ridge(x, y, map, lambda = c(near, fit$lambda), criterion = criterion)
    expect_identical(again$lambda, fit$lambda)
    chunks <- lapply(split(seq_len(300), rep(1:3, each = 100)), function(i) list(x = x[i, ], y = y[i]))
    expect_equal(rff_ridge(chunks, map = map, criterion = criterion)$lambda, fit$lambda, tolerance = 1e-12)
  }
  expect_output(print(fit), "chosen by evidence among 101 values")
})

test_that("scale_kernel() gives the kernel of the data divided by the scales, for every family with a length scale", {
  set.seed(5)
  x <- matrix(rnorm(15), 5)
  y <- matrix(rnorm(12), 4)
  global <- list(gaussian_kernel(0.7), matern_kernel(0.8, 1.5), exponential_kernel(1),
                 rational_quadratic_kernel(1, 2), generalized_gaussian_kernel(1, 1.5), laplace_kernel(0.9),
                 delta_gaussian_kernel(c(1, -0.5), c(1, 3)), shift_gaussian_kernel(1, c(0.2, -0.1, 0.3)),
                 sinh_gaussian_kernel(1, 0.2), cosh_gaussian_kernel(1, c(0.1, 0.2, -0.1)),
                 gaussian_kernel(1) + 0.5 * matern_kernel(2, 2.5), gaussian_kernel(1) * laplace_kernel(2))
  per_coordinate <- list(gaussian_kernel(0.7), gaussian_kernel(c(0.5, 1, 2)), matern_kernel(c(1, 2, 0.5), 2.5),
                         gaussian_kernel(1) * rational_quadratic_kernel(2, 1))
  s <- 1.7
  for (k in global) {
    expect_equal(kernel_matrix(askrff:::scale_kernel(k, s, 3), x, y), kernel_matrix(k, x / s, y / s),
                 tolerance = 1e-12, label = askrff:::kernel_label(k))
  }
  s <- c(0.5, 2, 1.3)
  for (k in per_coordinate) {
    expect_equal(kernel_matrix(askrff:::scale_kernel(k, s, 3), x, y),
                 kernel_matrix(k, sweep(x, 2L, s, "/"), sweep(y, 2L, s, "/")), tolerance = 1e-12, label = askrff:::kernel_label(k))
  }
  expect_error(askrff:::scale_kernel(arccos_kernel(1), 2, 3), "the arc-cosine kernel \\(order = 1\\) has none",
               class = "askrff_error")
  expect_error(askrff:::scale_kernel(radial_kernel(function(r) exp(-r^2)), 2, 3), "has none", class = "askrff_error")
  expect_error(askrff:::scale_kernel(laplace_kernel(1), s, 3), "takes `sigma` as a single number", class = "askrff_error")
  expect_error(askrff:::scale_kernel(gaussian_kernel(1) + shift_gaussian_kernel(1, 0.2), s, 3),
               "Shift-Gaussian kernel .* takes `sigma` as a single number", class = "askrff_error")
})

test_that("a rescaled map divides the same draws by the scales: the features of the data divided by them", {
  set.seed(6)
  x <- matrix(rnorm(30), 10)
  # the phase decomposition's left phases, functions of omega'(x - y), stay
  for (k in list(shift_gaussian_kernel(1, 0.3), sinh_gaussian_kernel(1, c(0.2, 0, -0.1)))) {
    for (decomposition in c("jordan", "phase")) {
      map <- rff_map(k, 3, 25, decomposition = decomposition, seed = 1)
      scaled <- askrff:::rescale_map(map, askrff:::scale_kernel(k, 2, 3), 2)
      expect_equal(rff_features(scaled, x), rff_features(map, x / 2), tolerance = 1e-14)
      expect_equal(rff_features(scaled, x, side = "right"), rff_features(map, x / 2, side = "right"), tolerance = 1e-14)
      expect_equal(scaled$kernel$params$sigma, 2)
    }
  }
  # for the Gaussian kernel the frequencies are N(0, I) / sigma: the draw
  # of the rescaled kernel itself
  map <- rff_map(gaussian_kernel(1), 3, 25, seed = 1)
  s <- c(0.5, 2, 3)
  scaled <- askrff:::rescale_map(map, askrff:::scale_kernel(gaussian_kernel(1), s, 3), s)
  expect_equal(scaled$omega, rff_map(gaussian_kernel(s), 3, 25, seed = 1)$omega, tolerance = 1e-15)
  expect_error(askrff:::rescale_map(nystrom_map(gaussian_kernel(1), x, 5), gaussian_kernel(2), 2),
               "`scale` needs a map of random Fourier features", class = "askrff_error")
})

selection_data <- function(n = 300, seed = 7) {
  set.seed(seed)
  x <- matrix(runif(2 * n, -2, 2), n)
  list(x = x, y = sin(2 * x[, 1]) + x[, 2] + rnorm(n, sd = 0.2))
}

test_that("candidate scales: each one's criterion is the fit of its rescaled kernel, and the best gives the fit", {
  data <- selection_data()
  scales <- c(0.25, 0.5, 1, 2)
  chunks <- lapply(split(seq_len(300), rep(1:3, each = 100)), function(i) list(x = data$x[i, ], y = data$y[i]))
  for (criterion in c("gcv", "evidence")) {
    fit <- rff_ridge(data$x, data$y, kernel = gaussian_kernel(1), n_features = 40, seed = 1, criterion = criterion,
                     scale = scales)
    # the Gaussian kernel's frequencies are N(0, I) / sigma, so a map drawn
    # for the rescaled kernel with the same seed has the same draws
    each <- lapply(scales, function(s) {
      rff_ridge(data$x, data$y, kernel = gaussian_kernel(s), n_features = 40, seed = 1, criterion = criterion)
    })
    value <- vapply(each, function(f) f$path[[criterion]][f$path$lambda == f$lambda], 1)
    expect_equal(fit$selection$value, value, tolerance = 1e-10)
    expect_equal(fit$selection$lambda, vapply(each, `[[`, 1, "lambda"), tolerance = 1e-10)
    best <- if (criterion == "gcv") which.min(value) else which.max(value)
    expect_identical(fit$selection$chosen, best)
    expect_equal(coef(fit), coef(each[[best]]), tolerance = 1e-8)
    expect_equal(fit$map$kernel, gaussian_kernel(scales[best]))
    expect_equal(fit$selection$kernel, gaussian_kernel(1))
    expect_equal(fitted(fit), predict(fit, data$x), tolerance = 1e-12)
    streamed <- rff_ridge(chunks, kernel = gaussian_kernel(1), n_features = 40, seed = 1, criterion = criterion,
                          scale = scales)
    expect_equal(streamed$selection$value, fit$selection$value, tolerance = 1e-10)
    # at GCV's tiny lambda the coefficients amplify the sums' rounding; the
    # fitted values do not
    expect_equal(predict(streamed, data$x), fitted(fit), tolerance = 1e-8)
  }
  expect_output(print(fit), "scale: 1 times the kernel's own, chosen among 4 candidates by evidence")
  expect_error(rff_ridge(function() NULL, kernel = gaussian_kernel(1), n_features = 10, scale = 2),
               "a function chunk source is read once", class = "askrff_error")
  expect_error(rff_ridge(data$x, data$y, map = nystrom_map(gaussian_kernel(1), data$x[1:20, ], 10), scale = 2),
               "needs a map of random Fourier features", class = "askrff_error")
  # the formula method searches the same way
  frame <- data.frame(y = data$y, a = data$x[, 1], b = data$x[, 2])
  formula_fit <- rff_ridge(y ~ a + b, frame, kernel = gaussian_kernel(1), n_features = 40, seed = 1,
                           criterion = "evidence", scale = scales)
  expect_equal(formula_fit$selection$value, fit$selection$value, tolerance = 1e-10)
})

test_that("\"optimize\" finds the criterion's optimum over the scale", {
  data <- selection_data()
  for (criterion in c("gcv", "evidence")) {
    fit <- rff_ridge(data$x, data$y, kernel = gaussian_kernel(1), n_features = 40, seed = 1, criterion = criterion,
                     scale = "optimize")
    s <- fit$selection
    chosen <- s$scales[s$chosen, 1L]
    # optimize() stops within 0.005 of the optimum of the log scale, so 2 %
    # either side is worse
    around <- rff_ridge(data$x, data$y, kernel = gaussian_kernel(1), n_features = 40, seed = 1, criterion = criterion,
                        scale = chosen * exp(c(-0.02, 0.02)))
    if (criterion == "gcv") {
      expect_true(all(around$selection$value > s$value[s$chosen]))
    } else {
      expect_true(all(around$selection$value < s$value[s$chosen]))
    }
    expect_equal(fit$map$kernel, gaussian_kernel(chosen))
    expect_identical(s$method, "optimize")
    expect_identical(ncol(s$scales), 1L)
  }
  expect_output(print(fit), "optimized by evidence")
  path <- tempfile(fileext = ".png")
  grDevices::png(path, 900, 450)
  expect_identical(plot(fit), fit)
  grDevices::dev.off()
  expect_true(file.size(path) > 0)
})

test_that("the fit's criterion, evidence and selection are validated like its other fields", {
  data <- selection_data(n = 120)
  fit <- rff_ridge(data$x, data$y, kernel = gaussian_kernel(1), n_features = 20, seed = 1, criterion = "evidence",
                   scale = c(0.5, 1, 2))
  edit <- function(change) {
    edited <- fit
    change(edited)
  }
  cases <- list(
    list(function(f) { f$criterion <- "aic"; f }, "`x\\$criterion` must be \"gcv\", \"evidence\" or \"loo\""),
    list(function(f) { f$path$evidence <- NULL; f }, "`x\\$path` must be a data frame"),
    list(function(f) { f$path$evidence[2] <- Inf; f }, "`x\\$path` must be a data frame"),
    list(function(f) { f$selection$scales[1] <- -1; f }, "`x\\$selection` must hold positive finite `scales`"),
    list(function(f) { f$selection$chosen <- 9; f }, "`x\\$selection` must hold positive finite `scales`"),
    list(function(f) { f$selection$value <- f$selection$value[-1]; f }, "`x\\$selection` must hold"),
    list(function(f) { f$selection$kernel <- "gaussian"; f }, "`x\\$selection\\$kernel` must be"),
    list(function(f) { f$selection$criterion <- "gcv"; f }, "`x\\$selection` must record the fit's criterion"),
    list(function(f) { f$selection$chosen <- (f$selection$chosen %% 3L) + 1L; f }, "`x\\$selection` must agree with the fit"))
  for (case in cases) {
    expect_error(print(case[[1]](fit)), case[[2]], class = "askrff_error")
  }
  expect_error(rff_ridge(data$x, data$y, kernel = gaussian_kernel(1), n_features = 20, criterion = "aic"),
               "`criterion` must be one of \"loo\", \"evidence\", \"gcv\"", class = "askrff_error")
  expect_error(rff_ridge(data$x, data$y, kernel = gaussian_kernel(1), n_features = 20, scale = c(1, -1)),
               "`scale` must be NULL, \"optimize\", or positive finite", class = "askrff_error")
  expect_error(rff_ridge(data$x, data$y, kernel = gaussian_kernel(1), n_features = 20, ard = TRUE),
               "`ard = TRUE` needs `scale = \"optimize\"`", class = "askrff_error")
  expect_error(rff_ridge(data$x, data$y, kernel = gaussian_kernel(1), n_features = 20, scale = matrix(1, 2, 3), ard = TRUE),
               "one column per coordinate of the data \\(2\\)", class = "askrff_error")
  expect_error(rff_ridge(data$x, data$y, kernel = laplace_kernel(1), n_features = 20, scale = "optimize", ard = TRUE),
               "takes `sigma` as a single number", class = "askrff_error")
  # with ARD the common scales tried first are per-coordinate kernels too, so
  # a fit that keeps one of them is valid (five rows: GCV reaches 0 early)
  tiny <- rff_ridge(data$x[1:5, ], data$y[1:5], kernel = gaussian_kernel(1), n_features = 4, seed = 1,
                    criterion = "gcv", scale = "optimize", ard = TRUE)
  expect_identical(dim(tiny$selection$scales)[2], 2L)
  expect_length(tiny$map$kernel$params$sigma, 2L)
  expect_output(print(tiny), "scales: ")
})

# The log marginal likelihood of the exact Gaussian process with the model
# of the evidence (flat prior on b0, s2 profiled), C = I + K / lambda, from a
# Cholesky factor of the n x n matrix.
exact_gp_evidence <- function(x, y, length_scale, lambda) {
  n <- length(y)
  C <- kernel_matrix(gaussian_kernel(length_scale), x) / lambda
  diag(C) <- diag(C) + 1
  R <- chol(C)
  a <- backsolve(R, cbind(y, 1), transpose = TRUE)
  ones <- sum(a[, 2]^2)
  P <- sum(a[, 1]^2) - sum(a[, 1] * a[, 2])^2 / ones
  -(n - 1) / 2 * (log(2 * pi * P / (n - 1)) + 1) - sum(log(diag(R))) - 0.5 * log(ones)
}

# Its maximum over (log length scale, log lambda) near `start`: each
# Cholesky takes about a second, so instead of optim()'s 30 to 45 (measured)
# two rounds of a 3 x 3 design, each moving to the stationary point of the
# quadratic fitted to it; the second round's half-widths (5 % in the scale)
# leave the quadratic's error far below the tolerances.
exact_gp_optimum <- function(x, y, start) {
  center <- start
  for (half in list(c(0.15, 0.4), c(0.05, 0.15))) {
    design <- expand.grid(u = c(-1, 0, 1) * half[1], v = c(-1, 0, 1) * half[2])
    design$value <- mapply(function(u, v) exact_gp_evidence(x, y, exp(center[1] + u), exp(center[2] + v)),
                           design$u, design$v)
    q <- stats::coef(stats::lm(value ~ u + v + I(u^2) + I(v^2) + I(u * v), design))
    hessian <- matrix(c(2 * q[4], q[6], q[6], 2 * q[5]), 2)
    expect_true(all(eigen(hessian, symmetric = TRUE)$values < 0))
    center <- center + drop(solve(hessian, -q[2:3]))
  }
  exp(center)
}

test_that("on a Gaussian-process draw, the evidence's scale is near the truth and the exact process's choice", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  set.seed(11)
  n <- 2000
  truth <- 1.2
  x <- matrix(runif(n * 3, -1, 1), n)
  f <- drop(crossprod(chol(kernel_matrix(gaussian_kernel(truth), x) + diag(1e-6, n)), rnorm(n)))
  y <- 1 + f + rnorm(n, sd = 0.5)
  fit <- rff_ridge(x, y, kernel = gaussian_kernel(1), n_features = 256, method = "qmc", seed = 1,
                   criterion = "evidence", scale = "optimize")
  chosen <- fit$map$kernel$params$sigma
  exact <- exact_gp_optimum(x, y, log(c(chosen, fit$lambda)))
  # With 256 quasi-Monte Carlo frequencies the chosen scale spreads by about
  # 5 % over seeds around 5 % below the exact process's (measured over 4
  # seeds here and on 3 other draws: a finite feature set prefers a shorter
  # scale), and the exact process's maximum-likelihood estimate itself
  # spreads by a few percent around the truth: so 10 % and 20 %.
  expect_lt(abs(chosen / exact[1] - 1), 0.1)
  expect_lt(abs(chosen / truth - 1), 0.2)
})

test_that("with per-coordinate scales, an irrelevant coordinate gets a scale ten times the others'", {
  set.seed(22)
  n <- 1000
  x <- matrix(runif(n * 3, -1, 1), n)
  # a draw of a process in the first two coordinates only
  f <- drop(crossprod(chol(kernel_matrix(gaussian_kernel(0.7), x[, 1:2]) + diag(1e-6, n)), rnorm(n)))
  y <- f + rnorm(n, sd = 0.3)
  fit <- rff_ridge(x, y, kernel = gaussian_kernel(1), n_features = 64, seed = 1, criterion = "evidence",
                   scale = "optimize", ard = TRUE)
  s <- fit$selection
  scales <- s$scales[s$chosen, ]
  # measured over three draws: 25 to 150 times; the relevant ones near 0.7
  expect_gt(scales[3], 10 * max(scales[1:2]))
  expect_true(all(abs(log(scales[1:2] / 0.7)) < log(1.5)))
  expect_equal(fit$map$kernel$params$sigma, scales)
  expect_output(print(fit), "scales: .* times the kernel's own, optimized by evidence")
  path <- tempfile(fileext = ".png")
  grDevices::png(path, 900, 450)
  expect_identical(plot(fit), fit)
  grDevices::dev.off()
})

test_that("penalties at which leave-one-out is unbounded leave the path", {
  # 5 rows and 16 feature columns: at the grid's small penalties the fit
  # interpolates, a leverage may round to 1 and the row's error is then
  # unbounded. Whether it rounds to exactly 1 depends on the last bits of the
  # eigendecomposition (it does in an optimized build and not under the
  # sanitizers), so the path is asked to hold finite values only, and never
  # more penalties than GCV's.
  x <- matrix(seq_len(15) / 15 + sin(1:15), 5, 3)
  y <- x[, 1] + x[, 2]^2
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  fit <- rff_ridge(x, y, map)
  expect_true(all(is.finite(fit$path$loo)))
  expect_lte(nrow(fit$path), nrow(rff_ridge(x, y, map, criterion = "gcv")$path))
  expect_identical(fit$lambda, fit$path$lambda[which.min(fit$path$loo)])
  # a single lambda chooses nothing, so it takes no leave-one-out pass
  expect_null(rff_ridge(x, y, map, lambda = 0.5)$path$loo)
})
