# Matérn, exponential, rational quadratic and generalized Gaussian kernels,
# and per-coordinate length scales (src/core/kernels/isotropic_kernels.cpp).

# Closed forms written independently of the package, with R's besselK.
matern_in_r <- function(r, sigma, nu) {
  t <- sqrt(2 * nu) * r / sigma
  ifelse(t == 0, 1, 2^(1 - nu) / gamma(nu) * t^nu * besselK(t, nu))
}
distances <- function(x, y) sqrt(pmax(outer(rowSums(x^2), rowSums(y^2), "+") - 2 * x %*% t(y), 0))

test_that("the Matérn kernel matches its Bessel form, and its elementary forms exactly where they exist", {
  x <- fixture_points(7, 3)
  y <- fixture_points(5, 3, seed = 2)
  r <- distances(x, y)
  for (nu in c(0.3, 0.5, 0.7, 1.5, 2.3, 2.5, 10, 60)) {
    expect_equal(kernel_matrix(matern_kernel(1.3, nu), x, y), matern_in_r(r, 1.3, nu), tolerance = 1e-12,
                 label = paste("nu =", nu))
  }
  t <- sqrt(3) * r / 1.3
  expect_equal(kernel_matrix(matern_kernel(1.3, 1.5), x, y), (1 + t) * exp(-t), tolerance = 1e-14)
  # the Bessel route next to a half-integer order agrees with the elementary form
  expect_equal(kernel_matrix(matern_kernel(1.3, 2.5 + 1e-9), x, y), kernel_matrix(matern_kernel(1.3, 2.5), x, y),
               tolerance = 1e-7)
  expect_identical(kernel_matrix(exponential_kernel(1.3), x, y), kernel_matrix(matern_kernel(1.3, 0.5), x, y))
  expect_equal(kernel_matrix(exponential_kernel(1.3), x, y), exp(-r / 1.3), tolerance = 1e-14)
  expect_identical(diag(kernel_matrix(matern_kernel(2, 3.7), x)), rep(1, 7))
})

# log K_nu(x) from its integral int_0^Inf exp(-x cosh t) cosh(nu t) dt, in
# logs (the integrand divided by its maximum, at sinh t = nu / x roughly),
# split where it peaks and where it falls, and ended where it is below
# exp(-750) of its maximum: independent of besselK and of the package.
log_bessel_k_quadrature <- function(nu, x) {
  f <- function(t) -x * cosh(t) + nu * t + log1p(exp(-2 * nu * t)) - log(2)
  peak <- if (nu > 0) asinh(nu / x) else 0
  top <- f(peak)
  fall <- acosh(max(1, (nu + 1) / x))
  end <- max(peak, fall) + 1
  while (f(end) - top > -750) end <- end + 1
  knots <- sort(unique(c(0, peak, fall, end)))
  pieces <- vapply(seq_len(length(knots) - 1L), function(i) {
    stats::integrate(function(t) exp(f(t) - top), knots[i], knots[i + 1L], rel.tol = 1e-13, subdivisions = 1000L)$value
  }, 0)
  top + log(sum(pieces))
}

test_that("log K_nu matches R's besselK, and quadrature where K_nu overflows or underflows", {
  nus <- c(0, 1e-8, 0.01, 0.2, 0.5, 0.9, 1, 1.3, 2, 2.5, 3 - 1e-9, 3, 4.7, 9.5, 10, 17.2, 25, 33.3, 41, 49, 49.99)
  x <- 10^seq(-300, 5, by = 1 / 4)
  for (nu in nus) {
    mine <- askrff:::.cpp_log_bessel_k(nu, x)
    # the exponentially scaled besselK does not underflow for large x
    reference <- suppressWarnings(log(besselK(x, nu, expon.scaled = TRUE)) - x)
    finite <- is.finite(reference)
    # both are accurate to a few units of rounding of K, that is of log K
    # where |log K| is large (observed: below 1e-15)
    expect_lt(max(abs(mine - reference)[finite] / pmax(1, abs(reference[finite]))), 1e-14, label = paste("nu =", nu))
    expect_true(all(is.finite(mine)))
  }
  # besselK overflows at these small x, and K_nu underflows from x = 745 on
  for (nu in c(0, 0.01, 0.9, 1, 1.3, 2, 3, 4.7, 10, 25, 49, 49.99)) {
    for (x in c(1e-300, 1e-200, 1e-100, 1e-20, 1e-6, 699, 701, 1e3, 1e5)) {
      expect_equal(askrff:::.cpp_log_bessel_k(nu, x), log_bessel_k_quadrature(nu, x), tolerance = 1e-13,
                   label = sprintf("nu = %g, x = %g", nu, x))
    }
  }
})

