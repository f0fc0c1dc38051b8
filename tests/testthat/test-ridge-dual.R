# rff_ridge()'s dual form, taken for data in memory with fewer rows of
# positive weight than feature columns: the same fit as the primal form
# (forced by the internal options(askrff.ridge_form = "primal")). Both are
# exact, so what separates them is rounding: on data whose Gram matrix is
# far from singular (a kernel narrow for the rows' spacing: its smallest
# eigenvalue 1e-4 of its largest in the first test), they agree within
# 1e-8 wherever the fit leaves a residual degree of freedom (n - df >= 1). Nearer interpolation the
# primal's residual sum of squares is a difference of nearly equal sums and
# loses its digits; the dual sums it from nonnegative terms, which a test
# below checks against an augmented QR and refits, independent of both.

primal <- function(expr) {
  old <- options(askrff.ridge_form = "primal")
  on.exit(options(old), add = TRUE)
  expr
}

# The fit `call` makes in each form.
both_forms <- function(call) {
  call <- substitute(call)
  env <- parent.frame()
  list(dual = eval(call, env), primal = primal(eval(call, env)))
}

# |actual - expected| within `tolerance` times `size` (|expected| by default).
expect_within <- function(actual, expected, tolerance, label, size = abs(expected)) {
  expect_identical(dim(actual), dim(expected), label = label)
  gap <- abs(actual - expected) - tolerance * size
  expect(all(gap <= 0), sprintf("%s: the forms differ by %s (relative %s)", label,
                                format(max(abs(actual - expected)), digits = 3),
                                format(max(abs(actual - expected) / size), digits = 3)))
}

# Every number a fit and its predictions hold, dual against primal, to
# 1e-8: the path at each lambda where the fit leaves a residual degree of
# freedom, and unless not `chosen`, the rest norm-wise.
expect_same_fit <- function(fits, x_new, label, intervals = TRUE, chosen = TRUE) {
  dual <- fits$dual
  reference <- fits$primal
  expect_identical(c(dual$form, reference$form), c("dual", "primal"), label = label)
  expect_identical(names(dual$path), names(reference$path), label = label)
  # each response's rows, with one lambda per response
  paths <- function(fit) {
    if (is.null(fit$path$response)) return(list(fit$path))
    split(fit$path[names(fit$path) != "response"], factor(fit$path$response, fit$response$names))
  }
  for (j in seq_along(paths(reference))) {
    dual_path <- paths(dual)[[j]]
    path <- paths(reference)[[j]]
    # Leave-one-out drops the lambdas at which a leverage rounds to 1: the
    # primal's do near interpolation, the dual's (exact) do not.
    fitting <- which(reference$n - path$df >= 1)
    same <- vapply(path$lambda[fitting], function(l) which.min(abs(dual_path$lambda - l)), 1L)
    for (name in names(path)) {
      expected <- path[[name]][fitting]
      # the evidence, a sum of logarithms, relative to the size of its terms
      size <- if (name == "evidence") pmax(abs(expected), dual$n) else abs(expected)
      expect_within(dual_path[[name]][same], expected, 1e-8, sprintf("%s: path$%s", label, name), size)
    }
  }
  if (!chosen) return(invisible())
  matched <- function(a, b, what) expect_within(a, b, 1e-8, sprintf("%s: %s", label, what), max(abs(b)))
  for (name in c("coefficients", "intercept", "lambda", "rss", "n", "log_weight", "fitted", "residuals")) {
    matched(dual[[name]], reference[[name]], name)
  }
  matched(predict(dual, x_new), predict(reference, x_new), "predictions")
  if (intervals) {
    matched(predict(dual, x_new, interval = "prediction"), predict(reference, x_new, interval = "prediction"), "intervals")
    matched(predict(dual, x_new, se.fit = TRUE)$se.fit, predict(reference, x_new, se.fit = TRUE)$se.fit, "se.fit")
  }
}

