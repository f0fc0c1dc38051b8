# Signed Gaussian mixtures: exact kernel, minimal Jordan masses, the radial
# Jacobian, unbiasedness, and GORF (Luo et al. 2021) against GRFF (Liu et al.
# 2021); vignette "mathematics", "The minimal decomposition of the
# Delta-Gaussian" and "The Jacobian of radial laws".

# Independent reference: the radial density S_{d-1} r^{d-1} mu(r) in plain R.
mixture_radial_density <- function(r, d, weights, sigmas) {
  area <- 2 * pi^(d / 2) / gamma(d / 2)
  mu <- Reduce(`+`, Map(function(w, s) w * (s / sqrt(2 * pi))^d * exp(-s^2 * r^2 / 2), weights, sigmas))
  area * r^(d - 1) * mu
}

# Breakpoints help integrate() find narrow features near the origin.
mixture_part_mass <- function(sign, d, weights, sigmas) {
  f <- function(r) pmax(0, sign * mixture_radial_density(r, d, weights, sigmas))
  edges <- c(0, 0.5 / max(sigmas), 2 / min(sigmas), 40 / min(sigmas))
  sum(vapply(seq_len(length(edges) - 1L), function(i) {
    stats::integrate(f, edges[i], edges[i + 1L], rel.tol = 1e-12, abs.tol = 0, subdivisions = 1000L)$value
  }, 0))
}

test_that("kernel_matrix is the signed sum of Gaussian kernels", {
  kernel <- delta_gaussian_kernel(c(2, -1, 0.5), c(1, 2, 5))
  x <- fixture_points(6, 3)
  y <- fixture_points(4, 3, seed = 7)
  dist2 <- outer(rowSums(x^2), rowSums(y^2), `+`) - 2 * x %*% t(y)
  expected <- 2 * exp(-dist2 / 2) - exp(-dist2 / 8) + 0.5 * exp(-dist2 / 50)
  expect_equal(kernel_matrix(kernel, x, y), expected, tolerance = 1e-13)
})

test_that("the minimal Jordan masses of the Delta-Gaussian are the closed form's", {
  # the closed form's values, tabulated to 5 or 6 digits
  printed <- c(`1` = 0.79822, `2` = 0.94500, `3` = 0.98373, `5` = 0.99842, `8` = 0.999946)
  for (d in as.integer(names(printed))) {
    masses <- spectral_measure(delta_gaussian_kernel(), d)$parts$mass
    rho0 <- sqrt(2 * d * log(10) / 99)
    closed <- stats::pchisq(rho0^2, d, lower.tail = FALSE) - stats::pchisq(100 * rho0^2, d, lower.tail = FALSE)
    expect_equal(masses, c(closed, closed), tolerance = 1e-12, label = paste("d =", d))
    expect_equal(masses[1], printed[[as.character(d)]], tolerance = 6e-6)
  }
  expect_equal(spectral_measure(delta_gaussian_kernel(), 16)$parts$mass, rep(1 - 8.2e-9, 2), tolerance = 1e-10)
})

test_that("masses of a general mixture match independent quadrature and differ by k(0)", {
  weights <- c(2, -1, 0.5, -1.2)
  sigmas <- c(1, 2, 5, 0.7)
  for (d in c(1, 3, 6)) {
    measure <- spectral_measure(delta_gaussian_kernel(weights, sigmas), d)
    masses <- stats::setNames(measure$parts$mass, measure$parts$part)
    expect_equal(masses[["pos"]], mixture_part_mass(+1, d, weights, sigmas), tolerance = 1e-9)
    expect_equal(masses[["neg"]], mixture_part_mass(-1, d, weights, sigmas), tolerance = 1e-9)
    expect_equal(masses[["pos"]] - masses[["neg"]], sum(weights), tolerance = 1e-12)
  }
  components <- spectral_measure(delta_gaussian_kernel(weights, sigmas), 3, decomposition = "components")
  expect_equal(components$parts$mass, c(2.5, 2.2))
  positive <- spectral_measure(delta_gaussian_kernel(c(1, 2), c(1, 3)), 4)
  expect_equal(positive$parts$part, "pos")
  expect_equal(positive$parts$mass, 3)
})

