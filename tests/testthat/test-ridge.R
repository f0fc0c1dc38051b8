# rff_ridge(): against the ridge solution computed in R from rff_features(),
# brute-force GCV, streaming, threads and future plans, responses, bad input.

ridge_data <- function(n = 120, d = 3, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n, d)
  y <- sin(2 * x[, 1]) + x[, 2]^2 / 2 + rnorm(n, sd = 0.1)
  list(x = x, y = y)
}

# The closed form with an unpenalized intercept, from the feature matrix.
direct_ridge <- function(z, y, lambda) {
  y <- as.matrix(y)
  zc <- sweep(z, 2L, colMeans(z))
  yc <- sweep(y, 2L, colMeans(y))
  b <- solve(crossprod(zc) + lambda * diag(ncol(z)), crossprod(zc, yc))
  rbind(colMeans(y) - colMeans(z) %*% b, b)
}

test_that("rff_ridge matches the closed-form ridge solution for every kind of map", {
  data <- ridge_data()
  maps <- list(gaussian = rff_map(gaussian_kernel(1), 3, 40, seed = 1),
               indefinite = rff_map(delta_gaussian_kernel(), 3, 40, seed = 2),
               asymmetric = rff_map(shift_gaussian_kernel(1, 0.2), 3, 40, seed = 3),
               arccos = rff_map(arccos_kernel(1), 3, 40, seed = 4))
  for (name in names(maps)) {
    x <- if (name == "arccos") normalize_rows(data$x) else data$x
    fit <- rff_ridge(x, data$y, maps[[name]], lambda = 0.7)
    expected <- direct_ridge(rff_features(maps[[name]], x), data$y, 0.7)
    expect_equal(unname(coef(fit)), expected[, 1], tolerance = 1e-8, label = name)
  }
  periodic <- rpf_map(gaussian_kernel(1), 3, 40, seed = 5)
  fit <- rff_ridge(data$x, data$y, periodic, lambda = 0.7)
  expected <- direct_ridge(rpf_features(periodic, data$x, "square"), data$y, 0.7)
  expect_equal(unname(coef(fit)), expected[, 1], tolerance = 1e-8)
  expect_equal(fit$fun, "square")
})

test_that("with more feature columns than rows, Z'Z of rank n - 1, the fit is still the closed form", {
  # 240 columns: the eigendecomposition forms its orthogonal factor from
  # blocks of 48 reflectors and keeps the first n - 1 = 59 pairs
  data <- ridge_data(n = 60)
  map <- rff_map(gaussian_kernel(1), 3, 120, seed = 6)
  for (lambda in c(1e-3, 1)) {
    fit <- rff_ridge(data$x, data$y, map, lambda = lambda)
    expect_equal(unname(coef(fit)), direct_ridge(rff_features(map, data$x), data$y, lambda)[, 1], tolerance = 1e-8)
  }
})

test_that("GCV is exact on the path and picks what brute force picks", {
  data <- ridge_data()
  map <- rff_map(gaussian_kernel(1), 3, 30, seed = 1)
  fit <- rff_ridge(data$x, data$y, map, criterion = "gcv")
  z <- rff_features(map, data$x)
  n <- nrow(z)
  zc <- sweep(z, 2L, colMeans(z))
  yc <- data$y - mean(data$y)
  brute <- vapply(fit$path$lambda, function(lambda) {
    hat <- zc %*% solve(crossprod(zc) + lambda * diag(ncol(z)), t(zc)) + 1 / n
    residual <- yc - (hat - 1 / n) %*% yc
    df <- sum(diag(hat))
    c(gcv = sum(residual^2) / n / (1 - df / n)^2, df = df)
  }, c(gcv = 0, df = 0))
  expect_equal(fit$path$gcv, brute["gcv", ], tolerance = 1e-7)
  expect_equal(fit$path$df, brute["df", ], tolerance = 1e-8)
  expect_equal(fit$lambda, fit$path$lambda[which.min(brute["gcv", ])])
  expect_equal(unname(coef(fit)), direct_ridge(z, data$y, fit$lambda)[, 1], tolerance = 1e-7)
  # a given set of values is compared the same way
  several <- rff_ridge(data$x, data$y, map, lambda = c(10, 0.1, 1), criterion = "gcv")
  expect_equal(several$path$lambda, c(10, 1, 0.1))
  expect_equal(several$lambda, several$path$lambda[which.min(several$path$gcv)])
})