test_that("with fewer rows than columns the dual fits what the primal fits, by every criterion and weights", {
  set.seed(11)
  n <- 40
  x <- matrix(rnorm(2 * n), n)
  y <- sin(2 * x[, 1]) + x[, 2] / 2 + rnorm(n, sd = 0.3)
  x_new <- matrix(rnorm(20), 10)
  map <- rff_map(gaussian_kernel(0.3), 2, 64, seed = 1)
  # some weights zero: those rows leave the dual's n x n matrix
  w <- runif(n, 0.5, 2)
  w[c(3, 17)] <- 0
  for (weights in list(NULL, w)) {
    for (criterion in c("loo", "evidence", "gcv")) {
      label <- sprintf("%s, %s", criterion, if (is.null(weights)) "unweighted" else "weighted")
      # GCV on the grid: the primal's rounds to 0 where the fit interpolates
      # and may choose it there (see the test near interpolation); the
      # dual's does not
      expect_same_fit(both_forms(rff_ridge(x, y, map, weights = weights, criterion = criterion)), x_new, label,
                      chosen = criterion != "gcv")
      expect_same_fit(both_forms(rff_ridge(x, y, map, weights = weights, criterion = criterion, lambda = c(0.01, 0.3, 3))),
                      x_new, sprintf("%s, given lambdas", label))
    }
  }
  # one lambda given: nothing chosen, no leave-one-out
  expect_same_fit(both_forms(rff_ridge(x, y, map, weights = w, lambda = 0.1)), x_new, "one lambda")
})

test_that("the dual fits several responses and a factor as the primal does", {
  set.seed(12)
  n <- 30
  x <- matrix(rnorm(3 * n), n)
  y <- cbind(a = cos(x[, 1]) + rnorm(n, sd = 0.2), b = x[, 2] * x[, 3] + rnorm(n, sd = 0.2))
  x_new <- matrix(rnorm(15), 5)
  map <- rff_map(gaussian_kernel(0.5), 3, 50, seed = 2)
  w <- runif(n)
  for (criterion in c("loo", "evidence", "gcv")) {
    # one lambda shared: response b alone nearly interpolates, where
    # rounding separates the forms (test-ridge-multi.R checks each form's
    # lambdas per response against the responses' fits alone)
    expect_same_fit(both_forms(rff_ridge(x, y, map, weights = w, criterion = criterion, shared_lambda = TRUE)), x_new,
                    sprintf("two responses, %s", criterion), chosen = criterion != "gcv")
    classes <- factor(c("u", "v", "w")[1 + (x[, 1] > 0) + (x[, 2] > 0.5)])
    fits <- both_forms(rff_ridge(x, classes, map, criterion = criterion, lambda = if (criterion == "gcv") c(0.1, 1)))
    expect_same_fit(fits, x_new, sprintf("factor, %s", criterion), intervals = FALSE)
    expect_identical(predict(fits$dual, x_new, type = "class"), predict(fits$primal, x_new, type = "class"))
  }
})

