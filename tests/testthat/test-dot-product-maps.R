# maclaurin_map() and tensor_sketch_map(): the expansion in x'y against the
# exact Gram matrix, unbiasedness (signed coefficients included), Random
# Maclaurin's closed-form variance, the map protocol, corrupted maps.

sphere_points <- function(n, d, seed) normalize_rows(fixture_points(n, d, seed))

test_that("the coefficients in x'y reproduce the kernels, sums and products included", {
  x <- sphere_points(12, 4, seed = 1)
  t <- tcrossprod(x)
  kernels <- list(poly_sphere_kernel(2, 1), poly_sphere_kernel(3, 4), poly_sphere_kernel(2.5, 7),
                  2 * poly_sphere_kernel(2, 3) - poly_sphere_kernel(3, 2),
                  poly_sphere_kernel(3, 2) * poly_sphere_kernel(2, 1) + 0.5 * poly_sphere_kernel(4, 1))
  for (i in seq_along(kernels)) {
    k <- kernels[[i]]
    series <- askrff:::dot_product_series(k)
    expansion <- Reduce(`+`, Map(function(c, n) c * t^n, series, seq_along(series) - 1L))
    expect_equal(expansion, kernel_matrix(k, x), tolerance = 1e-12, label = sprintf("kernel %d", i))
  }
  # a = 2: k = ((1 + x'y) / 2)^p, so c_n = C(p, n) / 2^p
  expect_equal(askrff:::dot_product_series(poly_sphere_kernel(2, 3)), choose(3, 0:3) / 8)
})

test_that("both maps are unbiased, for signed coefficients too", {
  skip_on_cran()
  skip_statistics_under_sanitizers()
  x <- sphere_points(10, 3, seed = 2)
  # c = (-1/2, 1, 3/8, ...): the left and right sides differ by the signs
  signed <- 2 * poly_sphere_kernel(2, 3) - poly_sphere_kernel(2, 1) - poly_sphere_kernel(3, 2)
  expect_true(any(askrff:::dot_product_series(signed) < 0))
  for (k in list(poly_sphere_kernel(3, 3), signed)) {
    K <- kernel_matrix(k, x)
    for (make in list(maclaurin_map, tensor_sketch_map)) {
      # the mean error over all pairs of one map, over 400 independent maps:
      # about N(0, 1) in units of its standard error, so |z| < 4 fails
      # an unbiased estimator with probability 6e-5 (fixed seeds)
      z <- mean_error_z(K, function(r) rff_kernel_matrix(make(k, 3, 40, seed = r), x), 400)
      expect_lt(abs(z), 4)
      # and each pair on its own (a few dozen entries, see unbiasedness_z())
      z_pairs <- unbiasedness_z(K[1:4, 1:4], function(r) rff_kernel_matrix(make(k, 3, 40, seed = r), x[1:4, ]), 400)
      expect_lt(max(abs(z_pairs)), 4.5)
    }
  }
})

test_that("Tensor Sketch is exact on a constant and a degree-1 kernel with one bucket per coordinate", {
  x <- sphere_points(8, 3, seed = 3)
  k <- poly_sphere_kernel(3, 1) # 7/9 + 2/9 x'y
  map <- tensor_sketch_map(k, 3, 2, seed = 1)
  expect_equal(map$constant, 7 / 9)
  expect_identical(map$blocks[[1]]$columns, 1L)
  # one bucket: the sketch is s'x, so K_hat = 7/9 + 2/9 (s'x)(s'y)
  s <- map$blocks[[1]]$sign[, 1]
  expect_equal(rff_kernel_matrix(map, x), 7 / 9 + 2 / 9 * tcrossprod(x %*% s), tolerance = 1e-12)
})