test_that("radial_density carries the Jacobian and integrates to k(0) and the masses", {
  kernel <- delta_gaussian_kernel(c(2, -1, 0.5), c(1, 2, 5))
  r <- c(0.01, 0.3, 1, 2.5)
  expect_equal(radial_density(kernel, 3, r), mixture_radial_density(r, 3, c(2, -1, 0.5), c(1, 2, 5)),
               tolerance = 1e-13)
  total <- stats::integrate(function(r) radial_density(kernel, 3, r), 0, Inf, rel.tol = 1e-10)$value
  expect_equal(total, 1.5, tolerance = 1e-8)
  expect_equal(radial_density(gaussian_kernel(2), 5, r),
               mixture_radial_density(r, 5, 1, 2), tolerance = 1e-13)
})

test_that("sampled radii follow the density with the r^(d-1) Jacobian", {
  # d = 16: with the Jacobian the mean radius of the pos part is near sqrt(16);
  # dropping r^(d-1) would give a mean below 1. 20000 draws give a standard
  # error of sd/sqrt(20000) on the mean; the test allows 5 of them.
  d <- 16
  weights <- c(1, -1)
  sigmas <- c(1, 10)
  map <- rff_map(delta_gaussian_kernel(), d, 20000, seed = 5)
  for (p in 1:2) {
    sign <- c(1, -1)[p]
    radius <- sqrt(colSums(map$omega[, map$part == p]^2))
    density <- function(r) pmax(0, sign * mixture_radial_density(r, d, weights, sigmas))
    mass <- stats::integrate(density, 0, 20, rel.tol = 1e-10)$value
    expected <- stats::integrate(function(r) r * density(r), 0, 20, rel.tol = 1e-10)$value / mass
    no_jacobian <- function(r) density(r) / r^(d - 1)
    wrong <- stats::integrate(function(r) r * no_jacobian(r), 0, 20)$value /
      stats::integrate(no_jacobian, 0, 20)$value
    se <- stats::sd(radius) / sqrt(length(radius))
    expect_lt(abs(mean(radius) - expected), 5 * se)
    expect_gt(abs(mean(radius) - wrong), 100 * se)
  }
})

test_that("the mixture estimators are unbiased for both decompositions and methods", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  x <- fixture_points(6, 3)
  y <- fixture_points(4, 3, seed = 9)
  for (kernel in list(delta_gaussian_kernel(), delta_gaussian_kernel(c(2, -1, 0.5), c(1, 2, 0.3)))) {
    K <- kernel_matrix(kernel, x, y)
    for (decomposition in c("jordan", "components")) {
      for (method in c("iid", "orthogonal")) {
        z <- unbiasedness_z(K, function(r) {
          rff_kernel_matrix(rff_map(kernel, 3, 8, method, decomposition = decomposition, seed = r), x, y)
        }, replicates = 300)
        expect_lt(max(abs(z)), 4.5, label = paste(format(kernel$params$weights), decomposition, method))
      }
    }
  }
})

test_that("GORF has a lower error than GRFF at s = d and 2d for the Delta-Gaussian (Luo et al. 2021, Table II)", {
  # Orthogonal frequencies give about 6x lower variance at ||x - y|| = 1 in
  # d = 16 (a computation outside the package). Over 30 maps
  # each, the mean errors must differ by more than 4 standard errors of the
  # difference, so a chance reversal is out of the question.
  d <- 16
  x <- fixture_points(150, d) * 0.5
  K <- kernel_matrix(delta_gaussian_kernel(), x)
  for (s in c(d, 2 * d)) {
    errors <- vapply(c("iid", "orthogonal"), function(method) {
      vapply(1:30, function(r) {
        relative_error(K, rff_kernel_matrix(rff_map(delta_gaussian_kernel(), d, s, method, seed = r), x))
      }, 0)
    }, numeric(30))
    gain <- errors[, "iid"] - errors[, "orthogonal"]
    expect_gt(mean(gain), 4 * stats::sd(gain) / sqrt(30))
    expect_lt(mean(errors[, "orthogonal"]), 0.8 * mean(errors[, "iid"]))
  }
})