test_that("with repeated rows the dual leaves their null directions out and keeps the closed form", {
  # 10 of 40 rows repeated: the centered Gram matrix has 29 nonzero
  # eigenvalues, the others zero up to rounding. The dual's posterior keeps
  # 29 eigenvectors; its coefficients keep their part along the others. The
  # closed form solves (X'WX + diag(0, lambda I)) b = X'Wy with X = [1, Z]
  # directly, its condition number 3e4 at most here: 1e-10 leaves room.
  set.seed(19)
  n <- 40
  x <- matrix(rnorm(2 * n), n)
  x[31:40, ] <- x[1:10, ]
  y <- sin(2 * x[, 1]) + rnorm(n, sd = 0.3)
  w <- runif(n, 0.5, 2)
  x_new <- matrix(rnorm(10), 5)
  map <- rff_map(gaussian_kernel(1), 2, 64, seed = 9)
  design <- cbind(1, rff_features(map, x))
  new_design <- cbind(1, rff_features(map, x_new))
  for (lambda in c(0.003, 0.3)) {
    fits <- both_forms(rff_ridge(x, y, map, weights = w, lambda = lambda))
    expect_same_fit(fits, x_new, sprintf("repeated rows, lambda = %g", lambda))
    expect_identical(ncol(fits$dual$posterior$vectors), 29L)
    precision <- crossprod(design, w * design) + diag(c(0, rep(lambda, ncol(design) - 1L)))
    b <- solve(precision, crossprod(design, w * y))
    s2 <- sum(w * (y - design %*% b)^2) / (n - sum(diag(solve(precision, crossprod(design, w * design)))))
    expect_equal(unname(coef(fits$dual)), drop(b), tolerance = 1e-10)
    expect_equal(unname(predict(fits$dual, x_new, se.fit = TRUE)$se.fit),
                 sqrt(s2 * rowSums((new_design %*% solve(precision)) * new_design)), tolerance = 1e-10)
  }
})

test_that("the leverages of the dual are the brute-force refits without each row", {
  # n refits, each on one row fewer (dual fits too, which use no leverage)
  set.seed(13)
  n <- 20
  x <- matrix(rnorm(2 * n), n)
  y <- x[, 1]^2 + rnorm(n, sd = 0.3)
  w <- runif(n, 0.5, 2)
  map <- rff_map(gaussian_kernel(1), 2, 30, seed = 3)
  lambda <- c(0.03, 0.3, 3)
  fit <- rff_ridge(x, y, map, weights = w, lambda = lambda, criterion = "loo")
  expect_identical(fit$form, "dual")
  brute <- vapply(sort(lambda, decreasing = TRUE), function(l) {
    sum(vapply(seq_len(n), function(i) {
      w[i] * (y[i] - predict(rff_ridge(x[-i, ], y[-i], map, weights = w[-i], lambda = l), x[i, , drop = FALSE]))^2
    }, 1)) / n
  }, 1)
  # exact both: rounding of the solves
  expect_equal(fit$path$loo, brute, tolerance = 1e-10)
})

test_that("near interpolation the dual's criteria keep their digits, against an augmented QR and refits", {
  # lambda down to 1e-8 of the top eigenvalue, far below the least (6e-3
  # of it): the fit interpolates and its RSS is 5e-15 of the total sum of
  # squares. The references solve min |W^(1/2) (y - b0 - Z b)|^2 + lambda
  # |b|^2 as least squares by QR, backward stable: their residuals err by
  # about eps |W^(1/2) y|, 3e-9 of sqrt(RSS) at the smallest lambda, so 1e-6
  # leaves room. The primal misses GCV there by 20%, a difference of nearly
  # equal sums.
  set.seed(17)
  n <- 30
  x <- matrix(rnorm(2 * n), n)
  y <- sin(2 * x[, 1]) + rnorm(n, sd = 0.3)
  w <- runif(n, 0.5, 2)
  map <- rff_map(gaussian_kernel(0.3), 2, 50, seed = 8)
  z <- rff_features(map, x)
  fit <- rff_ridge(x, y, map, weights = w, lambda = 1)
  lambda <- fit$posterior$values[1] * 10^c(-2, -5, -8)
  fit <- rff_ridge(x, y, map, weights = w, lambda = lambda, criterion = "loo")
  expect_identical(fit$form, "dual")
  expect_lt(min(lambda), 1e-5 * min(fit$posterior$values))
  least_squares <- function(rows, l) {
    design <- rbind(sqrt(w[rows]) * cbind(1, z[rows, , drop = FALSE]), cbind(0, sqrt(l) * diag(ncol(z))))
    qr(design)
  }
  reference <- vapply(fit$path$lambda, function(l) {
    decomposition <- least_squares(seq_len(n), l)
    residual <- qr.resid(decomposition, c(sqrt(w) * y, rep(0, ncol(z))))[seq_len(n)]
    df <- sum(qr.Q(decomposition)[seq_len(n), ]^2)
    loo <- mean(vapply(seq_len(n), function(i) {
      b <- qr.coef(least_squares(-i, l), c(sqrt(w[-i]) * y[-i], rep(0, ncol(z))))
      w[i] * (y[i] - sum(c(1, z[i, ]) * b))^2
    }, 1))
    c(gcv = sum(residual^2) / n / (1 - df / n)^2, loo = loo, df = df)
  }, numeric(3))
  expect_lt(n - max(reference["df", ]), 1e-5)
  expect_equal(fit$path$gcv, reference["gcv", ], tolerance = 1e-6)
  expect_equal(fit$path$loo, reference["loo", ], tolerance = 1e-6)
  expect_equal(fit$path$df, reference["df", ], tolerance = 1e-10)
})

