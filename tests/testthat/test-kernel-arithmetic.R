# Kernel arithmetic: linear combinations and products of kernels, their exact
# Gram matrices, their measures and the unbiasedness of their features.

# A map saved and read back gives the same approximate Gram matrix.
expect_survives_saveRDS <- function(map) {
  path <- tempfile(fileext = ".rds")
  saveRDS(map, path)
  x <- matrix(rnorm(10), 5)
  expect_identical(rff_kernel_matrix(readRDS(path), x), rff_kernel_matrix(map, x))
}

test_that("Gram matrices of expressions are the expressions of Gram matrices", {
  set.seed(1)
  x <- matrix(rnorm(24), 8)
  y <- matrix(rnorm(15), 5)
  g1 <- gaussian_kernel(1)
  g10 <- gaussian_kernel(10)
  m <- matern_kernel(2, 1.5)
  s <- shift_gaussian_kernel(1, 0.2)
  K <- function(k) kernel_matrix(k, x, y)
  expect_equal(K(g1 - g10), K(delta_gaussian_kernel()), tolerance = 1e-14)
  expect_equal(K(2.5 * m), 2.5 * K(m), tolerance = 1e-15)
  expect_equal(K(m / 4), K(m) / 4, tolerance = 1e-15)
  expect_equal(K(-m), -K(m))
  expect_equal(K(g1 * s), K(g1) * K(s), tolerance = 1e-15)
  expect_equal(K(0.5 * m * s + g10), 0.5 * K(m) * K(s) + K(g10), tolerance = 1e-14)
  rk <- radial_kernel(function(r) exp(-r^2 / 8))
  expect_equal(K(rk - g1), K(gaussian_kernel(2)) - K(g1), tolerance = 1e-13)
})

test_that("sums and products flatten, and print their expression", {
  k <- gaussian_kernel(1) + (matern_kernel(1, 0.5) - 2 * gaussian_kernel(3))
  expect_s3_class(k, "sum_kernel")
  expect_length(k$terms, 3L)
  expect_equal(k$params$weights, c(1, 1, -2))
  expect_output(print(k), "Gaussian kernel \\(sigma = 1\\) \\+ Mat.rn kernel \\(sigma = 1, nu = 0.5\\) - 2 x Gaussian kernel \\(sigma = 3\\)")
  expect_output(print(k), "k1\\(x, y\\) \\+ k2\\(x, y\\) - 2 k3\\(x, y\\)")
  p <- gaussian_kernel(1) * (matern_kernel(1, 1.5) * laplace_kernel(1))
  expect_length(p$terms, 3L)
  expect_output(print(p), "k1\\(x, y\\) \\* k2\\(x, y\\) \\* k3\\(x, y\\)")
})

test_that("the measure of a difference is its terms' parts; split = \"jordan\" gives the minimal one", {
  dog <- gaussian_kernel(1) - gaussian_kernel(10)
  m <- spectral_measure(dog, d = 3)
  expect_equal(m$parts$part, c("k1.pos", "k2.pos"))
  expect_equal(m$parts$mass, c(1, 1))
  expect_equal(m$parts$coefficient, c(1, -1))
  jordan <- spectral_measure(dog, d = 3, split = "jordan")
  exact <- spectral_measure(delta_gaussian_kernel(), d = 3)
  expect_lt(max(abs(jordan$parts$mass - exact$parts$mass)), jordan$numeric$bias)
  expect_lt(jordan$numeric$bias, 1e-5)
})

test_that("a product's masses multiply and its signs and phases combine", {
  s <- spectral_measure(shift_gaussian_kernel(1, 0.2), d = 2)$parts
  p <- spectral_measure(matern_kernel(1, 1.5) * shift_gaussian_kernel(1, 0.2), d = 2)$parts
  expect_equal(p$mass, s$mass)
  expect_equal(p$coefficient, s$coefficient)
  expect_equal(p$right_phase, s$right_phase)
  ss <- spectral_measure(shift_gaussian_kernel(1, 0.2) * shift_gaussian_kernel(2, 0.1), d = 2)$parts
  # imag x imag: two psi parts give sum and difference frequencies of phase pi and 0.
  ii <- ss[grepl("^imag_pos\\*imag_pos", ss$part), ]
  expect_equal(ii$coefficient, c(-2, 2))
  expect_equal(ii$right_phase, c(0, 0))
  expect_error(plot(spectral_measure(matern_kernel(1, 1.5) * gaussian_kernel(1), d = 2)), "convolutions",
               class = "askrff_error")
})

