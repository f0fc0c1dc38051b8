# Shift-, Sinh- and Cosh-Gaussian kernels: exact Gram matrices, complex
# measures and their total masses (vignette "mathematics", "Exact total
# masses of the asymmetric kernels").

shift_closed_form <- function(x, y, sigma, r) {
  outer(seq_len(nrow(x)), seq_len(nrow(y)), Vectorize(function(i, j) {
    exp(-sum((x[i, ] - y[j, ] + r)^2) / (2 * sigma^2))
  }))
}
skew_closed_form <- function(x, y, sigma, beta, skew) {
  outer(seq_len(nrow(x)), seq_len(nrow(y)), Vectorize(function(i, j) {
    delta <- x[i, ] - y[j, ]
    exp(-sum(delta^2) / (2 * sigma^2)) * skew(sum(beta * delta))
  }))
}

test_that("asymmetric kernel matrices match their closed forms in both orientations", {
  x <- fixture_points(12, 3)
  y <- fixture_points(7, 3, seed = 9)
  r <- c(0.3, -0.2, 0.5)
  beta <- c(0.4, 0.1, -0.7)
  cases <- list(
    list(shift_gaussian_kernel(1.3, r), function(a, b) shift_closed_form(a, b, 1.3, r)),
    list(sinh_gaussian_kernel(1.3, beta), function(a, b) skew_closed_form(a, b, 1.3, beta, function(t) 1 + sinh(t))),
    list(cosh_gaussian_kernel(1.3, beta), function(a, b) skew_closed_form(a, b, 1.3, beta, exp)))
  for (case in cases) {
    expect_equal(kernel_matrix(case[[1]], x, y), case[[2]](x, y), tolerance = 1e-13)
    expect_equal(kernel_matrix(case[[1]], y, x), case[[2]](y, x), tolerance = 1e-13)
    # Not symmetric: K(x, x) differs from its transpose by far more than rounding.
    K <- kernel_matrix(case[[1]], x)
    expect_gt(max(abs(K - t(K))), 0.05)
  }
})

test_that("a scalar shift or beta means that value in every coordinate", {
  x <- fixture_points(6, 4)
  expect_identical(kernel_matrix(shift_gaussian_kernel(2, 0.25), x), kernel_matrix(shift_gaussian_kernel(2, rep(0.25, 4)), x))
  expect_identical(total_masses(rff_map(cosh_gaussian_kernel(2, 0.1), 4, 3, seed = 1)),
                   total_masses(rff_map(cosh_gaussian_kernel(2, rep(0.1, 4)), 4, 3, seed = 1)))
})

test_that("total masses match a reference table at the settings of He et al. (2022)", {
  # Reference values computed outside the package: R+, R-, I+ for sigma = 2,
  # r = 2/d, beta = 0.5 pi / d, cross-checked by 1-D quadrature, Monte Carlo
  # in d dimensions and R.
  reference <- rbind(
    c(1, 0.6502800179, 4.374936e-02, 0.2895766094, 44.2596007009, 44.7596008587, 4.375960e+01),
    c(8, 0.9394137079, 6.451272e-07, 0.1353147578, 0.5565019087, 1.1231986864, 1.231987e-01),
    c(16, 0.9692332345, 1.258424e-11, 0.0976834882, 0.3487694644, 1.0170170278, 1.701703e-02),
    c(22, 0.9775290463, 4.850224e-15, 0.0837777110, 0.2886064432, 1.0051616072, 5.161607e-03),
    c(57, 0.9912664313, 2.122269e-34, 0.0525332646, 0.1709232166, 1.0000170376, 1.703755e-05))
  for (i in seq_len(nrow(reference))) {
    d <- reference[i, 1]
    shift <- total_masses(rff_map(shift_gaussian_kernel(2, 2 / d), d, 2, seed = 1))
    sinh <- total_masses(rff_map(sinh_gaussian_kernel(2, 0.5 * pi / d), d, 2, seed = 1))
    cosh <- total_masses(rff_map(cosh_gaussian_kernel(2, 0.5 * pi / d), d, 2, seed = 1))
    # The table has 10 significant digits (7 for the small masses).
    expect_equal(unname(shift), reference[i, 2:4], tolerance = 1e-6)
    expect_equal(unname(sinh), c(1, reference[i, 5]), tolerance = 1e-9)
    expect_equal(unname(cosh), reference[i, c(6, 7, 5)], tolerance = 1e-6)
    expect_named(shift, c("real_pos", "real_neg", "imag_pos"))
    expect_named(sinh, c("real_pos", "imag_pos"))
  }
})

test_that("masses satisfy ||mu_R+|| - ||mu_R-|| = k(0) to 1e-12", {
  zero <- matrix(0, 1, 16)
  for (k in list(shift_gaussian_kernel(2, 2 / 16), cosh_gaussian_kernel(2, 0.5 * pi / 16),
                 shift_gaussian_kernel(0.7, seq(-1, 1, length.out = 16)), cosh_gaussian_kernel(1, 0.3))) {
    m <- spectral_measure(k, 16)$parts$mass
    expect_equal(m[1] - m[2], kernel_matrix(k, zero)[1, 1], tolerance = 1e-12)
  }
  expect_equal(kernel_matrix(shift_gaussian_kernel(2, 0.5), zero)[1, 1], exp(-16 * 0.25 / 8))
})