test_that("chunks, streamed or listed, give the in-memory fit; threads do not change it", {
  data <- ridge_data(n = 700)
  map <- rff_map(matern_kernel(1, 1.5), 3, 64, seed = 1)
  # Chunks change only the order of the sums (rounding near 1e-16 of Z'Z),
  # which the solve amplifies by the condition number of Z'Z + lambda I: at
  # lambda = 0.01 (about 1e5) the coefficients agree to 1e-10; the path
  # reaches lambda near 1e-7 (about 1e9), where the fitted values still agree.
  full <- rff_ridge(data$x, data$y, map, lambda = 0.01, n_threads = 1)
  pieces <- split(seq_len(700), rep(1:7, each = 100))
  chunks <- lapply(pieces, function(i) list(x = data$x[i, ], y = data$y[i]))
  expect_equal(coef(rff_ridge(chunks, map = map, lambda = 0.01)), coef(full), tolerance = 1e-10)
  next_chunk <- local({
    i <- 0L
    function() {
      i <<- i + 1L
      if (i > length(chunks)) NULL else chunks[[i]]
    }
  })
  streamed <- rff_ridge(next_chunk, map = map, lambda = 0.01)
  expect_equal(coef(streamed), coef(full), tolerance = 1e-10)
  chosen <- rff_ridge(data$x, data$y, map)
  chosen_streamed <- rff_ridge(chunks, map = map)
  loo_free <- setdiff(names(chosen$path), "loo")
  expect_equal(chosen_streamed$path[loo_free], chosen$path[loo_free], tolerance = 1e-10)
  # leave-one-out divides each residual by 1 - h_i; at the path's smallest
  # penalties leverages approach 1, so the same rounding grows about 100-fold
  # (5e-10 seen under the sanitizers' unoptimized arithmetic)
  expect_equal(chosen_streamed$path$loo, chosen$path$loo, tolerance = 1e-8)
  expect_equal(chosen_streamed$lambda, chosen$lambda, tolerance = 1e-12)
  expect_equal(predict(chosen_streamed, data$x), fitted(chosen), tolerance = 1e-9)
  # blocks of rows and panels of columns are fixed by the sizes, not the threads
  expect_identical(coef(rff_ridge(data$x, data$y, map, lambda = 0.01, n_threads = 2)), coef(full))
  expect_identical(coef(rff_ridge(chunks, map = map, n_threads = 2)), coef(rff_ridge(chunks, map = map, n_threads = 1)))
  expect_error(fitted(streamed), "streamed its data", class = "askrff_error")
})

test_that("a future plan's workers give the same fit as the sequential plan", {
  skip_if_not_installed("future")
  data <- ridge_data(n = 400)
  map <- rff_map(gaussian_kernel(1), 3, 32, seed = 1)
  chunks <- lapply(split(seq_len(400), rep(1:4, each = 100)), function(i) list(x = data$x[i, ], y = data$y[i]))
  old <- future::plan(future::sequential)
  on.exit(future::plan(old), add = TRUE)
  sequential <- rff_ridge(chunks, map = map)
  future::plan(future::multisession, workers = 2)
  parallel <- rff_ridge(chunks, map = map)
  expect_identical(coef(parallel), coef(sequential))
  expect_identical(parallel$path, sequential$path)
  bad <- chunks
  bad[[3]]$x <- bad[[3]]$x[, 1:2]
  expect_error(rff_ridge(bad, map = map), "chunk 3 of `x`: `x` must have 3 columns", class = "askrff_error")
})

test_that("predictions are features times coefficients, and the methods agree", {
  data <- ridge_data()
  map <- rff_map(gaussian_kernel(1.5), 3, 50, seed = 2)
  fit <- rff_ridge(data$x, data$y, map)
  new <- ridge_data(n = 9, seed = 2)$x
  b <- coef(fit)
  expect_equal(predict(fit, new), drop(rff_features(map, new) %*% b[-1] + b[1]), tolerance = 1e-12)
  expect_equal(fitted(fit), predict(fit, data$x), tolerance = 1e-12)
  expect_equal(residuals(fit), data$y - fitted(fit), tolerance = 1e-12)
  expect_equal(fit$rss, c(y = sum(residuals(fit)^2)), tolerance = 1e-8)
  expect_output(print(fit), "chosen by leave-one-out among 101 values")
  path <- tempfile(fileext = ".png")
  grDevices::png(path)
  expect_identical(plot(fit), fit)
  grDevices::dev.off()
  saved <- tempfile(fileext = ".rds")
  saveRDS(fit, saved)
  expect_identical(predict(readRDS(saved), new), predict(fit, new))
})