test_that("the Matérn kernel keeps the precision of its Bessel form's factors at every distance", {
  # R's product of 2^(1 - nu) / Gamma(nu), t^nu and besselK, each a normal
  # double here, is accurate to about 1e-14; a sum of their logarithms (as
  # the kernel once took) loses |nu log t| * 1e-16, up to 4e-13 here.
  r <- c(10^seq(-8, 0, by = 0.25), 2, 5, 10, 20, 30, 50)
  for (nu in c(0.3, 2.3, 10.2, 33.3, 49, 49.9)) {
    kernel <- matern_kernel(1, nu)
    # one distance per call, so centering the data costs no digits of it
    mine <- vapply(r, function(r) kernel_matrix(kernel, matrix(r), matrix(0, 1, 1))[1, 1], 0)
    reference <- suppressWarnings(matern_in_r(r, 1, nu))
    finite <- is.finite(reference) & reference > 1e-300
    expect_lt(max(abs(mine[finite] / reference[finite] - 1)), 3e-14, label = paste("nu =", nu))
  }
  # where K_nu overflows the kernel is its small-argument series: 1 - t^2 / (4 (nu - 1)) to double precision
  t <- sqrt(2 * 49.9) * 1e-7
  expect_equal(kernel_matrix(matern_kernel(1, 49.9), matrix(1e-7), matrix(0, 1, 1))[1, 1], 1 - t^2 / (4 * 48.9),
               tolerance = 1e-16)
})

test_that("Matérn kernels of any order match independent quadrature of their Gamma scale mixture", {
  # k(r) = E exp(-nu r^2 / (2 G)), G ~ Gamma(nu, 1): R's besselK overflows
  # for these orders, and integrate() over G's standardized range is independent
  # of the package's Debye expansion (relative error of the reference ~1e-14).
  mixture <- function(r, nu) {
    vapply(r, function(r) {
      stats::integrate(function(s) {
        g <- pmax(nu + s * sqrt(nu), 1e-300)
        exp(-r^2 * nu / (2 * g)) * stats::dgamma(g, nu) * sqrt(nu)
      }, max(-40, -sqrt(nu)), 40, rel.tol = 1e-13, subdivisions = 1000L)$value
    }, 0)
  }
  r <- c(0.01, 0.3, 1, 2, 4, 6)
  origin <- matrix(0, 1, 1)
  for (nu in c(49.9, 50, 150, 1e4, 1e8)) {
    expect_equal(kernel_matrix(matern_kernel(1, nu), matrix(r), origin)[, 1], mixture(r, nu), tolerance = 1e-12,
                 label = paste("nu =", nu))
  }
  # far beyond, the Gaussian kernel it tends to (the next term is r^4 / (8 nu))
  expect_equal(kernel_matrix(matern_kernel(1, 1e300), matrix(r), origin)[, 1], exp(-r^2 / 2), tolerance = 1e-14)
  expect_equal(kernel_matrix(rational_quadratic_kernel(1, 1e300), matrix(r), origin)[, 1], exp(-r^2 / 2),
               tolerance = 1e-14)
})

test_that("the Gamma quantile behind quasi-Monte Carlo scales matches qgamma for every shape", {
  p <- c(1e-12, 1e-4, 0.01, 0.3, 0.5, 0.9, 1 - 1e-9)
  # shapes on both sides of the switch to Temme's expansion at 1e4
  for (shape in c(0.3, 5, 100, 9999, 1e4, 1e5, 1e8, 1e12, 1e100)) {
    expect_equal(askrff:::.cpp_gamma_quantile(shape, p), stats::qgamma(p, shape), tolerance = 1e-13,
                 label = paste("shape =", shape))
  }
})

test_that("the rational quadratic and generalized Gaussian kernels match their closed forms", {
  x <- fixture_points(7, 3)
  y <- fixture_points(5, 3, seed = 2)
  r <- distances(x, y)
  expect_equal(kernel_matrix(rational_quadratic_kernel(0.8, 1.7), x, y), (1 + r^2 / (2 * 1.7 * 0.8^2))^-1.7,
               tolerance = 1e-14)
  expect_equal(kernel_matrix(generalized_gaussian_kernel(0.8, 1.3), x, y), exp(-(r / 0.8)^1.3), tolerance = 1e-14)
  expect_equal(kernel_matrix(generalized_gaussian_kernel(0.8, 1), x, y), kernel_matrix(exponential_kernel(0.8), x, y),
               tolerance = 1e-14)
  expect_equal(kernel_matrix(generalized_gaussian_kernel(0.8, 2), x, y),
               kernel_matrix(gaussian_kernel(0.8 / sqrt(2)), x, y), tolerance = 1e-13)
})