test_that("tiny masses keep full relative precision (no cancellation)", {
  # E max(-cos T, 0), T ~ N(0, s^2), by R's integrate over the arcs where cos < 0,
  # each rescaled by its largest Gaussian factor so nothing underflows.
  negative_cos <- function(s) {
    total <- 0
    for (k in 0:3) {
      a <- pi / 2 + 2 * pi * k
      scale <- a^2 / (2 * s^2)
      arc <- stats::integrate(function(t) -cos(t) * exp(scale - t^2 / (2 * s^2)), a, a + pi,
                              rel.tol = 1e-12)$value
      total <- total + 2 * exp(-scale) * arc / (s * sqrt(2 * pi))
    }
    total
  }
  for (s in c(0.13245, 0.2, 0.35, 0.6, 0.9)) {
    expect_equal(askrff:::.cpp_profile_mean("cos_neg", s, 1, "auto"), negative_cos(s), tolerance = 1e-10)
  }
  # The small-s asymptote 8 s^3 exp(-pi^2 / (8 s^2)) / (pi^2 sqrt(2 pi)) to within O(s^2).
  s <- 0.05
  expect_equal(askrff:::.cpp_profile_mean("cos_neg", s, 1, "auto"),
               8 * s^3 * exp(-pi^2 / (8 * s^2)) / (pi^2 * sqrt(2 * pi)), tolerance = 0.05)
})

test_that("the series and the quadrature routes agree where both apply", {
  for (profile in c("cos_pos", "cos_neg", "sin_pos")) {
    for (s in c(0.7, 1, 1.5, 3)) {
      expect_equal(askrff:::.cpp_profile_mean(profile, s, 1, "series"),
                   askrff:::.cpp_profile_mean(profile, s, 1, "quadrature"), tolerance = 1e-13)
    }
  }
  # And both against R's integrate for E max(sin T, 0).
  s <- 0.4
  expect_equal(askrff:::.cpp_profile_mean("sin_pos", s, 1, "auto"),
               stats::integrate(function(t) pmax(sin(t), 0) * stats::dnorm(t, 0, s), 0, 20 * s, rel.tol = 1e-12)$value,
               tolerance = 1e-10)
})

test_that("the phase decomposition's mass is the total variation ||mu||", {
  d <- 8
  sigma <- 2
  beta <- 0.5 * pi / d
  s <- sigma * sqrt(d) * beta
  A <- exp(s^2 / 2)
  expect_equal(total_masses(rff_map(shift_gaussian_kernel(sigma, 2 / d), d, 2, decomposition = "phase", seed = 1)), c(abs = 1))
  expect_equal(total_masses(rff_map(cosh_gaussian_kernel(sigma, beta), d, 2, decomposition = "phase", seed = 1)), c(abs = A))
  # Sinh: |mu| = mu_g sqrt(1 + A^2 sin^2 t), t ~ N(0, s^2), by integrate.
  expected <- stats::integrate(function(t) sqrt(1 + A^2 * sin(t)^2) * stats::dnorm(t, 0, s), -30 * s, 30 * s,
                               rel.tol = 1e-12)$value
  expect_equal(unname(total_masses(rff_map(sinh_gaussian_kernel(sigma, beta), d, 2, decomposition = "phase", seed = 1))),
               expected, tolerance = 1e-10)
})

test_that("spectral_measure reports signs, psi and the lifted laws, and plots them", {
  m <- spectral_measure(shift_gaussian_kernel(2, 0.125), 16)
  expect_identical(m$parts$coefficient, c(1, -1, -2))
  expect_identical(m$parts$right_phase, c(0, 0, pi / 2))
  expect_true(all(m$parts$exact & m$parts$orthogonal))
  expect_identical(unique(m$parts$density_variable), "projection")
  expect_output(print(m), "imag_pos +0.09768349 +exact +-2 +psi")
  phase <- spectral_measure(sinh_gaussian_kernel(2, 0.1), 16, decomposition = "phase")
  expect_true(phase$parts$phased)
  # The projection density of each part integrates to one. ||a|| = 0.5 and
  # s = 0.25, so real_neg lives where |u| / 2 is just beyond pi / 2.
  density <- function(p) function(u) askrff:::.cpp_part_density(m$kernel, 16, p, u)
  expect_equal(stats::integrate(density(1), -3, 3, rel.tol = 1e-8)$value, 1, tolerance = 1e-6)
  expect_equal(stats::integrate(density(3), 0, 2 * pi, rel.tol = 1e-8)$value, 1, tolerance = 1e-6)
  expect_equal(2 * stats::integrate(density(2), pi, 3 * pi, rel.tol = 1e-8)$value, 1, tolerance = 1e-6)
  on_pdf_device({
    expect_invisible(plot(m))
    expect_invisible(plot(phase))
  })
})
