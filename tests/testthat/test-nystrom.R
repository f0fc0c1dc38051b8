# nystrom_map(): against K(x, Z) K_ZZ^-1 K(Z, y) solved directly, for
# positive definite, indefinite and asymmetric kernels; landmarks; ridge;
# corrupted maps.

# Landmarks far enough apart that K_ZZ is well conditioned, so solve() gives
# an independent reference for the pseudo-inverse.
nystrom_fixture <- function() {
  list(x = fixture_points(30, 2, seed = 3), y = fixture_points(20, 2, seed = 4),
       z = as.matrix(expand.grid(c(0.1, 0.5, 0.9), c(0.1, 0.5, 0.9))))
}

direct_nystrom <- function(kernel, x, y, z) {
  kernel_matrix(kernel, x, z) %*% solve(kernel_matrix(kernel, z, z), kernel_matrix(kernel, z, y))
}

test_that("L(x) R(y)' is K(x, Z) K_ZZ^-1 K(Z, y) for every kind of kernel", {
  data <- nystrom_fixture()
  kernels <- list(positive = gaussian_kernel(0.4), indefinite = gaussian_kernel(0.3) - 0.8 * gaussian_kernel(0.6),
                  asymmetric = shift_gaussian_kernel(0.5, c(0.2, -0.1)))
  decompositions <- c(positive = "eigen", indefinite = "eigen", asymmetric = "svd")
  for (name in names(kernels)) {
    map <- nystrom_map(kernels[[name]], data$z)
    expect_equal(map$decomposition, decompositions[[name]], label = name)
    expect_equal(map$rank, 9L)
    K_hat <- rff_kernel_matrix(map, data$x, data$y)
    expect_equal(K_hat, direct_nystrom(kernels[[name]], data$x, data$y, data$z), tolerance = 1e-9, label = name)
    # exact at the landmarks, in either orientation
    expect_equal(rff_kernel_matrix(map, data$z), kernel_matrix(kernels[[name]], data$z), tolerance = 1e-9, label = name)
    expect_equal(rff_features(map, data$x) %*% t(rff_features(map, data$y, "right")), K_hat, tolerance = 1e-12)
  }
  positive <- nystrom_map(kernels$positive, data$z)
  expect_identical(rff_features(positive, data$x), rff_features(positive, data$x, "right"))
  indefinite <- nystrom_map(kernels$indefinite, data$z)
  expect_true(any(indefinite$values < 0))
  expect_output(print(indefinite), "negative eigenvalues?: the kernel is indefinite")
  expect_identical(predict(indefinite, data$x, side = "right"), rff_features(indefinite, data$x, "right"))
  expect_identical(n_feature_columns(indefinite), c(left = 9L, right = 9L))
})

test_that("rank and tolerance keep the largest eigenvalues", {
  data <- nystrom_fixture()
  kernel <- gaussian_kernel(0.4)
  map <- nystrom_map(kernel, data$z, rank = 3)
  e <- eigen(kernel_matrix(kernel, data$z), symmetric = TRUE)
  top <- e$vectors[, 1:3]
  expected <- kernel_matrix(kernel, data$x, data$z) %*% top %*% diag(1 / e$values[1:3]) %*%
    t(top) %*% kernel_matrix(kernel, data$z, data$y)
  expect_equal(rff_kernel_matrix(map, data$x, data$y), expected, tolerance = 1e-10)
  expect_equal(ncol(rff_features(map, data$x)), 3L)
  # a wide kernel on close landmarks is numerically singular: the tolerance drops the noise
  close <- nystrom_map(gaussian_kernel(5), data$z, tolerance = 1e-6)
  expect_lt(close$rank, 9L)
  expect_true(all(abs(close$values) > 1e-6 * max(abs(close$values))))
})

