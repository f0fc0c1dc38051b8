# radial_kernel(): a kernel given as an R function of the distance, its
# numerically tabulated measure (route "density") and its LP measure (route
# "lp"), against the built-in kernels it reproduces.

gaussian_fun <- function(r) exp(-r^2 / 2)
matern52_fun <- function(r) {
  t <- sqrt(5) * r
  (1 + t + t^2 / 3) * exp(-t)
}

test_that("the Gram matrix is the function of the distances, exactly", {
  x <- matrix(c(0, 1, 3, 0, 0, 4), 3)
  K <- kernel_matrix(radial_kernel(gaussian_fun), x)
  expect_equal(K, unname(exp(-as.matrix(dist(x))^2 / 2)), tolerance = 1e-14)
  expect_equal(kernel_matrix(radial_kernel(matern52_fun), x), kernel_matrix(matern_kernel(1, 2.5), x), tolerance = 1e-13)
  y <- x + 1e6
  expect_equal(kernel_matrix(radial_kernel(gaussian_fun), y), K, tolerance = 1e-9)
})

test_that("the Hankel transform matches the Gaussian's closed-form density", {
  k <- radial_kernel(gaussian_fun)
  r <- c(0.05, 0.5, 1, 2, 4)
  for (d in c(1L, 3L, 10L)) {
    expect_equal(radial_density(k, d, r), radial_density(gaussian_kernel(1), d, r), tolerance = 1e-10)
  }
})

test_that("the tabulated masses match the Gaussian's and the Delta-Gaussian's within the stated bias", {
  for (d in c(1L, 5L)) {
    m <- spectral_measure(radial_kernel(gaussian_fun), d = d)
    expect_equal(m$parts$part, "pos")
    expect_lt(m$numeric$bias, 1e-5)
    expect_lt(abs(m$parts$mass - 1), m$numeric$bias)
  }
  dg <- spectral_measure(radial_kernel(function(r) exp(-r^2 / 2) - exp(-r^2 / 200)), d = 4)
  exact <- spectral_measure(delta_gaussian_kernel(), d = 4)
  expect_equal(dg$parts$part, c("pos", "neg"))
  expect_lt(max(abs(dg$parts$mass - exact$parts$mass)), dg$numeric$bias)
  expect_output(print(dg), "bias at most")
})

test_that("the Gaussian profile's density route holds in high dimension: the chi law within the stated bias", {
  skip_on_cran()
  # Its spectral measure is N(0, I): |w| has the chi law with d degrees of
  # freedom, whose radial density is 2 r dchisq(r^2, d).
  k <- radial_kernel(gaussian_fun)
  for (d in c(12L, 16L, 32L, 64L, 100L, 128L)) {
    m <- spectral_measure(k, d = d)
    expect_equal(m$parts$part, "pos")
    expect_lt(m$numeric$bias, 1e-4)
    expect_lt(abs(m$parts$mass - 1), m$numeric$bias)
    # The L1 distance between the tabulated and the exact density bounds the
    # kernel's error, which the bias must cover; trapezoids on 20001 points
    # are exact to far below it.
    spec <- askrff:::kernel_with_settings(k, askrff:::resolve_kernel_settings(k, list()), d)
    r <- seq(0, sqrt(d) + 8, length.out = 20001)
    tabulated <- m$parts$mass * askrff:::.cpp_part_density(spec, d, 1L, r)
    exact <- 2 * r * dchisq(r^2, d)
    expect_lt(sum(abs(tabulated - exact)) * (r[2] - r[1]), m$numeric$bias)
    # The Hankel transform itself, where it is tabulated, to 1e-10.
    at <- sqrt(d) + c(-2, 0, 2, 4)
    expect_equal(radial_density(k, d, at), 2 * at * dchisq(at^2, d), tolerance = 1e-10)
  }
})

test_that("features of the Gaussian profile are unbiased in high dimension", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  set.seed(5)
  d <- 64L
  x <- matrix(rnorm(5 * d, sd = 0.15), 5)
  y <- matrix(rnorm(4 * d, sd = 0.15), 4)
  K <- kernel_matrix(gaussian_kernel(1), x, y)
  # Each map's mean error over the pairs, over 200 independent maps, is about
  # N(0, se^2) for an unbiased estimator (|z| < 4.5 fails once in 150,000
  # runs); the tabulated measure's bias (below 1e-4) is far below se (about 1e-2).
  for (method in c("iid", "orthogonal")) {
    z <- mean_error_z(K, function(r) rff_kernel_matrix(rff_map(radial_kernel(gaussian_fun), d, 16, method, seed = r), x, y), 200)
    expect_lt(abs(z), 4.5, label = sprintf("%s: z", method))
  }
})

