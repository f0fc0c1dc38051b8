# The core's interruptible symmetric eigendecomposition (src/core/numerics/symmetric_eigen.*)
# against LAPACK's, through R's eigen(). Both are backward stable, so their
# eigenvalues agree to a small multiple of n eps max|lambda|, far inside the
# 1e-10 asked; eigenvectors are compared where they are defined: up to sign
# for a simple eigenvalue, by the projector onto the eigenspace of a repeated
# one.

random_orthogonal <- function(n) qr.Q(qr(matrix(rnorm(n * n), n)))

# The lower triangle only (the upper one NA: the decomposition must not
# read it).
lower_triangle <- function(full) {
  full[upper.tri(full)] <- NA
  full
}

# Q diag(values) Q' with its lower triangle only, and the full matrix for
# eigen().
symmetric_with <- function(values) {
  Q <- random_orthogonal(length(values))
  full <- Q %*% (values * t(Q))
  full <- (full + t(full)) / 2
  list(full = full, lower = lower_triangle(full))
}

# Groups of eigenvalues that agree to `tolerance` relative to the largest.
eigenspaces <- function(values, tolerance = 1e-8) {
  gaps <- diff(values) < -tolerance * max(abs(values), 1)
  cumsum(c(TRUE, gaps))
}

# Eigenvalues closer than `cluster` max |lambda| count as one eigenspace: an
# eigenvector is determined to about epsilon max |lambda| / gap only.
expect_same_decomposition <- function(lower, full, cluster = 1e-8) {
  ours <- askrff:::symmetric_eigen(lower)
  lapack <- eigen(full, symmetric = TRUE)
  scale <- max(abs(lapack$values), 1e-300)
  expect_lt(max(abs(ours$values - lapack$values)) / scale, 1e-10)
  n <- nrow(full)
  expect_lt(max(abs(crossprod(ours$vectors) - diag(n))), 1e-10)
  expect_lt(max(abs(full %*% ours$vectors - ours$vectors %*% diag(ours$values, n))) / scale, 1e-10)
  projector_gaps <- vapply(split(seq_len(n), eigenspaces(lapack$values, cluster)), function(g) {
    max(abs(tcrossprod(ours$vectors[, g, drop = FALSE]) - tcrossprod(lapack$vectors[, g, drop = FALSE])))
  }, double(1))
  expect_lt(max(projector_gaps), 1e-10)
  expect_identical(askrff:::symmetric_eigen(lower, only_values = TRUE)$values, ours$values)
}

# Z'Z with fewer rows than columns agrees with LAPACK's, and its eigenvalues
# beyond the rank are zero to rounding.
expect_null_space <- function(Z) {
  full <- crossprod(Z)
  expect_same_decomposition(lower_triangle(full), full)
  values <- askrff:::symmetric_eigen(lower_triangle(full))$values
  expect_lt(max(abs(values[-seq_len(nrow(Z))])) / values[1], 1e-12)
}

test_that("eigenvalues and eigenvectors equal LAPACK's on random symmetric matrices", {
  set.seed(11)
  # 48 reflectors make a block of the orthogonal factor; 150 gives several
  for (n in c(1, 2, 3, 10, 47, 60, 150)) {
    A <- matrix(rnorm(n * n), n)
    full <- (A + t(A)) / 2
    expect_same_decomposition(lower_triangle(full), full)
  }
})

test_that("repeated eigenvalues are resolved into the same eigenspaces", {
  set.seed(12)
  m <- symmetric_with(c(rep(3, 20), rep(-1, 30), rep(0.5, 10), seq(4, 5, length.out = 60)))
  expect_same_decomposition(m$lower, m$full)
  # every eigenvalue the same: the identity times 2 in another basis
  m <- symmetric_with(rep(2, 70))
  expect_same_decomposition(m$lower, m$full)
})

test_that("rank-deficient matrices, like Z'Z with fewer rows than columns, keep their null space", {
  set.seed(13)
  Z <- matrix(rnorm(20 * 120), 20)
  expect_null_space(Z)
  # the zero matrix
  expect_same_decomposition(matrix(0, 5, 5), matrix(0, 5, 5))
})

test_that("entries of any size are decomposed without overflow or underflow", {
  set.seed(14)
  A <- crossprod(matrix(rnorm(40 * 40), 40))
  for (s in c(1e-200, 1e200)) expect_same_decomposition(A * s, A * s)
})

test_that("a matrix that is not finite or not square gets a named error", {
  expect_error(askrff:::symmetric_eigen(matrix(c(1, NaN, NaN, 1), 2)), "must be finite", class = "askrff_error")
  expect_error(askrff:::symmetric_eigen(matrix(1, 2, 3)), "must be square", class = "askrff_error")
})