test_that("matrix and factor responses: one lambda, one-against-the-rest classes", {
  data <- ridge_data()
  map <- rff_map(gaussian_kernel(1), 3, 40, seed = 1)
  y2 <- cbind(a = data$y, b = -2 * data$y + data$x[, 3])
  fit <- rff_ridge(data$x, y2, map, lambda = 0.5)
  expect_equal(unname(coef(fit)), unname(direct_ridge(rff_features(map, data$x), y2, 0.5)), tolerance = 1e-8)
  expect_equal(colnames(predict(fit, data$x)), c("a", "b"))
  classes <- factor(ifelse(data$y > 0.5, "high", ifelse(data$y < 0, "low", "mid")), levels = c("low", "mid", "high"))
  cfit <- rff_ridge(data$x, classes, map, lambda = 0.5)
  indicators <- outer(as.integer(classes), 1:3, "==") + 0
  expect_equal(unname(coef(cfit)), direct_ridge(rff_features(map, data$x), indicators, 0.5), tolerance = 1e-8)
  scores <- predict(cfit, data$x)
  expect_equal(colnames(scores), levels(classes))
  predicted <- predict(cfit, data$x, type = "class")
  expect_identical(levels(predicted), levels(classes))
  expect_identical(as.character(predicted), levels(classes)[max.col(scores, ties.method = "first")])
  expect_gt(mean(predicted == classes), 0.8)
  expect_error(predict(fit, data$x, type = "class"), "factor response", class = "askrff_error")
})

test_that("bad data, responses, chunks and penalties get named errors", {
  data <- ridge_data(n = 50)
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  expect_error(rff_ridge(data$x, data$y[-1], map), "`y` must have one entry per row of x \\(50\\), not 49", class = "askrff_error")
  expect_error(rff_ridge(data$x, replace(data$y, 3, NA), map), "must not contain NA", class = "askrff_error")
  expect_error(rff_ridge(data$x, as.character(data$y), map), "numeric vector, a numeric matrix or a factor", class = "askrff_error")
  expect_error(rff_ridge(data$x, factor(rep("a", 50)), map), "at least two levels", class = "askrff_error")
  for (bad in list(0, -1, NA, Inf, "1", c(1, 0))) {
    expect_error(rff_ridge(data$x, data$y, map, lambda = bad), "`lambda` must be NULL or positive finite numbers",
                 class = "askrff_error")
  }
  expect_error(rff_ridge(data$x[1, , drop = FALSE], data$y[1], map), "at least two rows", class = "askrff_error")
  expect_error(rff_ridge(data$x, data$y, map, fun = "square"), "rpf_map\\(\\) only", class = "askrff_error")
  expect_error(rff_ridge(data$x, data$y, "map"), "`map`", class = "askrff_error")
  chunks <- list(list(x = data$x[1:25, ], y = data$y[1:25]), list(x = data$x[26:50, ], y = data$y[26:50]))
  expect_error(rff_ridge(chunks, data$y, map), "`y` must be NULL", class = "askrff_error")
  wide <- chunks
  wide[[2]]$x <- cbind(wide[[2]]$x, 1)
  expect_error(rff_ridge(wide, map = map), "chunk 2 of `x`: `x` must have 3 columns, not 4", class = "askrff_error")
  short <- chunks
  short[[2]]$y <- short[[2]]$y[-1]
  expect_error(rff_ridge(short, map = map), "`y` of chunk 2 of `x` must have one entry per row", class = "askrff_error")
  mixed <- chunks
  mixed[[2]]$y <- factor(mixed[[2]]$y > 0)
  expect_error(rff_ridge(mixed, map = map), "`y` of chunk 2 of `x` must be a numeric vector like the first chunk's",
               class = "askrff_error")
  expect_error(rff_ridge(list(list(x = data$x)), map = map), "chunk 1 of `x` must be a list with elements `x` and `y`",
               class = "askrff_error")
  failing <- local({
    i <- 0L
    function() {
      i <<- i + 1L
      if (i == 3L) stop("disk on fire")
      chunks[[1]]
    }
  })
  expect_error(rff_ridge(failing, map = map), "Reading chunk 3 from `x` failed: disk on fire", class = "askrff_error")
  expect_error(rff_ridge(function() NULL, map = map), "no chunk", class = "askrff_error")
  fit <- rff_ridge(data$x, data$y, map)
  edited <- fit
  edited$coefficients <- edited$coefficients[-1, , drop = FALSE]
  expect_error(predict(edited, data$x), "`object\\$coefficients` must be a finite matrix", class = "askrff_error")
  edited <- fit
  edited$lambda <- 3
  expect_error(print(edited), "`x\\$lambda` must be one of the path's lambda values", class = "askrff_error")
  expect_error(predict(fit, data$x[, 1:2]), "`newdata` must have 3 columns", class = "askrff_error")
  # responses whose squares would overflow the sums, directly or in a chunk
  for (scale in c(1e155, 1e160)) {
    expect_error(rff_ridge(data$x, data$x[, 1] * scale, map), "`y` has values up to .* at most 1e100",
                 class = "askrff_error")
  }
  expect_error(rff_ridge(data$x, replace(data$y, 1, 1e308), map), "at most 1e100", class = "askrff_error")
  huge_chunk <- chunks
  huge_chunk[[2]]$y[1] <- 1e308
  expect_error(rff_ridge(huge_chunk, map = map), "`y` of chunk 2 of `x` has values up to 1e\\+308", class = "askrff_error")
  # coefficients edited so large that the predictions overflow
  edited <- fit
  edited$coefficients[] <- 1e308
  expect_error(predict(edited, data$x), "predictions overflow", class = "askrff_error")
  # a factor fit whose level names were edited to duplicates
  classes <- rff_ridge(data$x, factor(data$y > 0), map)
  classes$response$names <- c("a", "a")
  expect_error(predict(classes, data$x, type = "class"), "`object\\$response` .*distinct", class = "askrff_error")
})