test_that("per-coordinate scales are the isotropic kernel on rescaled data, for kernels and maps", {
  x <- fixture_points(6, 3)
  y <- fixture_points(4, 3, seed = 2)
  s <- c(0.5, 2, 1.3)
  scaled <- function(z) sweep(z, 2, s, "/")
  kernels <- list(gaussian = gaussian_kernel, matern = function(sigma) matern_kernel(sigma, 1.2),
                  exponential = exponential_kernel, rq = function(sigma) rational_quadratic_kernel(sigma, 2),
                  gg = function(sigma) generalized_gaussian_kernel(sigma, 0.8))
  for (name in names(kernels)) {
    make <- kernels[[name]]
    expect_equal(kernel_matrix(make(s), x, y), kernel_matrix(make(1), scaled(x), scaled(y)), tolerance = 1e-13,
                 label = name)
    for (method in kernel_sources(make(s), 3)) {
      # the same draws for the unit scale, divided coordinatewise by sigma
      expect_equal(rff_map(make(s), 3, 12, method, seed = 4)$omega, rff_map(make(1), 3, 12, method, seed = 4)$omega / s,
                   tolerance = 1e-15, label = paste(name, method))
    }
    expect_false(askrff:::kernel_traits(make(s))$radial)
    expect_true(askrff:::kernel_traits(make(1.5))$radial)
  }
  expect_error(rpf_map(gaussian_kernel(s), 3, 8), class = "askrff_error", regexp = "`kernel` must be positive definite")
  expect_error(radial_density(matern_kernel(s, 1), 3, 1), class = "askrff_error", regexp = "no rotation-invariant spectral measure")
  expect_error(kernel_matrix(matern_kernel(c(1, 2), 1), x), class = "askrff_error", regexp = "`sigma` of the kernel has length 2")
})

test_that("the new kernels' features are unbiased for every exact frequency source", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  d <- 4
  x <- fixture_points(6, d) / 2
  y <- fixture_points(5, d, seed = 3) / 2
  kernels <- list(matern_kernel(1, 0.7), matern_kernel(c(0.8, 1, 1.5, 2), 2.5), exponential_kernel(1.2),
                  rational_quadratic_kernel(0.9, 0.6), generalized_gaussian_kernel(1, 0.7), matern_kernel(1.1, 1e6),
                  rational_quadratic_kernel(0.9, 1e9))
  for (kernel in kernels) {
    K <- kernel_matrix(kernel, x, y)
    for (method in intersect(exact_sources(), kernel_sources(kernel, d))) {
      z <- mean_error_z(K, function(r) rff_kernel_matrix(rff_map(kernel, d, 8, method, seed = r), x, y), 200)
      # The mean error over all pairs, across 200 independent maps, in units
      # of its standard error: |z| < 4.5 except with probability below 1e-5.
      expect_lt(abs(z), 4.5, label = paste(askrff:::kernel_label(kernel), method))
    }
  }
})

test_that("radial densities integrate to one and match the Matérn's Student t form", {
  d <- 3
  for (kernel in list(matern_kernel(1, 2.5), rational_quadratic_kernel(1, 2), generalized_gaussian_kernel(1, 1.5))) {
    total <- stats::integrate(function(r) radial_density(kernel, d, r), 0, Inf, subdivisions = 500)$value
    # the density averages the Gaussian one over a midpoint grid of the scale's quantiles
    expect_equal(total, 1, tolerance = 2e-3, label = askrff:::kernel_label(kernel))
  }
  # ||w|| of the Matérn: S_2 r^2 times the multivariate t density with 2 nu degrees of freedom, scale 1/sigma
  nu <- 2.5; sigma <- 1.4; r <- c(0.2, 1, 3)
  t_density <- gamma(nu + d / 2) / (gamma(nu) * (2 * nu * pi)^(d / 2)) * sigma^d * (1 + sigma^2 * r^2 / (2 * nu))^-(nu + d / 2)
  expect_equal(radial_density(matern_kernel(sigma, nu), d, r), 4 * pi * r^2 * t_density, tolerance = 1e-3)
})