test_that("total_masses() gives each part's mass in the kernel's measure, weights included", {
  k <- 0.5 * matern_kernel(1, 1.5) + 2 * gaussian_kernel(0.7)
  masses <- total_masses(rff_map(k, 4, 8, seed = 1))
  expect_equal(masses, c(k1.pos = 0.5, k2.pos = 2))
  # a positive definite kernel's parts add up to k(0)
  expect_equal(sum(masses), 2.5)
  expect_output(print(rff_map(k, 4, 8, seed = 1)), "k1.pos = 0.5, k2.pos = 2")
  # a weight inside a product's factor weighs the product's parts; the
  # imaginary part's factor 2 and the asymmetric product's halves are no weights
  shift <- total_masses(rff_map(shift_gaussian_kernel(1, 0.2), 2, 8, seed = 1))
  product <- total_masses(rff_map((-3 * gaussian_kernel(1)) * shift_gaussian_kernel(1, 0.2), 2, 8, seed = 1))
  expect_equal(unname(product), 3 * unname(shift))
  squared <- spectral_measure(shift_gaussian_kernel(1, 0.2) * shift_gaussian_kernel(1, 0.2), 2)$parts
  expect_equal(unname(total_masses(rff_map(shift_gaussian_kernel(1, 0.2) * shift_gaussian_kernel(1, 0.2), 2, 8, seed = 1))),
               squared$mass)
})

test_that("products and sums whose parts would pass 4096 are refused before they are built", {
  many <- Reduce(`*`, rep(list(delta_gaussian_kernel()), 24))
  expect_error(spectral_measure(many, 3), "would have 8192 positive parts", class = "askrff_error")
  sinh <- Reduce(`*`, rep(list(sinh_gaussian_kernel(1, 0.3)), 32))
  expect_error(rff_map(sinh, 3, 8, seed = 1), "positive parts", class = "askrff_error")
  expect_error(rff_features(rff_map(Reduce(`*`, rep(list(delta_gaussian_kernel()), 12)), 3, 8, seed = 1), diag(3)), NA)
})

test_that("functions of a kernel other than its arithmetic are refused by name", {
  k <- gaussian_kernel(1)
  for (f in list(abs, exp, sqrt, sum, max, range)) {
    expect_error(f(k), "of a kernel is not defined", class = "askrff_error")
  }
  if (exists("matrixOps", envir = baseenv())) expect_error(k %*% k, "of a kernel is not defined", class = "askrff_error")
})

test_that("features of every kind of expression are unbiased", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  set.seed(7)
  d <- 2L
  x <- matrix(rnorm(12), 6)
  y <- matrix(rnorm(10), 5)
  # Each map's mean error over all pairs (pairs sharing a map are
  # correlated); over 200 independent maps its mean divided by its standard
  # error is about N(0, 1), so |z| < 4.5 fails an unbiased estimator once in
  # 150,000 runs. Each case is tried with every exact source it takes (from
  # the core's table), or, for a product of rotation-invariant laws, with
  # every blocked source, whose directions the product's law completes.
  cases <- list(
    list(gaussian_kernel(1) - gaussian_kernel(3), exact_sources, list()),
    list(gaussian_kernel(1) - gaussian_kernel(3), exact_sources, list(split = "jordan")),
    list(0.5 * matern_kernel(1, 1.5) * shift_gaussian_kernel(1, 0.3), exact_sources, list()),
    list(shift_gaussian_kernel(1, 0.3) * sinh_gaussian_kernel(1, 0.2), exact_sources, list()),
    list(gaussian_kernel(1) * matern_kernel(1, 2.5), blocked_sources, list()),
    list(shift_gaussian_kernel(1, 0.3) - 2 * laplace_kernel(2), exact_sources, list())
  )
  for (case in cases) {
    K <- kernel_matrix(case[[1]], x, y)
    for (method in intersect(case[[2]](), kernel_sources(case[[1]], d, case[[3]]))) {
      make <- function(r) {
        map <- do.call(rff_map, c(list(case[[1]], d, 8, method, seed = r), case[[3]]))
        rff_kernel_matrix(map, x, y)
      }
      z <- mean_error_z(K, make, 200)
      expect_lt(abs(z), 4.5, label = sprintf("%s, %s: z", askrff:::kernel_label(case[[1]]), method))
    }
  }
})

test_that("a map of an expression survives saveRDS and validation", {
  k <- gaussian_kernel(1) * shift_gaussian_kernel(1, 0.2) - gaussian_kernel(2)
  map <- rff_map(k, d = 2, n_features = 32, seed = 3)
  expect_survives_saveRDS(map)
})