test_that("the dual takes weights times 1e200 or 1e-200 as the primal does", {
  # the passes' unit weights (R/model-weight-units.R) hold for the dual's
  # rows: the same minimiser at lambda times the constant; the weights
  # differ from the reference's by rounding, amplified as for chunks
  set.seed(20)
  n <- 40
  x <- matrix(rnorm(2 * n), n)
  y <- sin(2 * x[, 1]) + rnorm(n, sd = 0.3)
  w <- runif(n, 0.5, 2)
  map <- rff_map(gaussian_kernel(0.3), 2, 64, seed = 10)
  reference <- rff_ridge(x, y, map, weights = w)
  for (constant in c(1e200, 1e-200)) {
    fit <- rff_ridge(x, y, map, weights = w * constant)
    label <- sprintf("weights times %g", constant)
    expect_identical(fit$form, "dual")
    expect_equal(predict(fit, x), predict(reference, x), tolerance = 1e-10, label = label)
    expect_equal(fit$lambda, reference$lambda * constant, tolerance = 1e-10, label = label)
    expect_equal(fit$path$loo, reference$path$loo * constant, tolerance = 1e-10, label = label)
    expect_equal(fit$path$evidence, reference$path$evidence, tolerance = 1e-10, label = label)
    expect_equal(predict(fit, x[1:5, ], interval = "confidence"), predict(reference, x[1:5, ], interval = "confidence"),
                 tolerance = 1e-8, label = label)
    expect_equal(coef(fit), coef(primal(rff_ridge(x, y, map, weights = w * constant))), tolerance = 1e-8, label = label)
  }
})

test_that("a scale search takes the dual for its candidates and chooses what the primal chooses", {
  set.seed(14)
  n <- 60
  x <- matrix(rnorm(2 * n), n)
  y <- sin(2 * x[, 1]) + rnorm(n, sd = 0.2)
  x_new <- matrix(rnorm(10), 5)
  calls <- 0L
  dual <- askrff:::ridge_dual
  counted <- function(...) {
    calls <<- calls + 1L
    dual(...)
  }
  local_mocked_bindings(ridge_dual = counted)
  for (criterion in c("loo", "evidence")) {
    calls <- 0L
    fit <- rff_ridge(x, y, kernel = gaussian_kernel(1), n_features = 48, seed = 4, criterion = criterion,
                     scale = c(0.25, 0.5, 1, 2))
    # the four candidates and the fit at the chosen one
    expect_identical(calls, 5L)
    reference <- primal(rff_ridge(x, y, kernel = gaussian_kernel(1), n_features = 48, seed = 4, criterion = criterion,
                                  scale = c(0.25, 0.5, 1, 2)))
    expect_identical(calls, 5L)
    expect_identical(fit$selection$chosen, reference$selection$chosen)
    expect_equal(fit$selection$value, reference$selection$value, tolerance = 1e-8, label = criterion)
    expect_equal(fit$selection$lambda, reference$selection$lambda, tolerance = 1e-8, label = criterion)
    expect_equal(predict(fit, x_new, interval = "prediction"), predict(reference, x_new, interval = "prediction"),
                 tolerance = 1e-8, label = criterion)
  }
  # "optimize" on the kernel by name: every candidate on all 60 rows has fewer rows than columns
  calls <- 0L
  fit <- rff_ridge(x, y, n_features = 32, seed = 5)
  expect_identical(fit$form, "dual")
  expect_identical(calls, nrow(fit$selection$scales) + 1L)
})