test_that("rff_basis() is a formula term whose predictions reuse the map and the standardization", {
  cars <- datasets::mtcars
  fit <- lm(mpg ~ rff_basis(wt, hp, kernel = gaussian_kernel(1), n_features = 8, standardize = TRUE, seed = 1),
            data = cars)
  basis <- model.matrix(fit)[, -1]
  map <- attr(model.frame(fit)[[2]], "map")
  scaling <- attr(model.frame(fit)[[2]], "standardize")
  expect_equal(scaling$center, colMeans(cbind(cars$wt, cars$hp)))
  new <- data.frame(wt = c(2.5, 3.1, 4), hp = c(100, 150, 230))
  x_new <- sweep(sweep(cbind(new$wt, new$hp), 2, scaling$center), 2, scaling$scale, "/")
  direct <- drop(cbind(1, rff_features(map, x_new)) %*% coef(fit))
  expect_equal(unname(predict(fit, new)), direct, tolerance = 1e-12)
  expect_equal(unname(basis), unname(rff_features(map, sweep(sweep(cbind(cars$wt, cars$hp), 2, scaling$center), 2, scaling$scale, "/"))),
               tolerance = 1e-14)
  gfit <- glm(am ~ rff_basis(wt, kernel = gaussian_kernel(2), n_features = 2, seed = 3), family = binomial, data = cars)
  expect_length(predict(gfit, data.frame(wt = c(2, 5)), type = "response"), 2L)
  expect_error(rff_basis(cars$wt, cars$hp[-1], kernel = gaussian_kernel(1), n_features = 4), "same number of rows",
               class = "askrff_error")
  expect_error(rff_basis(letters, kernel = gaussian_kernel(1), n_features = 4),
               "Variable `letters` \\(number 1 of `...`\\) must be a numeric vector or matrix", class = "askrff_error")
  expect_error(rff_basis(rep(1, 5), kernel = gaussian_kernel(1), n_features = 4, standardize = TRUE), "constant",
               class = "askrff_error")
})

test_that("progress is signalled through progressr, a step per chunk and pass", {
  skip_if_not_installed("progressr")
  data <- ridge_data(n = 100)
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  chunks <- lapply(1:4, function(i) list(x = data$x[(25 * i - 24):(25 * i), ], y = data$y[(25 * i - 24):(25 * i)]))
  old <- options(progressr.enable = TRUE)
  on.exit(options(old))
  steps <- function(criterion) {
    count <- 0L
    withCallingHandlers(rff_ridge(chunks, map = map, criterion = criterion), progression = function(p) {
      if (identical(p$type, "update")) count <<- count + 1L
    })
    count
  }
  expect_equal(steps("evidence"), 4L)
  # leave-one-out reads the chunks a second time
  expect_equal(steps("loo"), 8L)
})

test_that("the eigendecomposition of a wide Z'Z reports its progress through progressr", {
  skip_if_not_installed("progressr")
  # more rows than columns: the primal form's D x D decomposition
  data <- ridge_data(n = 600)
  old <- options(progressr.enable = TRUE)
  on.exit(options(old))
  progress <- function(map) {
    amounts <- numeric()
    withCallingHandlers(rff_ridge(data$x, data$y, map), progression = function(p) {
      if (identical(p$type, "update") && identical(p$message, "eigendecomposition")) amounts <<- c(amounts, p$amount)
    })
    amounts
  }
  # 512 columns: percents up to 100
  amounts <- progress(rff_map(gaussian_kernel(1), 3, 256, seed = 1))
  expect_gt(length(amounts), 10L)
  expect_equal(sum(amounts), 100)
  # a few columns take milliseconds: nothing to report
  expect_length(progress(rff_map(gaussian_kernel(1), 3, 8, seed = 1)), 0L)
})