test_that("features of radial kernels are unbiased for the kernels they reproduce", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  set.seed(3)
  d <- 2L
  x <- matrix(rnorm(12), 6)
  y <- matrix(rnorm(10), 5)
  # Pairs sharing a map are correlated, so the test is on each map's mean
  # error over all pairs, whose mean over 200 independent maps is about
  # N(0, se^2); |z| < 4.5 fails an unbiased estimator once in 150,000 runs.
  # The tabulated measure's bias (below 1e-5) is far below se (about 1e-2).
  cases <- list(list(radial_kernel(gaussian_fun), gaussian_kernel(1)),
                list(radial_kernel(matern52_fun), matern_kernel(1, 2.5)),
                list(radial_kernel(function(r) exp(-r^2 / 2) - exp(-r^2 / 8)), delta_gaussian_kernel(sigmas = c(1, 2))))
  for (case in cases) {
    K <- kernel_matrix(case[[2]], x, y)
    for (method in intersect(exact_sources(), kernel_sources(case[[1]], d))) {
      z <- mean_error_z(K, function(r) rff_kernel_matrix(rff_map(case[[1]], d, 8, method, seed = r), x, y), 200)
      expect_lt(abs(z), 4.5, label = sprintf("%s, %s: z", askrff:::kernel_label(case[[1]]), method))
    }
  }
})

test_that("maps of a radial kernel carry the tabulated measure's bias and survive saveRDS", {
  map <- rff_map(radial_kernel(gaussian_fun), d = 3, n_features = 16, seed = 1)
  expect_lt(map$bias_bound, 1e-5)
  expect_output(print(map), "tabulated measure")
  path <- tempfile(fileext = ".rds")
  saveRDS(map, path)
  again <- readRDS(path)
  x <- matrix(rnorm(9), 3)
  expect_identical(rff_features(again, x), rff_features(map, x))
})

test_that("heavy tails and slow decay are explained, and the LP route serves them", {
  skip_on_cran()
  expect_error(spectral_measure(radial_kernel(function(r) exp(-r)), d = 3), "heavy tail.*route = \"lp\"", class = "askrff_error")
  expect_error(spectral_measure(radial_kernel(function(r) 1 / (1 + r^2)), d = 3), "decays too slowly", class = "askrff_error")
  expect_error(spectral_measure(radial_kernel(function(r) exp(-r)), d = 3, route = "lp"), "needs `z_max`", class = "askrff_error")
  m <- spectral_measure(radial_kernel(function(r) exp(-r)), d = 3, route = "lp", tolerance = 0.01, z_max = 5)
  expect_lt(m$lp$bias_bound, 0.011)
  # The atoms reproduce k on [0, z_max] within the bias bound.
  z <- seq(0, 5, length.out = 101)
  omega <- askrff:::.cpp_omega_matrix(3L, z, m$lp$radius)
  expect_lt(max(abs(omega %*% m$lp$weight - exp(-z))), m$lp$bias_bound)
  expect_error(spectral_measure(radial_kernel(function(r) exp(-r)), d = 3, route = "lp", tolerance = 1e-3, z_max = 5),
               "infeasible", class = "askrff_error")
})

