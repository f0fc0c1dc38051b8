# Spectral clustering on kernel features (R/unsupervised-spectral.R): the
# embedding against the eigenvectors of the normalized affinity of
# rff_features() computed directly; the clusters against kernlab::specc.

rings <- function(n, seed = 1) {
  set.seed(seed)
  angle <- runif(n, 0, 2 * pi)
  ring <- rep(1:2, each = n / 2)
  radius <- c(1, 3)[ring]
  list(x = cbind(radius * cos(angle), radius * sin(angle)) + rnorm(2 * n, sd = 0.1), ring = ring)
}

test_that("the embedding is the top eigenvectors of the features' normalized affinity, rows to unit length", {
  d <- rings(200)
  for (map in list(rff_map(gaussian_kernel(1), 2, 64, seed = 1),
                   nystrom_map(gaussian_kernel(0.5), d$x[seq(1, 200, by = 5), ]))) {
    fit <- rff_spectral(d$x, 3, map = map, seed = 1)
    z <- rff_features(map, d$x)
    affinity <- tcrossprod(z)
    degrees <- rowSums(affinity)
    normalized <- affinity / sqrt(outer(degrees, degrees))
    exact <- eigen(normalized, symmetric = TRUE)
    expect_equal(fit$eigenvalues, exact$values[1:3], tolerance = 1e-8)
    u <- exact$vectors[, 1:3] / sqrt(rowSums(exact$vectors[, 1:3]^2))
    signs <- sign(colSums(fit$embedding * u))
    expect_equal(sweep(fit$embedding, 2L, signs, "*"), u, tolerance = 1e-8)
    # k-means ends at a fixed point: each row is nearest its own centre,
    # which predict() finds again from the rows' features
    expect_identical(unname(predict(fit, d$x)), fit$cluster)
    expect_equal(fit$tot.withinss, sum((fit$embedding - fit$centers[fit$cluster, ])^2), tolerance = 1e-10)
    expect_identical(fitted(fit), fit$cluster)
  }
})

test_that("on two rings it clusters as kernlab::specc does, with the same kernel", {
  skip_if_not_installed("kernlab")
  d <- rings(600)
  sigma <- 0.5
  exact <- kernlab::specc(d$x, 2, kernel = "rbfdot", kpar = list(sigma = 1 / (2 * sigma^2)))
  fit <- rff_spectral(d$x, 2, kernel = gaussian_kernel(sigma), seed = 1)
  expect_gt(adjusted_rand(exact@.Data, d$ring), 0.99)
  expect_lt(abs(adjusted_rand(fit$cluster, d$ring) - adjusted_rand(exact@.Data, d$ring)), 0.02)
  # where specc fails (a length scale too long for the rings), so does the fit
  wide <- kernlab::specc(d$x, 2, kernel = "rbfdot", kpar = list(sigma = 1 / 2))
  expect_lt(abs(adjusted_rand(rff_spectral(d$x, 2, kernel = gaussian_kernel(1), seed = 1)$cluster, d$ring) -
                  adjusted_rand(wide@.Data, d$ring)), 0.02)
})

test_that("new rows are embedded by the eigenvectors' extension; far rows get NA with a warning", {
  d <- rings(300)
  fit <- rff_spectral(d$x, 2, kernel = gaussian_kernel(0.5), seed = 1)
  inner <- fit$cluster[d$ring == 1][1]
  outer <- fit$cluster[d$ring == 2][1]
  expect_identical(unname(predict(fit, rbind(c(0, 1), c(3, 0)))), c(inner, outer))
  expect_warning(far <- predict(fit, rbind(c(0, 1), c(100, 100), NA)), "1 row of `newdata`", class = "askrff_warning")
  expect_identical(unname(far), c(inner, NA, NA))
  expect_identical(rff_spectral(d$x, 2, kernel = gaussian_kernel(0.5), seed = 1)$cluster, fit$cluster)
})

test_that("random Fourier features too few for the kernel's scale are refused, naming the remedy", {
  d <- rings(300)
  expect_error(rff_spectral(d$x, 2, kernel = gaussian_kernel(0.1), method = "iid", n_features = 16, seed = 1),
               "n_features", class = "askrff_data_error")
})

test_that("bad arguments and edited fits are refused, naming the field", {
  d <- rings(100)
  expect_error(rff_spectral(d$x), "centers", class = "askrff_error")
  expect_error(rff_spectral(d$x, 0), "centers", class = "askrff_error")
  expect_error(rff_spectral(d$x, 2, n_starts = 0), "n_starts", class = "askrff_error")
  expect_error(rff_spectral(list(list(x = d$x)), 2), "in memory", class = "askrff_error")
  expect_error(rff_spectral(d$x[1:2, ], 2), "more rows", class = "askrff_error")
  fit <- rff_spectral(d$x, 2, kernel = gaussian_kernel(0.5), n_features = 20, seed = 1)
  edited <- fit
  edited$projection <- edited$projection[, 1, drop = FALSE]
  expect_error(predict(edited, d$x), "object\\$", class = "askrff_error")
  edited <- fit
  edited$eigenvalues[2] <- -1
  expect_error(print(edited), "x\\$eigenvalues", class = "askrff_error")
})
