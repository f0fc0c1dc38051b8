# fastfood_map(): its features against the frequencies S H G P H B formed
# explicitly, unbiasedness for the kernel, and the kernels and edits it
# refuses.

# The Sylvester-Hadamard matrix of order n (a power of two).
hadamard <- function(n) {
  h <- matrix(1, 1, 1)
  while (nrow(h) < n) h <- rbind(cbind(h, h), cbind(h, -h))
  h
}

# The map's n frequencies as the rows of a matrix (n by d), from its fields.
fastfood_frequencies <- function(map) {
  h <- hadamard(map$size)
  rows <- lapply(seq_len(ncol(map$scale)), function(b) {
    permutation <- diag(map$size)[map$permutation[, b], , drop = FALSE]
    diag(map$scale[, b], map$size) %*% h %*% diag(map$gaussian[, b], map$size) %*% permutation %*% h %*%
      diag(map$sign[, b], map$size)
  })
  do.call(rbind, rows)[seq_len(map$n_features), seq_len(map$d), drop = FALSE]
}

test_that("the features are those of the frequencies S H G P H B, formed explicitly", {
  for (d in c(1L, 3L, 8L)) {
    map <- fastfood_map(matern_kernel(1.3, 2.5), d, 21, seed = d)
    x <- fixture_points(7, d, seed = 4)
    w <- fastfood_frequencies(map)
    projections <- x %*% t(w)
    expected <- sqrt(map$mass / map$n_features) * cbind(cos(projections), sin(projections))
    expect_equal(rff_features(map, x), expected, tolerance = 1e-12, ignore_attr = TRUE)
    expect_identical(rff_features(map, x, "right"), rff_features(map, x))
    # each frequency has the radius the map drew: r = scale sqrt(D) ||G||
    radii <- as.vector(map$scale * sqrt(map$size) * rep(sqrt(colSums(map$gaussian^2)), each = map$size))
    full <- do.call(rbind, lapply(seq_len(ncol(map$scale)), function(b) {
      diag(map$scale[, b], map$size) %*% hadamard(map$size) %*% diag(map$gaussian[, b], map$size) %*%
        diag(map$size)[map$permutation[, b], , drop = FALSE] %*% hadamard(map$size) %*% diag(map$sign[, b], map$size)
    }))
    expect_equal(sqrt(rowSums(full^2)), radii, tolerance = 1e-12)
  }
})

test_that("the approximate Gram matrix is unbiased for the kernel", {
  # Every frequency has exactly the kernel's law, so E K_hat = K. The mean
  # error over all pairs and 400 maps (a scalar: pairs sharing a map are
  # correlated) has the standard error of the maps' mean errors divided by
  # sqrt(400); 4 standard errors bound it.
  kernel <- gaussian_kernel(1.5)
  x <- fixture_points(6, 5, seed = 7)
  K <- kernel_matrix(kernel, x)
  errors <- vapply(1:400, function(s) mean(rff_kernel_matrix(fastfood_map(kernel, 5, 16, seed = s), x) - K), 0)
  expect_lt(abs(mean(errors)), 4 * stats::sd(errors) / sqrt(length(errors)))
  # and the per-pair means converge: at 400 maps of 16 frequencies each
  # entry's error has standard error below 0.02
  mean_K <- Reduce(`+`, lapply(1:400, function(s) rff_kernel_matrix(fastfood_map(kernel, 5, 16, seed = s), x))) / 400
  expect_lt(max(abs(mean_K - K)), 0.1)
})

test_that("Fastfood fits a ridge regression and a GLM as an rff map does", {
  x <- fixture_points(60, 4, seed = 2)
  y <- sin(2 * x[, 1]) + x[, 2]
  map <- fastfood_map(gaussian_kernel(1), 4, 64, seed = 3)
  fit <- rff_ridge(x, y, map, lambda = 0.1)
  expect_lt(mean((fitted(fit) - y)^2), 0.1 * stats::var(y))
  glm <- rff_glm(x, factor(y > stats::median(y)), map = map, family = "binomial", lambda = 1)
  expect_s3_class(glm, "askrff_glm")
})

test_that("kernels without one rotation-invariant part and edited maps are refused by name", {
  expect_error(fastfood_map(laplace_kernel(1), 3, 8), "rotation-invariant", class = "askrff_invalid_argument")
  expect_error(fastfood_map(gaussian_kernel(c(1, 2, 3)), 3, 8), "one length scale", class = "askrff_error")
  expect_error(fastfood_map(gaussian_kernel(1) - 0.5 * gaussian_kernel(2), 3, 8), "rotation-invariant",
               class = "askrff_error")
  map <- fastfood_map(gaussian_kernel(1), 3, 8, seed = 1)
  x <- fixture_points(4, 3)
  edited <- map
  edited$permutation[1:2, 1] <- 1L
  expect_error(rff_features(edited, x), "map\\$permutation.*permutations of 1 to 4", class = "askrff_invalid_object")
  edited <- map
  edited$mass <- 2
  expect_error(rff_features(edited, x), "map\\$mass", class = "askrff_invalid_object")
  edited <- map
  edited$size <- 8L
  expect_error(rff_features(edited, x), "map\\$size", class = "askrff_invalid_object")
  expect_error(rff_features(map, x * 1e300), "overflow", class = "askrff_data_error")
})