test_that("kernels that cannot be combined, and edited expressions, get clear errors", {
  g <- gaussian_kernel(1)
  expect_error(arccos_kernel(1) + g, "cannot be combined.*not Fourier features", class = "askrff_error")
  expect_error(g * rpf_expected_kernel(g, "square", "square"), "cannot be combined.*no spectral measure",
               class = "askrff_error")
  expect_error(0 * g, "nonzero", class = "askrff_error")
  expect_error(g * Inf, "finite nonzero", class = "askrff_error")
  expect_error(g^2, "`\\^` of a kernel", class = "askrff_error")
  expect_error(g + 1, "`\\+` of a kernel and numeric", class = "askrff_error")
  expect_error(!g, "unary", class = "askrff_error")
  k <- g - gaussian_kernel(2)
  edited <- k
  edited$params$weights <- 1
  expect_error(kernel_matrix(edited, diag(2)), "one finite nonzero number per term", class = "askrff_error")
  edited <- k
  edited$terms[[2]]$params$sigma <- -1
  expect_error(kernel_matrix(edited, diag(2)), "terms\\[\\[2\\]\\]", class = "askrff_error")
  edited <- k
  edited$terms <- "gaussian"
  expect_error(kernel_matrix(edited, diag(2)), "list of 1 to 64 kernel objects", class = "askrff_error")
  deep <- g
  for (i in 1:10) deep <- deep * g + g
  expect_error(kernel_matrix(deep, diag(2)), NA)
  nested <- k
  for (i in 1:40) {
    inner <- nested
    nested <- k
    nested$terms[[1]] <- inner
  }
  expect_error(kernel_matrix(nested, diag(2)), "more than 32 deep", class = "askrff_error")
})

test_that("with_settings() gives a term settings of its own, which calls override", {
  cusp_plain <- radial_kernel(function(r) exp(-r))
  # without settings, a term whose density route fails says how to give it some
  expect_error(spectral_measure(cusp_plain + gaussian_kernel(1), d = 2), "Term k1: .*heavy tail.*with_settings\\(\\)",
               class = "askrff_error")
  cusp <- with_settings(cusp_plain, route = "lp", z_max = 6, tolerance = 0.01)
  expect_output(print(cusp), 'route = "lp", z_max = 6, tolerance = 0.01')
  k <- cusp + gaussian_kernel(1)
  expect_output(print(k), 'route = "lp".* \\+ Gaussian kernel')
  alone <- spectral_measure(cusp_plain, d = 2, route = "lp", z_max = 6, tolerance = 0.01)
  m <- spectral_measure(k, d = 2)
  expect_equal(m$parts$mass, c(alone$parts$mass, 1))
  expect_identical(spectral_measure(cusp, d = 2)$parts, alone$parts)
  # a call's settings override the kernel's; the LP settings, which need
  # route = "lp", are then dropped rather than refused
  expect_error(spectral_measure(cusp, d = 2, route = "density"), "heavy tail", class = "askrff_error")
  expect_null(with_settings(cusp)$defaults)
  # an expression with settings stays one term of a larger expression
  dog <- with_settings(gaussian_kernel(1) - gaussian_kernel(10), split = "jordan")
  outer <- dog + gaussian_kernel(3)
  expect_length(outer$terms, 2L)
  expect_equal(spectral_measure(outer, d = 3)$parts$part, c("k1.pos", "k1.neg", "k2.pos"))
  # maps keep the settings through saveRDS
  map <- rff_map(k, d = 2, n_features = 16, seed = 1)
  expect_survives_saveRDS(map)
})

test_that("settings of a kernel are checked as a call's would be, and edited ones are refused", {
  g <- gaussian_kernel(1)
  expect_error(with_settings(g, route = "lp"), "does not take: route", class = "askrff_error")
  expect_error(with_settings(g - gaussian_kernel(2), split = "minimal"), "`split` must be one of", class = "askrff_error")
  expect_error(with_settings(g - gaussian_kernel(2), "jordan"), "named settings only", class = "askrff_error")
  dog <- with_settings(g - gaussian_kernel(2), split = "jordan")
  for (bad in list(list(1), "jordan", list(split = "jordan", split = "jordan"), list(split = 3), list(route = "lp"))) {
    edited <- dog
    edited$defaults <- bad
    expect_error(spectral_measure(edited, d = 2), "`kernel\\$defaults`", class = "askrff_error")
  }
  k <- dog * g
  k$terms[[1]]$defaults$split <- NA
  expect_error(kernel_matrix(k, diag(2)), "`kernel\\$terms\\[\\[1\\]\\]\\$defaults` is not valid", class = "askrff_error")
})