test_that("the tensor sketch is the circular convolution of its count sketches", {
  x <- sphere_points(5, 4, seed = 4)
  map <- tensor_sketch_map(poly_sphere_kernel(2, 2), 4, 7, seed = 3)
  # c = (1/4, 1/2, 1/4): a constant column, then blocks of degree 1 and 2
  block <- map$blocks[[2]]
  expect_identical(block$degree, 2L)
  count_sketch <- function(level) {
    out <- matrix(0, nrow(x), block$columns)
    for (a in seq_len(ncol(x))) out[, block$hash[a, level]] <- out[, block$hash[a, level]] + block$sign[a, level] * x[, a]
    out
  }
  c1 <- count_sketch(1)
  c2 <- count_sketch(2)
  D <- block$columns
  convolution <- sapply(seq_len(D) - 1L, function(b) {
    rowSums(sapply(seq_len(D) - 1L, function(i) c1[, i + 1L] * c2[, (b - i) %% D + 1L]))
  })
  expect_equal(rff_features(map, x)[, 7 - D + seq_len(D)], sqrt(block$coefficient) * convolution, tolerance = 1e-12)
})

test_that("Random Maclaurin's variance matches its closed form", {
  skip_on_cran()
  skip_statistics_under_sanitizers()
  x <- sphere_points(8, 3, seed = 5)
  k <- poly_sphere_kernel(2.5, 3)
  study <- approximation_study(k, x, n_features = 20, methods = "maclaurin", trials = 3000, metrics = "frobenius",
                               seed = 2, n_threads = 1)
  pairs <- attr(study, "pairs")
  # a sample variance over 3000 trials has relative standard error
  # sqrt((kurtosis - 1) / 2999); an entry's kurtosis measures about 3.4 at
  # 20 columns. The mean over correlated pairs is no better than one pair,
  # so 5 of those standard errors bound it
  expect_lt(abs(pairs$variance / pairs$theory_variance - 1), 5 * sqrt(2.4 / 2999))
  expect_lt(abs(pairs$mean_error), 5 * sqrt(pairs$variance / 3000))
})

test_that("maps made in R work wherever a map works", {
  x <- sphere_points(30, 3, seed = 6)
  k <- poly_sphere_kernel(3, 2)
  for (make in list(maclaurin_map, tensor_sketch_map)) {
    map <- make(k, 3, 25, seed = 9)
    expect_identical(map, make(k, 3, 25, seed = 9))
    expect_identical(n_feature_columns(map), c(left = 25L, right = 25L))
    L <- rff_features(map, x)
    expect_identical(dim(L), c(30L, 25L))
    expect_identical(predict(map, x, side = "right"), rff_features(map, x, "right"))
    expect_equal(rff_kernel_matrix(map, x), tcrossprod(L, rff_features(map, x, "right")), tolerance = 1e-12)
    expect_identical(unserialize(serialize(map, NULL)), map)
    expect_output(print(map), "columns per side")
    fit <- rff_ridge(x, x[, 1] - x[, 2], map, lambda = 1e-3)
    expect_equal(predict(fit, x[1:3, ]), fitted(fit)[1:3], tolerance = 1e-10, ignore_attr = TRUE)
  }
  study <- approximation_study(k, x, n_features = c(10, 40), methods = c("maclaurin", "tensor_sketch", "iid"),
                               trials = 2, metrics = "frobenius", seed = 1, n_threads = 1)
  expect_setequal(unique(study$method), c("maclaurin", "tensor_sketch", "iid"))
  expect_identical(unique(study$n_columns[study$method == "tensor_sketch"]), c(10L, 40L))
})

