# The kernel tests of independence and of two samples on random features.

# The maps a test draws from its seed, as the test draws them.
test_maps <- function(seed, kernels, d, n_features) {
  seeds <- askrff:::test_seeds(seed, length(kernels))
  Map(function(kernel, s) rff_map(kernel, d, n_features, seed = s), kernels, seeds)
}

test_that("the HSIC statistic is n times the squared norm of the features' cross-covariance", {
  set.seed(1)
  x <- matrix(rnorm(600), 300)
  y <- x[, 1]^2 + rnorm(300)
  kernels <- list(gaussian_kernel(1.5), gaussian_kernel(2))
  result <- rff_independence_test(x, y, kernel_x = kernels[[1]], kernel_y = kernels[[2]], n_features = 20,
                                  seed = 3, standardize = FALSE)
  zx <- rff_features(rff_map(kernels[[1]], 2, 20, seed = askrff:::test_seeds(3, 2)[1]), x)
  zy <- rff_features(rff_map(kernels[[2]], 1, 20, seed = askrff:::test_seeds(3, 2)[2]), matrix(y))
  cross <- crossprod(scale(zx, scale = FALSE), scale(zy, scale = FALSE)) / 300
  expect_equal(unname(result$statistic), 300 * sum(cross^2), tolerance = 1e-10)
  expect_equal(unname(result$estimate), sum(cross^2), tolerance = 1e-10)
  expect_s3_class(result, "htest")
  expect_equal(unname(result$parameter), c(300, 40, 40))
})

test_that("the gamma null's mean is the statistic's mean over permutations, exactly", {
  # E over permutations of ||A' P B||^2 is tr(A'A) tr(B'B) / (n - 1) for
  # centered A, B: here checked against the mean over all 720 permutations
  # of 6 rows.
  set.seed(2)
  a <- scale(matrix(rnorm(18), 6), scale = FALSE)
  b <- scale(matrix(rnorm(12), 6), scale = FALSE)
  orders <- as.matrix(expand.grid(rep(list(1:6), 6)))
  orders <- orders[apply(orders, 1, function(o) length(unique(o)) == 6), ]
  mean_norm <- mean(apply(orders, 1, function(o) sum(crossprod(a[o, ], b)^2)))
  expect_equal(mean_norm, sum(a^2) * sum(b^2) / 5, tolerance = 1e-12)
})

test_that("the permutations are the statistic's under permuted rows and do not depend on the threads", {
  set.seed(3)
  a <- scale(matrix(rnorm(400), 100), scale = FALSE)
  b <- scale(matrix(rnorm(300), 100), scale = FALSE)
  one <- askrff:::.cpp_permuted_cross_norms(a, b, c(0, 7), 50L, 1L)
  two <- askrff:::.cpp_permuted_cross_norms(a, b, c(0, 7), 50L, 2L)
  expect_identical(one, two)
  # each is the norm of some permutation: it lies between the extremes and
  # its mean is the exact permutation mean within 4 standard errors
  expect_equal(mean(one), sum(a^2) * sum(b^2) / 99, tolerance = 4 * sd(one) / sqrt(50) / mean(one))
  distances <- askrff:::.cpp_permuted_mean_distances(a, 40L, c(0, 7), 30L, 2L)
  expect_identical(distances, askrff:::.cpp_permuted_mean_distances(a, 40L, c(0, 7), 30L, 1L))
  # the mean squared distance between the means of random halves
  expect_equal(mean(distances), sum(a^2) / 99 * (1 / 40 + 1 / 60), tolerance = 4 * sd(distances) / sqrt(30) / mean(distances))
})

test_that("every null keeps its size under independence", {
  skip_statistics_under_sanitizers()
  # 300 replicates: the rejection rate at 0.05 has standard error
  # sqrt(0.05 * 0.95 / 300) = 0.0126; 3.5 of them is 0.044 around 0.05.
  skip_on_cran()
  set.seed(4)
  p <- replicate(300, {
    x <- rnorm(200)
    y <- rnorm(200)
    c(gamma = rff_independence_test(x, y, n_features = 25)$p.value,
      chi2 = rff_independence_test(x, y, n_features = 25, method = "chi2_mixture")$p.value,
      mmd = rff_two_sample_test(x[1:100], y[1:100], n_features = 25)$p.value)
  })
  rates <- rowMeans(p < 0.05)
  expect_true(all(abs(rates - 0.05) < 3.5 * sqrt(0.05 * 0.95 / 300)), label = paste(format(rates), collapse = ", "))
})

test_that("a dependence no correlation shows is found, by every null", {
  set.seed(5)
  x <- runif(400, -1, 1)
  y <- cos(4 * x) + rnorm(400, sd = 0.3)
  expect_gt(stats::cor.test(x, y)$p.value, 0.01)
  for (method in c("gamma", "chi2_mixture", "permutation")) {
    expect_lt(rff_independence_test(x, y, method = method, B = 199, seed = 1)$p.value, 0.01)
  }
  a <- matrix(rnorm(800), ncol = 2)
  b <- cbind(rnorm(400), rnorm(400, sd = 1.6))
  for (method in c("gamma", "chi2_mixture", "permutation")) {
    expect_lt(rff_two_sample_test(a, b, method = method, B = 199, seed = 1)$p.value, 0.01)
  }
})