test_that("power-law profiles get the density route's documented errors, and the LP route with a bias that holds", {
  # A finite density needs decay faster than r^-d; the density route needs
  # |f| r^d below 1e-16 of its peak by r = 1e6, and then resolves only radii
  # up to about 13500 / z (?radial_kernel).
  s <- 1
  cases <- list(list(fun = function(r) (1 + r^2 / s^2)^-6, d = 9L, error = "is computed only up to radius 0.0182"),
                list(fun = function(r) (1 + r^2)^-2, d = 3L, error = "decays too slowly for the density route"))
  for (case in cases) {
    k <- radial_kernel(case$fun)
    message <- tryCatch(spectral_measure(k, d = case$d), askrff_error = conditionMessage)
    expect_match(message, case$error, fixed = TRUE)
    expect_match(message, "route = \"lp\" with z_max", fixed = TRUE)
    expect_no_match(message, "^--", fixed = TRUE)
    # The way out: its atoms reproduce the profile within the stated bias on
    # [0, z_max], so the kernel of the map's measure does on the data.
    m <- spectral_measure(k, d = case$d, route = "lp", tolerance = 1e-3, z_max = 3)
    expect_lt(m$lp$bias_bound, 1.1e-3)
    z <- seq(0, 3, length.out = 2001)
    expect_lt(max(abs(askrff:::.cpp_omega_matrix(case$d, z, m$lp$radius) %*% m$lp$weight - case$fun(z))), m$lp$bias_bound)
    x <- fixture_points(6, case$d) / sqrt(case$d)
    distances <- as.matrix(dist(x))
    k_lp <- askrff:::.cpp_omega_matrix(case$d, as.vector(distances), m$lp$radius) %*% m$lp$weight
    expect_lt(max(abs(k_lp - as.vector(kernel_matrix(k, x)))), m$lp$bias_bound)
  }
  # A density that still grows where the transform ends is named so, with no
  # "r^--" (the profile's range explains the short reach).
  grows <- tryCatch(spectral_measure(radial_kernel(cases[[1]]$fun), d = 9), askrff_error = conditionMessage)
  expect_match(grows, "still does not fall .* z = 741455", perl = TRUE)
})

test_that("bad functions get clear errors", {
  expect_error(radial_kernel("exp"), "`fun` must be a function", class = "askrff_error")
  expect_error(radial_kernel(function(r) rep(NA_real_, length(r))), "finite values", class = "askrff_error")
  expect_error(radial_kernel(function(r) 1 / r), "fun\\(0\\) is Inf", class = "askrff_error")
  expect_error(radial_kernel(function(r) 1), "as long as its argument", class = "askrff_error")
  expect_error(radial_kernel(function(r) as.character(r)), "numeric vector", class = "askrff_error")
  expect_error(radial_kernel(function(r) stop("boom")), "failed at distances.*boom", class = "askrff_error")
  expect_error(radial_kernel(function(r) ifelse(r > 1.5, NaN, 1)), "finite", class = "askrff_error")
  late_na <- radial_kernel(function(r) ifelse(r > 50, NA, exp(-r^2)))
  expect_error(spectral_measure(late_na, d = 2), "finite values", class = "askrff_error")
  expect_error(spectral_measure(radial_kernel(function(r) 0 * r), d = 2), "zero at every distance", class = "askrff_error")
  edited <- radial_kernel(gaussian_fun)
  edited$params$fun <- 3
  expect_error(kernel_matrix(edited, diag(2)), "must be a function", class = "askrff_error")
})

test_that("Omega_d by Hankel's expansion at large arguments matches closed forms and besselJ", {
  x <- c(30, 100, 777.7, 5000)
  expect_equal(askrff:::.cpp_omega_matrix(3L, x, 1)[, 1], sin(x) / x, tolerance = 1e-12)
  expect_equal(askrff:::.cpp_omega_matrix(5L, x, 1)[, 1], 3 * (sin(x) - x * cos(x)) / x^3, tolerance = 1e-11)
  expect_equal(askrff:::.cpp_omega_matrix(4L, x, 1)[, 1], 2 * besselJ(x, 1) / x, tolerance = 1e-10)
})

test_that("an indefinite kernel's Jordan masses match independent quadrature", {
  hat <- function(r) (1 - r^2 / 2) * exp(-r^2 / 4)
  m <- spectral_measure(radial_kernel(hat), d = 2)
  # In d = 2 the radial density is w int_0^inf k(r) r J_0(w r) dr; it changes
  # sign once, at w = 1 / sqrt(2), so each part is one integral of it.
  density <- Vectorize(function(w) {
    w * integrate(function(r) hat(r) * r * besselJ(w * r, 0), 0, 40, rel.tol = 1e-12, subdivisions = 1000L)$value
  })
  root <- uniroot(density, c(0.5, 3), tol = 1e-14)$root
  expect_equal(root, 1 / sqrt(2), tolerance = 1e-8)
  neg <- -integrate(density, 0, root, rel.tol = 1e-12)$value
  pos <- integrate(density, root, 12, rel.tol = 1e-12)$value
  expect_equal(m$parts$part, c("pos", "neg"))
  expect_lt(max(abs(m$parts$mass - c(pos, neg))), m$numeric$bias)
})
