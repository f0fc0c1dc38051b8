# Kernel canonical correlations on random features (R/unsupervised-cca.R):
# the linear algebra against cancor() of rff_features() and against the
# regularized problem solved independently; predict(), chunks, encodings.

cca_data <- function(n = 300, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * 4), n, dimnames = list(NULL, paste0("x", 1:4)))
  y <- cbind(u = x[, 1]^2 + rnorm(n), v = sin(2 * x[, 2]) + rnorm(n, sd = 0.5), w = rnorm(n))
  list(x = x, y = y, map_x = rff_map(gaussian_kernel(2), 4, 5, seed = seed),
       map_y = rff_map(gaussian_kernel(2), 3, 4, seed = seed + 1))
}

test_that("with lambda = 0, rff_cca() is cancor() of the two feature matrices", {
  d <- cca_data()
  zx <- rff_features(d$map_x, d$x)
  zy <- rff_features(d$map_y, d$y)
  # well conditioned, so that both computations keep every direction
  expect_lt(kappa(scale(zx, scale = FALSE), exact = TRUE), 1e3)
  fit <- rff_cca(d$x, d$y, kernel_x = d$map_x, kernel_y = d$map_y, rank = 8, lambda = 0)
  reference <- stats::cancor(zx, zy)
  expect_s3_class(fit, "askrff_cca")
  expect_equal(fit$cor, reference$cor, tolerance = 1e-8)
  expect_equal(fit$xcenter, unname(reference$xcenter), tolerance = 1e-12)
  expect_equal(fit$ycenter, unname(reference$ycenter), tolerance = 1e-12)
  # cancor's variates have sum of squares 1, askrff's variance 1
  n <- nrow(d$x)
  signs <- sign(colSums(fit$xcoef * reference$xcoef[, 1:8]))
  expect_equal(unname(sweep(fit$xcoef, 2L, signs, "*")), reference$xcoef[, 1:8] * sqrt(n - 1), tolerance = 1e-8)
  expect_equal(unname(sweep(fit$ycoef, 2L, signs, "*")), reference$ycoef[, 1:8] * sqrt(n - 1), tolerance = 1e-8)
  expect_true(all(apply(fit$xcoef, 2L, function(v) v[which.max(abs(v))]) > 0))
  # the variates: unit variance, uncorrelated, each pair correlated as `cor` says
  v <- fit$variates
  expect_equal(unname(stats::cov(v$x)), diag(8), tolerance = 1e-8)
  expect_equal(unname(stats::cov(v$y)), diag(8), tolerance = 1e-8)
  expect_equal(unname(stats::cov(v$x, v$y)), diag(fit$cor[1:8]), tolerance = 1e-8)
  expect_identical(predict(fit), v)
  expect_identical(ncol(rff_cca(d$x, d$y, kernel_x = d$map_x, kernel_y = d$map_y, rank = 100)$xcoef), 8L)
})

test_that("with lambda > 0 the correlations solve the regularized problem", {
  d <- cca_data()
  zx <- rff_features(d$map_x, d$x)
  zy <- rff_features(d$map_y, d$y)
  lambda <- 0.3
  fit <- rff_cca(d$x, d$y, kernel_x = d$map_x, kernel_y = d$map_y, rank = 8, lambda = lambda)
  # rho^2 are the eigenvalues of (Cxx + lx I)^-1 Cxy (Cyy + ly I)^-1 Cyx
  cxx <- stats::cov(zx)
  cyy <- stats::cov(zy)
  cxy <- stats::cov(zx, zy)
  rx <- cxx + lambda * mean(diag(cxx)) * diag(ncol(zx))
  ry <- cyy + lambda * mean(diag(cyy)) * diag(ncol(zy))
  rho2 <- Re(eigen(solve(rx, cxy) %*% solve(ry, t(cxy)), only.values = TRUE)$values)
  expect_equal(fit$cor^2, sort(rho2, decreasing = TRUE)[1:8], tolerance = 1e-8)
  # the normalization the regularized problem imposes: a'(Cxx + lx I)a = 1
  expect_equal(unname(crossprod(fit$xcoef, rx %*% fit$xcoef)), diag(8), tolerance = 1e-8)
  # more regularization, smaller correlations
  more <- rff_cca(d$x, d$y, kernel_x = d$map_x, kernel_y = d$map_y, lambda = 3)
  expect_true(all(more$cor < fit$cor))
})