test_that("chunks give the sums of the data in memory", {
  set.seed(6)
  x <- matrix(rnorm(600), 300)
  y <- x[, 2] + rnorm(300)
  chunks <- lapply(split(1:300, rep(1:3, each = 100)), function(i) list(x = x[i, ], y = y[i]))
  kernels <- list(kernel_x = gaussian_kernel(1), kernel_y = gaussian_kernel(1))
  whole <- do.call(rff_independence_test, c(list(x, y, seed = 2, standardize = FALSE), kernels))
  streamed <- do.call(rff_independence_test, c(list(chunks, seed = 2), kernels))
  expect_equal(streamed$statistic, whole$statistic, tolerance = 1e-10)
  expect_equal(streamed$p.value, whole$p.value, tolerance = 1e-10)
  a <- x[1:150, ]
  b <- x[151:300, ] + 0.2
  samples <- list(list(x = a[1:100, ]), list(x = a[101:150, ], y = b[1:50, ]), list(y = b[51:150, ]))
  whole <- rff_two_sample_test(a, b, kernel = gaussian_kernel(1), seed = 2, standardize = FALSE)
  streamed <- rff_two_sample_test(samples, kernel = gaussian_kernel(1), seed = 2)
  expect_equal(streamed$statistic, whole$statistic, tolerance = 1e-10)
  expect_equal(streamed$p.value, whole$p.value, tolerance = 1e-10)
})

test_that("factors, data frames and missing rows enter as in the models", {
  set.seed(7)
  frame <- data.frame(a = rnorm(200), g = factor(sample(c("u", "v", "w"), 200, TRUE)))
  y <- ifelse(frame$g == "u", 1, 0) + rnorm(200, sd = 0.1)
  y[3] <- NA
  result <- rff_independence_test(frame, y, seed = 1)
  expect_equal(unname(result$parameter[1]), 199)
  expect_match(result$data.name, "1 incomplete rows dropped")
  expect_lt(result$p.value, 1e-6)
  expect_match(result$method, "Gaussian kernel .*, the median distance of the standardized rows over sqrt\\(2\\)")
})

test_that("bad input is refused with the argument named", {
  x <- rnorm(50)
  expect_error(rff_independence_test(x, rnorm(40)), "same number of rows", class = "askrff_data_error")
  expect_error(rff_independence_test(x, x, method = "exact"), "`method`", class = "askrff_invalid_argument")
  expect_error(rff_independence_test(x, x, B = 0), "`B`", class = "askrff_invalid_argument")
  expect_error(rff_independence_test(x, x, kernel_x = gaussian_kernel(1) - 0.5 * gaussian_kernel(2)),
               "positive definite", class = "askrff_invalid_argument")
  expect_error(rff_independence_test(x, list(1, 2)), "`y` must be", class = "askrff_data_error")
  expect_error(rff_independence_test(list(list(x = x, y = x)), method = "permutation"), "in memory")
  expect_error(rff_independence_test(list(list(x = x)), seed = 1), "`x` and `y`", class = "askrff_data_error")
  expect_error(rff_two_sample_test(matrix(1:4, 2), matrix(1:6, 2)), "same number of columns")
  expect_error(rff_two_sample_test(x, x[1]), "at least 2")
  expect_error(rff_independence_test(x, rep(1, 50)), "constant")
})

test_that("the joint statistic estimates dHSIC without bias, over maps", {
  # dHSIC's V-statistic from the Gram matrices (Pfister et al. 2018, eq. 5)
  set.seed(8)
  n <- 30
  values <- list(a = rnorm(n), b = rnorm(n), c = rnorm(n))
  values$c <- values$c + values$a * values$b
  grams <- lapply(values, function(v) exp(-outer(v, v, "-")^2 / 2))
  exact <- mean(Reduce(`*`, grams)) + prod(vapply(grams, mean, 0)) - 2 * mean(Reduce(`*`, lapply(grams, rowMeans)))
  estimates <- vapply(1:200, function(seed) {
    unname(rff_independence_test(values, kernel_x = gaussian_kernel(1), n_features = 50, B = 1, seed = seed,
                                 standardize = FALSE)$estimate)
  }, 0)
  # 200 independent maps: the mean is within 4 standard errors of dHSIC
  expect_lt(abs(mean(estimates) - exact), 4 * sd(estimates) / sqrt(200))
})

test_that("the joint test keeps its size, finds a dependence of three, and its permutations ignore the threads", {
  skip_on_cran()
  # 200 replicates: 3.5 standard errors of the rate are 0.054 around 0.05
  set.seed(9)
  p <- replicate(200, rff_independence_test(list(rnorm(100), rnorm(100), rnorm(100)), n_features = 20, B = 99)$p.value)
  expect_lt(abs(mean(p < 0.05) - 0.05), 3.5 * sqrt(0.05 * 0.95 / 200))
  a <- rnorm(300)
  b <- rnorm(300)
  c <- a * b + rnorm(300, sd = 0.3)
  result <- rff_independence_test(list(a = a, b = b, c = c), B = 199, seed = 1)
  expect_lt(result$p.value, 0.01)
  expect_match(result$method, "dHSIC.*a: Gaussian")
  features <- lapply(1:3, function(i) matrix(runif(200), 50))
  expect_identical(askrff:::.cpp_permuted_joint_distances(features, c(0, 3), 20L, 1L),
                   askrff:::.cpp_permuted_joint_distances(features, c(0, 3), 20L, 2L))
  expect_error(rff_independence_test(list(a, b, c), method = "gamma"), "permutation", class = "askrff_invalid_argument")
  expect_error(rff_independence_test(list(a, b, c), kernel_x = list(gaussian_kernel(1))), "one per variable")
  expect_error(rff_independence_test(list(a, b, c), kernel_x = gaussian_kernel(1) + laplace_kernel(1)), "one part")
})