# Frequencies of the kernel's first part at the extreme uniforms the sources
# use, i.i.d. draws ((k + 1/2) 2^-53: 2^-54 up to 1 - 2^-53) and
# quasi-Monte Carlo points alike: every combination of them for the scale's
# uniforms, the normal quantiles at their extreme. The kernel is not
# validated, so parameters its constructor refuses can be tried too.
extreme_frequencies <- function(name, params, d = 2L) {
  spec <- list(name = name, params = params, settings = list())
  extremes <- c(2^-54, 2^-53, 1e-10, 0.5, 1 - 1e-10, 1 - 2^-53)
  scale_uniforms <- if (name == "generalized_gaussian") 2L else 1L
  grid <- as.matrix(expand.grid(rep(list(extremes), scale_uniforms)))
  askrff:::.cpp_part_from_uniforms(spec, d, 1L, t(cbind(matrix(2^-54, nrow(grid), d), grid)))
}

test_that("Matérn orders and generalized Gaussian powers whose frequencies overflow are refused", {
  # Refused, with the reason and the bound, before any map is drawn.
  expect_error(matern_kernel(1, 1e-10), class = "askrff_error", regexp = "`nu` must be at least 0.055: .* underflow to 0")
  expect_error(matern_kernel(1, 0.05), class = "askrff_error", regexp = "`nu` must be at least 0.055")
  expect_error(generalized_gaussian_kernel(1, 0.18), class = "askrff_error", regexp = "`power` must be at least 0.19: .* overflow")
  # The bounds are tight: just below them the extreme uniforms give infinite frequencies ...
  expect_false(all(is.finite(extreme_frequencies("matern", list(sigma = 1, nu = 0.05)))))
  expect_false(all(is.finite(extreme_frequencies("generalized_gaussian", list(sigma = 1, power = 0.189)))))
  # ... and at them finite ones (the inverse CDFs of quasi-Monte Carlo, and
  # Kanter's formula, which the i.i.d. stable draws share).
  expect_true(all(is.finite(extreme_frequencies("matern", list(sigma = 1, nu = 0.055)))))
  expect_true(all(is.finite(extreme_frequencies("generalized_gaussian", list(sigma = 1, power = 0.19)))))
  for (power in c(1, 1.9, 2 - 1e-12)) {
    expect_true(all(is.finite(extreme_frequencies("generalized_gaussian", list(sigma = 1, power = power)))))
  }
  # The i.i.d. Gamma(nu) draw for nu < 1 is G' U^(1 / nu) with U >= 2^-54 and
  # G' ~ Gamma(nu + 1) from Marsaglia and Tsang's sampler, whose acceptance
  # test with log U >= log 2^-54 keeps log G' above log a - 37.43 / a - 5.5,
  # a = nu + 2/3: at the bound the product stays above the smallest double.
  a <- 0.055 + 2 / 3
  expect_gt(log(a) - 37.43 / a - 5.5 + log(2^-54) / 0.055, -1074 * log(2))
  # The rational quadratic's scales sqrt(G / alpha) stay finite for every alpha.
  for (alpha in c(1e-300, 1e-100, 1e-16, 1e-3, 1, 1e300)) {
    expect_true(all(is.finite(extreme_frequencies("rational_quadratic", list(sigma = 1, alpha = alpha)))),
                label = paste("alpha =", alpha))
  }
  # Maps at the bounds, from every source, hold finite frequencies.
  for (kernel in list(matern_kernel(1, 0.055), generalized_gaussian_kernel(1, 0.19), rational_quadratic_kernel(1, 1e-300))) {
    for (method in kernel_sources(kernel, 3)) {
      expect_true(all(is.finite(rff_map(kernel, 3, 4096, method, seed = 7)$omega)),
                  label = paste(askrff:::kernel_label(kernel), method))
    }
  }
})

test_that("bad parameters of the new kernels are refused, naming them", {
  for (bad in list(0, -1, NA, Inf, "1", c(1, NA))) {
    expect_error(matern_kernel(1, bad), class = "askrff_error", regexp = "`nu` must be")
    expect_error(rational_quadratic_kernel(1, bad), class = "askrff_error", regexp = "`alpha` must be")
    expect_error(exponential_kernel(bad), class = "askrff_error", regexp = "`sigma` must be positive finite numbers")
  }
  for (bad in list(0, -0.5, 2.5, NA, c(1, 2))) {
    expect_error(generalized_gaussian_kernel(1, bad), class = "askrff_error", regexp = "`power` must be a single number in \\(0, 2\\]")
  }
  expect_error(gaussian_kernel(c(1, -1)), class = "askrff_error", regexp = "`sigma` must be positive finite numbers")
})