test_that("the largest singular value equals svd()'s, symmetric or not, tall or wide", {
  set.seed(15)
  sigma <- askrff:::largest_singular_value
  relative <- function(A) abs(sigma(A) - svd(A, 0L, 0L)$d[1L]) / svd(A, 0L, 0L)$d[1L]
  A <- matrix(rnorm(150 * 150), 150)
  S <- A + t(A)
  # a skew part of 1e-14 keeps the symmetric route, one of 1e-6 takes A'A
  cases <- list(square = A, symmetric = S, nearly_symmetric = S + 1e-14 * A, skewed = S + 1e-6 * A,
                negative_definite = -crossprod(A), tall = matrix(rnorm(300 * 40), 300),
                wide = matrix(rnorm(40 * 300), 40), rank_one = outer(1:50, 1:70), one_row = matrix(1:5, 1),
                one_entry = matrix(-2), tiny = A * 1e-200, huge = A * 1e200)
  for (name in names(cases)) expect(relative(cases[[name]]) < 1e-10, sprintf("%s: relative error %g", name, relative(cases[[name]])))
  expect_identical(sigma(matrix(0, 3, 3)), 0)
  expect_error(sigma(matrix(c(1, Inf), 1)), "must be finite", class = "askrff_error")
})

# The divide and conquer solves blocks of at most 32 rows by QR steps and
# merges halves above that; the reduction works in panels of 32 columns and
# the back-transformation in blocks of 128 reflectors. Sizes on either side
# of these, and matrices whose merges deflate most of their poles.
test_that("sizes around the leaves, panels and blocks of reflectors agree with LAPACK", {
  set.seed(16)
  for (n in c(4, 31, 32, 33, 64, 65, 66, 127, 128, 129, 130, 257)) {
    A <- matrix(rnorm(n * n), n)
    full <- crossprod(A) / n - diag(n)
    expect_same_decomposition(lower_triangle(full), full)
  }
})

test_that("Z'Z of random features with fewer rows than columns: a large cluster of zero eigenvalues", {
  map <- rff_map(gaussian_kernel(1), 3, 150, seed = 17)
  set.seed(17)
  Z <- rff_features(map, matrix(rnorm(40 * 3), 40))
  # 40 rows: 260 of the 300 eigenvalues are zero up to rounding
  expect_null_space(Z)
  # a rank-one matrix and a matrix of equal entries
  v <- rnorm(100)
  expect_same_decomposition(tcrossprod(v), tcrossprod(v))
  expect_same_decomposition(matrix(1, 90, 90), matrix(1, 90, 90))
})

test_that("clusters of close but distinct eigenvalues keep orthonormal eigenvectors", {
  set.seed(18)
  # gaps of 1e-13 to 1e-9 relative: the merges' poles deflate by rotations
  # or sit next to the secular equation's roots
  values <- c(1 + 1e-13 * (1:60), 2 + 1e-11 * (1:60), -1 + 1e-9 * (1:60), seq(3, 4, length.out = 70))
  m <- symmetric_with(values)
  expect_same_decomposition(m$lower, m$full)
  ours <- askrff:::symmetric_eigen(m$lower)
  expect_lt(max(abs(crossprod(ours$vectors) - diag(250))), 1e-12)
})

test_that("diagonal, tridiagonal, block-diagonal and graded matrices", {
  set.seed(19)
  # diagonal, with repeated entries: the reduction and every merge do nothing
  d <- c(rnorm(60), rep(0.5, 20), rep(-2, 20))
  expect_same_decomposition(diag(d), diag(d))
  # the entries, up to the rounding of the scaling to [-1, 1] and back
  expect_equal(askrff:::symmetric_eigen(diag(d))$values, sort(d, decreasing = TRUE), tolerance = 1e-15)
  # already tridiagonal: random, and Wilkinson's W+ with its pairs of nearly equal eigenvalues
  tridiagonal <- function(diagonal, off) {
    n <- length(diagonal)
    T <- diag(diagonal)
    T[cbind(2:n, 1:(n - 1))] <- off
    T[cbind(1:(n - 1), 2:n)] <- off
    T
  }
  T <- tridiagonal(rnorm(150), rnorm(149))
  expect_same_decomposition(T, T)
  W <- tridiagonal(abs(seq(-50, 50)), rep(1, 100))
  expect_same_decomposition(W, W, cluster = 1e-4)
  # blocks that the tridiagonal matrix splits into, with a zero row between
  B <- matrix(0, 120, 120)
  B[1:50, 1:50] <- crossprod(matrix(rnorm(2500), 50))
  B[52:120, 52:120] <- crossprod(matrix(rnorm(69 * 69), 69)) / 10
  expect_same_decomposition(B, B)
  # graded: entries falling from 1 to 1e-20 across rows and columns
  n <- 100
  g <- 10^(-seq(0, 10, length.out = n))
  G <- symmetric_with(rnorm(n))$full * outer(g, g)
  expect_same_decomposition(G, G, cluster = 1e-4)
})

test_that("progress is reported in whole percents that add up to 100", {
  set.seed(20)
  A <- crossprod(matrix(rnorm(600 * 600), 600))
  gained <- c()
  ours <- askrff:::.cpp_symmetric_eigen(A, TRUE, function(amount) gained <<- c(gained, amount))
  expect_true(all(gained > 0))
  expect_equal(sum(gained), 100)
  # every phase reports: the reduction, the divide and conquer, the back-transformation
  expect_gt(length(gained), 20)
})