test_that("predict() gives the variates of new rows, NA for incomplete ones", {
  d <- cca_data()
  fit <- rff_cca(d$x, d$y, kernel_x = d$map_x, kernel_y = d$map_y, rank = 3)
  new <- predict(fit, list(y = d$y[1:4, ], x = d$x[1:4, ]))
  expect_named(new, c("y", "x"))
  expect_equal(new$x, fit$variates$x[1:4, ], tolerance = 1e-12)
  expect_equal(new$y, fit$variates$y[1:4, ], tolerance = 1e-12)
  gap <- predict(fit, list(x = rbind(d$x[1:2, ], NA)))$x
  expect_true(all(is.na(gap[3, ])))
  expect_equal(gap[1:2, ], fit$variates$x[1:2, ], tolerance = 1e-12)
  expect_error(predict(fit, list(x = d$x[, 1:3])), "newdata\\$x", class = "askrff_error")
  expect_error(predict(fit, list(z = d$x)), "newdata", class = "askrff_error")
  expect_error(predict(fit, d$x), "newdata", class = "askrff_error")
})

test_that("a kernel by name standardizes each side and factors become indicators", {
  set.seed(2)
  frame <- data.frame(size = rnorm(200, 100, 30), kind = factor(sample(c("a", "b", "c"), 200, TRUE)))
  y <- frame$size / 30 + (frame$kind == "b") + rnorm(200, sd = 0.3)
  fit <- rff_cca(frame, y, n_features = 20, rank = 2, seed = 1)
  expect_identical(fit$columns_x, c("size", "kinda", "kindb", "kindc"))
  expect_equal(fit$scaling_x$center[["size"]], mean(frame$size))
  new <- predict(fit, list(x = frame[1:5, ], y = y[1:5]))
  expect_equal(new$x, fit$variates$x[1:5, ], tolerance = 1e-12)
  expect_equal(new$y, fit$variates$y[1:5, ], tolerance = 1e-12)
  # other levels are other columns: refused, not silently misread
  other <- frame[1:5, ]
  other$kind <- factor(c("a", "b", "d", "a", "b"))
  expect_error(predict(fit, list(x = other)), "newdata\\$x.*levels", class = "askrff_error")
  # a logical with one value among the new rows keeps its column
  flags <- data.frame(size = frame$size, big = frame$size > 100)
  flagged <- rff_cca(flags, y, n_features = 20, rank = 2, seed = 1)
  expect_equal(predict(flagged, list(x = flags[flags$big, ][1:3, ]))$x, flagged$variates$x[which(flags$big)[1:3], ],
               tolerance = 1e-12)
  # the same seed, the same maps
  expect_identical(rff_cca(frame, y, n_features = 20, rank = 2, seed = 1)$cor, fit$cor)
})

test_that("chunks and threads give the fit of the rows in memory", {
  d <- cca_data()
  fit <- rff_cca(d$x, d$y, kernel_x = d$map_x, kernel_y = d$map_y, rank = 4, n_threads = 1)
  chunks <- lapply(split(seq_len(300), rep(1:3, each = 100)), function(i) list(x = d$x[i, ], y = d$y[i, ]))
  streamed <- rff_cca(chunks, kernel_x = d$map_x, kernel_y = d$map_y, rank = 4, n_threads = 2)
  expect_equal(streamed$cor, fit$cor, tolerance = 1e-10)
  expect_equal(streamed$xcoef, fit$xcoef, tolerance = 1e-8)
  expect_null(streamed$variates)
  expect_error(predict(streamed), "newdata", class = "askrff_error")
  expect_equal(predict(streamed, list(x = d$x))$x, fit$variates$x, tolerance = 1e-8)
  expect_identical(rff_cca(d$x, d$y, kernel_x = d$map_x, kernel_y = d$map_y, rank = 4, n_threads = 2)$cor, fit$cor)
})

test_that("bad arguments and edited fits are refused, naming the field", {
  d <- cca_data(50)
  expect_error(rff_cca(d$x, d$y, lambda = -1), "lambda", class = "askrff_error")
  expect_error(rff_cca(d$x, d$y, rank = 0), "rank", class = "askrff_error")
  expect_error(rff_cca(d$x, d$y[1:40, ]), "same number of rows", class = "askrff_error")
  expect_error(rff_cca(d$x, d$y, kernel_y = laplace_kernel(1) - gaussian_kernel(2)), "kernel_y", class = "askrff_error")
  expect_error(rff_cca(d$x, rep(1, 50), kernel_y = gaussian_kernel(1)), "`y`", class = "askrff_error")
  expect_error(rff_cca(d$x, d$y, bad = 1), class = "askrff_error")
  fit <- rff_cca(d$x, d$y, n_features = 5, seed = 1)
  edited <- fit
  edited$ycoef <- edited$ycoef[, 1:2]
  expect_error(predict(edited), "fit\\$ycoef|object\\$ycoef", class = "askrff_error")
  edited <- fit
  edited$cor <- rev(edited$cor)
  expect_error(print(edited), "x\\$cor", class = "askrff_error")
})