test_that("with as many rows as columns, or more, the fit stays primal", {
  set.seed(15)
  x <- matrix(rnorm(2 * 64), 64)
  y <- x[, 1] + rnorm(64)
  map <- rff_map(gaussian_kernel(1), 2, 32, seed = 6)
  expect_identical(rff_ridge(x, y, map)$form, "primal")
  expect_identical(rff_ridge(x[-1, ], y[-1], map)$form, "dual")
  # the rows that count are those of positive weight
  expect_identical(rff_ridge(x, y, map, weights = rep(c(1, 0), c(63, 1)))$form, "dual")
  # a chunk source is summed, never held
  chunks <- list(list(x = x[1:20, ], y = y[1:20]), list(x = x[21:40, ], y = y[21:40]))
  expect_identical(rff_ridge(chunks, map = map)$form, "primal")
  # nor are features that do not fit in memory: 1,000 rows of 4,096
  # columns and their n x n matrices take 90 MB
  local_mocked_bindings(available_memory = function() 80e6)
  expect_false(askrff:::dual_fits(1000, 4096))
  expect_true(askrff:::dual_fits(1000, 2048))
  local_mocked_bindings(available_memory = function() NA_real_)
  expect_true(askrff:::dual_fits(1000, 4096))
  local_mocked_bindings(dual_fits = function(rows, columns) FALSE)
  expect_identical(rff_ridge(x[-1, ], y[-1], map)$form, "primal")
  old <- options(askrff.ridge_form = "dual")
  on.exit(options(old), add = TRUE)
  expect_error(rff_ridge(x, y, map), "options\\(askrff.ridge_form\\)", class = "askrff_error")
})

test_that("the dual is the same for any thread count, and refuses too few rows of positive weight", {
  set.seed(16)
  n <- 300
  x <- matrix(rnorm(2 * n), n)
  y <- sin(x[, 1]) + rnorm(n, sd = 0.2)
  map <- rff_map(gaussian_kernel(1), 2, 200, seed = 7)
  one <- rff_ridge(x, y, map, criterion = "loo", n_threads = 1)
  expect_identical(one$form, "dual")
  expect_identical(rff_ridge(x, y, map, criterion = "loo", n_threads = 2)[c("coefficients", "path", "posterior")],
                   one[c("coefficients", "path", "posterior")])
  expect_error(rff_ridge(x[1:3, ], y[1:3], map, weights = c(1, 0, 0)), "at least two rows of positive weight",
               class = "askrff_data_error")
})

test_that("the dual's eigendecomposition of 512 rows or more reports its progress", {
  skip_if_not_installed("progressr")
  set.seed(18)
  x <- matrix(rnorm(3 * 600), 600)
  y <- x[, 1] + rnorm(600)
  old <- options(progressr.enable = TRUE)
  on.exit(options(old), add = TRUE)
  amounts <- numeric()
  fit <- withCallingHandlers(rff_ridge(x, y, rff_map(gaussian_kernel(1), 3, 512, seed = 1), lambda = 1),
                             progression = function(p) {
    if (identical(p$type, "update") && identical(p$message, "eigendecomposition")) amounts <<- c(amounts, p$amount)
  })
  expect_identical(fit$form, "dual")
  expect_gt(length(amounts), 10L)
  expect_equal(sum(amounts), 100)
})