test_that("landmarks are distinct rows, reproducible by seed, and k-means++ spreads them", {
  x <- rbind(fixture_points(200, 2, seed = 5), matrix(0.5, 50, 2))
  uniform <- nystrom_landmarks(x, 20, seed = 3)
  expect_identical(uniform, nystrom_landmarks(x, 20, seed = 3))
  expect_false(anyDuplicated(uniform) > 0)
  expect_true(all(apply(uniform, 1, function(r) any(colSums(t(x) == r) == 2))))
  spread <- nystrom_landmarks(x, 20, "kmeans++", seed = 3)
  expect_false(anyDuplicated(spread) > 0)
  nearest <- function(z) min(dist(z))
  # k-means++ is drawn toward far points: over seeds its closest pair is farther apart
  closest <- vapply(1:20, function(s) c(nearest(nystrom_landmarks(x, 20, seed = s)),
                                       nearest(nystrom_landmarks(x, 20, "kmeans++", seed = s))), double(2))
  expect_gt(mean(closest[2, ]), mean(closest[1, ]))
  expect_error(nystrom_landmarks(matrix(1, 5, 2), 2), "at most the 1 distinct rows", class = "askrff_error")
  expect_error(nystrom_landmarks(x, 0), "`n` must be", class = "askrff_error")
  expect_error(nystrom_landmarks(x, 3, "kmeans"), "`method` must be", class = "askrff_error")
})

test_that("rff_ridge fits on Nyström features as on any map, in memory or in chunks", {
  set.seed(2)
  x <- matrix(rnorm(300), 150)
  y <- sin(2 * x[, 1]) + rnorm(150, sd = 0.1)
  map <- nystrom_map(matern_kernel(1, 2.5), nystrom_landmarks(x, 25, "kmeans++", seed = 1))
  fit <- rff_ridge(x, y, map, lambda = 0.3)
  z <- rff_features(map, x)
  zc <- sweep(z, 2L, colMeans(z))
  b <- solve(crossprod(zc) + 0.3 * diag(ncol(z)), crossprod(zc, y - mean(y)))
  expect_equal(unname(coef(fit)[-1]), drop(b), tolerance = 1e-8)
  expect_equal(predict(fit, x[1:5, ]), fitted(fit)[1:5], tolerance = 1e-10)
  chunks <- lapply(split(seq_len(150), rep(1:3, each = 50)), function(i) list(x = x[i, ], y = y[i]))
  expect_equal(coef(rff_ridge(chunks, map = map, lambda = 0.3)), coef(fit), tolerance = 1e-10)
  expect_error(rff_ridge(x, y, map, fun = "square"), "`fun` applies to maps of rpf_map", class = "askrff_error")
})

test_that("bad arguments and corrupted Nyström maps give named errors", {
  data <- nystrom_fixture()
  kernel <- gaussian_kernel(0.4)
  expect_error(nystrom_map(kernel, data$z, rank = 0), "`rank`", class = "askrff_error")
  expect_error(nystrom_map(kernel, data$z, tolerance = 1), "`tolerance`", class = "askrff_error")
  expect_error(nystrom_map(kernel, data$z, tolerance = NA_real_), "`tolerance`", class = "askrff_error")
  expect_error(nystrom_map(kernel, matrix(NA_real_, 2, 2)), "`landmarks`", class = "askrff_error")
  map <- nystrom_map(kernel, data$z)
  expect_error(rff_features(map, data$x[, 1, drop = FALSE]), "`x` must have 2 columns", class = "askrff_error")
  corrupt <- list(left_weights = map$left_weights[, -1], right_weights = "a", landmarks = data$z[, 1],
                  rank = -1, values = NULL, decomposition = "qr", kernel = list(name = "gaussian"),
                  format_version = 1)
  for (name in names(corrupt)) {
    bad <- map
    bad[name] <- list(corrupt[[name]])
    expect_error(rff_kernel_matrix(bad, data$x), if (name == "format_version") "format_version" else
      sprintf("map\\$%s", name), class = "askrff_error", label = name)
  }
  bad <- map
  bad$right_weights[1, 1] <- Inf
  expect_error(rff_features(bad, data$x, "right"), "map\\$right_weights", class = "askrff_error")
  expect_error(rff_features(unclass(map), data$x), "`map` must be", class = "askrff_error")
})
