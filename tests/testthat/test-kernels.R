test_that("the Gaussian kernel matrix matches its closed form", {
  x <- fixture_points(30, 4)
  y <- fixture_points(20, 4, seed = 7)
  sigma <- 0.7
  sq_dist <- outer(rowSums(x^2), rowSums(y^2), "+") - 2 * x %*% t(y)
  expected <- exp(-sq_dist / (2 * sigma^2))
  expect_equal(kernel_matrix(gaussian_kernel(sigma), x, y), expected, tolerance = 1e-13)
})

test_that("the Laplace kernel matrix uses the L1 distance", {
  x <- fixture_points(25, 3)
  y <- fixture_points(15, 3, seed = 3)
  expected <- outer(seq_len(25), seq_len(15), Vectorize(function(i, j) exp(-sum(abs(x[i, ] - y[j, ])) / 2)))
  expect_equal(kernel_matrix(laplace_kernel(2), x, y), expected, tolerance = 1e-13)
})

test_that("kernel_matrix is symmetric with unit diagonal for y = x, and keeps row names", {
  x <- fixture_points(200, 5)
  rownames(x) <- paste0("p", seq_len(200))
  K <- kernel_matrix(gaussian_kernel(1), x)
  expect_equal(K, t(K), tolerance = 1e-15)
  expect_equal(unname(diag(K)), rep(1, 200))
  expect_identical(dimnames(K), list(rownames(x), rownames(x)))
})

test_that("kernel_matrix accepts data frames and gives the same result for any thread count", {
  x <- fixture_points(300, 3)
  K1 <- kernel_matrix(laplace_kernel(1), as.data.frame(x), n_threads = 1)
  K2 <- kernel_matrix(laplace_kernel(1), x, n_threads = 2)
  expect_identical(unname(K1), unname(K2))
})

test_that("kernels print their formula and parameters", {
  expect_output(print(gaussian_kernel(2)), "Gaussian kernel \\(sigma = 2\\)")
  expect_output(print(laplace_kernel(0.5)), "\\|\\|x - y\\|\\|_1")
})
