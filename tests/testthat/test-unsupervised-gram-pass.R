# The Gram pass of the randomized PCA (src/core/statistics/gram_pass.*):
# its sums against the same sums of the stored features.

test_that("the Gram pass sums w (z - s)(z - s)'g, w (z - s) and w |z - s|^2 and gives (z - s)'g", {
  set.seed(4)
  # 1,001 rows: several groups of blocks and a short last block
  x <- matrix(rnorm(1001 * 3), 1001)
  map <- rff_map(gaussian_kernel(1.5), 3, 300, seed = 2)
  z <- rff_features(map, x)
  s <- z[7, ]
  u <- sweep(z, 2L, s)
  g <- matrix(rnorm(ncol(z) * 4), ncol(z))
  w <- runif(1001)
  w[c(5, 600)] <- 0
  pass <- function(g, keep, threads) {
    askrff:::.cpp_gram_products(map, "", x, g, w, s, keep, threads)
  }
  sums <- pass(g, TRUE, 2L)
  expect_equal(sums$products, crossprod(u, w * (u %*% g)), tolerance = 1e-12)
  expect_equal(sums$sum, drop(crossprod(u, w)), tolerance = 1e-12)
  expect_equal(sums$squares, sum(w * rowSums(u^2)), tolerance = 1e-12)
  expect_equal(sums$projections, u %*% g, tolerance = 1e-12)
  # the blocks' shares are added in row order: the same for any threads
  expect_identical(pass(g, TRUE, 1L), sums)
  # no columns: the sums alone; projections only when kept
  bare <- pass(matrix(0, ncol(z), 0L), FALSE, 2L)
  expect_equal(dim(bare$products), c(ncol(z), 0L))
  expect_equal(bare$sum, sums$sum, tolerance = 1e-14)
  expect_equal(nrow(pass(g, FALSE, 2L)$projections), 0L)
  expect_error(pass(g[-1, ], FALSE, 2L), "one row per feature column")
  g[3, 2] <- NaN
  expect_error(pass(g, FALSE, 2L), "g must be finite")
})