test_that("kernels without a finite expansion and bad arguments get named errors", {
  expect_error(maclaurin_map(gaussian_kernel(1), 3, 10), "dot-product kernel", class = "askrff_error")
  expect_error(tensor_sketch_map(arccos_kernel(0), 3, 10), "dot-product kernel", class = "askrff_error")
  expect_error(tensor_sketch_map(poly_sphere_kernel(3, 4), 3, 4), "at least 5", class = "askrff_error")
  expect_error(maclaurin_map(poly_sphere_kernel(2, 1), 3, 0), "n_features", class = "askrff_error")
  expect_error(poly_sphere_kernel(2, 1) - poly_sphere_kernel(2, 1), NA)
  expect_error(maclaurin_map(poly_sphere_kernel(2, 1) - poly_sphere_kernel(2, 1), 3, 5), "zero on the sphere",
               class = "askrff_error")
  # 7/9 + 2/9 x'y less 4/9 (1 + x'y)/2 is the constant 5/9: exact with one column
  constant <- poly_sphere_kernel(3, 1) - 4 / 9 * poly_sphere_kernel(2, 1)
  expect_error(tensor_sketch_map(constant, 3, 4), "constant on the sphere", class = "askrff_error")
  s <- sphere_points(4, 3, 1)
  expect_equal(rff_kernel_matrix(tensor_sketch_map(constant, 3, 1), s), matrix(5 / 9, 4, 4), tolerance = 1e-12)
  expect_equal(rff_kernel_matrix(maclaurin_map(constant, 3, 3), s), matrix(5 / 9, 4, 4), tolerance = 1e-12)
  map <- maclaurin_map(poly_sphere_kernel(2, 2), 3, 5, seed = 1)
  expect_error(rff_features(map, fixture_points(4, 3)), "unit norm", class = "askrff_error")
  edited <- map
  edited$rademacher[1] <- 0
  expect_error(rff_features(edited, sphere_points(4, 3, 1)), "map\\$rademacher", class = "askrff_error")
  sketch <- tensor_sketch_map(poly_sphere_kernel(2, 2), 3, 5, seed = 1)
  edited <- sketch
  edited$blocks[[1]]$hash[1] <- 99L
  expect_error(rff_kernel_matrix(edited, sphere_points(4, 3, 1)), "blocks\\[\\[1\\]\\]\\$hash", class = "askrff_error")
  edited <- sketch
  edited$n_features <- 9
  expect_error(predict(edited, sphere_points(4, 3, 1)), "n_features", class = "askrff_error")
})

test_that("Tensor Sketch blocks of any length are the circular convolutions of their count sketches", {
  x <- sphere_points(6, 5, seed = 8)
  convolve <- function(a, b) {
    D <- ncol(a)
    sapply(seq_len(D) - 1L, function(k) rowSums(sapply(seq_len(D) - 1L, function(i) a[, i + 1L] * b[, (k - i) %% D + 1L])))
  }
  count_sketch <- function(block, level) {
    out <- matrix(0, nrow(x), block$columns)
    for (a in seq_len(ncol(x))) out[, block$hash[a, level]] <- out[, block$hash[a, level]] + block$sign[a, level] * x[, a]
    out
  }
  # c_n of ((1 + x'y) / 2)^4 all nonzero: blocks of degree 1 to 4, and n_features
  # chosen for block lengths that are powers of two (radix-2 transforms) and
  # primes (Bluestein's)
  for (n_features in c(50, 100, 131)) {
    map <- tensor_sketch_map(poly_sphere_kernel(2, 4), 5, n_features, seed = n_features)
    z <- rff_features(map, x)
    first <- 2L
    for (block in map$blocks) {
      expected <- Reduce(convolve, lapply(seq_len(block$degree), count_sketch, block = block))
      columns <- first - 1L + seq_len(block$columns)
      expect_equal(z[, columns], sqrt(block$coefficient) * expected, tolerance = 1e-12,
                   label = sprintf("degree %d block of %d columns", block$degree, block$columns))
      first <- first + block$columns
    }
  }
  # among the transformed blocks (degree 2 and up): lengths 4 and 8, and the primes 19 and 13
  lengths <- unlist(lapply(c(50, 100), function(n) {
    blocks <- tensor_sketch_map(poly_sphere_kernel(2, 4), 5, n, seed = n)$blocks
    vapply(Filter(function(block) block$degree > 1L, blocks), `[[`, 1L, "columns")
  }))
  expect_true(all(c(4L, 8L, 19L, 13L) %in% lengths))
})

test_that("features whose map was edited to overflow are refused, on every path", {
  x <- sphere_points(20, 3, seed = 9)
  map <- maclaurin_map(poly_sphere_kernel(3, 2), 3, 8, seed = 1)
  map$weight <- map$weight * 1e300
  expect_error(rff_features(map, x, n_threads = 2), "overflow.*maclaurin_map\\(\\)", class = "askrff_error")
  sketch <- tensor_sketch_map(poly_sphere_kernel(3, 2), 3, 8, seed = 1)
  sketch$blocks[[1]]$coefficient <- 1e308
  expect_error(rff_kernel_matrix(sketch, x), "overflow.*tensor_sketch_map\\(\\)", class = "askrff_error")
  expect_error(rff_ridge(x, x[, 1], sketch, lambda = 1), "overflow", class = "askrff_error")
})
