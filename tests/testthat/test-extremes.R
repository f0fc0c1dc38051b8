# Extreme but legal inputs: finite, correct answers in bounded time.

test_that("Shift- and Cosh-Gaussian masses stay right when s = ||a|| / sigma is tiny", {
  # T ~ N(0, s^2) with s = ||shift|| / sigma: E max(cos T, 0) = exp(-s^2/2) and
  # E max(-cos T, 0) = 0 to within exp(-pi^2 / (8 s^2)); E max(sin T, 0) =
  # E sin(T) 1{T > 0} = s / sqrt(2 pi) (1 - s^2 / 3 + ...), so to 1e-8 relative.
  for (s in c(1e-4, 1e-7, 1e-12, 1e-150, 1e-300)) {
    sigma <- 0.3 / s
    masses <- total_masses(rff_map(shift_gaussian_kernel(sigma, 0.3), 1, 16, seed = 1))
    expect_equal(masses[["real_pos"]], exp(-s^2 / 2), tolerance = 1e-12)
    expect_equal(masses[["real_neg"]], 0)
    expect_equal(masses[["imag_pos"]], s / sqrt(2 * pi), tolerance = 1e-8)
  }
  # The Cosh-Gaussian is exp(s^2/2) times a Shift-Gaussian with r = -sigma^2 beta.
  cosh <- spectral_measure(cosh_gaussian_kernel(0.001, 0.1), 3)$parts$mass
  s <- 0.001 * 0.1 * sqrt(3)
  expect_equal(cosh, c(1, 0, exp(s^2 / 2) * s / sqrt(2 * pi)), tolerance = 1e-8)
  # The approximation is the kernel (about 1 near the diagonal), not zeros.
  map <- rff_map(shift_gaussian_kernel(1e4, 0.3), 4, 512, seed = 1)
  x <- fixture_points(5, 4)
  expect_lt(max(abs(rff_kernel_matrix(map, x) - kernel_matrix(map$kernel, x))), 1e-3)
})

test_that("Gram matrices are invariant under large offsets and finite for enormous data", {
  # Coordinates on a grid of 2^-20 keep x + offset exact for offsets up to 1e8,
  # so any difference is the kernel's own rounding.
  x <- round(fixture_points(12, 4) * 2^20) / 2^20
  kernels <- list(gaussian_kernel(1), laplace_kernel(1), delta_gaussian_kernel(), shift_gaussian_kernel(1, 0.3),
                  sinh_gaussian_kernel(1, 0.2), cosh_gaussian_kernel(1, 0.2),
                  rpf_expected_kernel(gaussian_kernel(1), "square", "square"))
  for (k in kernels) {
    reference <- kernel_matrix(k, x)
    for (offset in c(1e7, 1e8)) expect_equal(kernel_matrix(k, x + offset), reference, tolerance = 1e-10)
    far <- kernel_matrix(k, x * 1e155)
    expect_true(all(is.finite(far)))
    expect_equal(diag(far), diag(reference))
  }
  # Equal points give k(0) exactly, not rounding noise of the expansion.
  expect_identical(kernel_matrix(gaussian_kernel(1), x + 1e7)[3, 3], 1)
})

# Every family with a length scale, as a function of a common factor c of
# its scales (and of its shift, or 1 / c of its beta): k_c(c x, c y) = k_1(x, y).
scaled_families <- list(
  gaussian = function(c) gaussian_kernel(0.7 * c), gaussian_ard = function(c) gaussian_kernel(c(0.5, 1, 2) * c),
  exponential = function(c) exponential_kernel(c), exponential_ard = function(c) exponential_kernel(c(0.5, 1, 2) * c),
  rational_quadratic = function(c) rational_quadratic_kernel(0.8 * c, 1.7),
  rational_quadratic_ard = function(c) rational_quadratic_kernel(c(0.5, 1, 2) * c, 0.3),
  generalized_gaussian = function(c) generalized_gaussian_kernel(c, 0.7),
  generalized_gaussian_ard = function(c) generalized_gaussian_kernel(c(0.5, 1, 2) * c, 1.5),
  matern_bessel = function(c) matern_kernel(c, 0.7), matern_elementary = function(c) matern_kernel(c, 1.5),
  matern_debye = function(c) matern_kernel(c, 60), matern_ard = function(c) matern_kernel(c(0.5, 1, 2) * c, 2.3),
  laplace = function(c) laplace_kernel(c), delta_gaussian = function(c) delta_gaussian_kernel(c(1, -0.5), c(1, 2) * c),
  shift_gaussian = function(c) shift_gaussian_kernel(c, 0.3 * c), sinh_gaussian = function(c) sinh_gaussian_kernel(c, 0.2 / c),
  cosh_gaussian = function(c) cosh_gaussian_kernel(c, 0.2 / c),
  rpf_gaussian = function(c) rpf_expected_kernel(gaussian_kernel(c), "square", "square"),
  rpf_laplace = function(c) rpf_expected_kernel(laplace_kernel(c), "square", "cos"))

test_that("every kernel family with a length scale is among the families scaled here", {
  # a family of the core's registry whose constructor takes a length scale
  # (sigma or sigmas) must be in scaled_families, under its name or a variant
  families <- setdiff(askrff:::.cpp_kernel_families(), c("sum", "product", "rpf_expected"))
  scaled <- Filter(function(name) {
    any(c("sigma", "sigmas") %in% names(formals(getExportedValue("askrff", paste0(name, "_kernel")))))
  }, families)
  missing <- scaled[!vapply(scaled, function(name) any(startsWith(names(scaled_families), name)), TRUE)]
  expect(length(missing) == 0L, sprintf("scaled_families lacks the kernel families %s", paste(missing, collapse = ", ")))
})

test_that("Gram matrices do not depend on the unit of length, from 1e-300 to 1e300", {
  # Coordinates on a grid of 2^-20: times a power of two they stay exact, and
  # so does every distance in units of the scales, so those Gram matrices are
  # identical; other factors round the data and the scales (about 1e-16).
  x <- round(fixture_points(6, 3) * 2^20) / 2^20
  y <- round(fixture_points(4, 3, seed = 2) * 2^20) / 2^20
  for (name in names(scaled_families)) {
    make <- scaled_families[[name]]
    reference <- kernel_matrix(make(1), x, y)
    for (c in c(2^-1000, 2^1000)) {
      expect_identical(kernel_matrix(make(c), x * c, y * c), reference, label = sprintf("%s, c = %g", name, c))
    }
    for (c in c(1e-300, 1e-160, 1e160, 1e300)) {
      expect_equal(kernel_matrix(make(c), x * c, y * c), reference, tolerance = 1e-13, label = sprintf("%s, c = %g", name, c))
    }
  }
  # Tiny scales on ordinary data: k(0) on the diagonal, 0 off it, exactly.
  for (kernel in list(gaussian_kernel(1e-160), matern_kernel(1e-300, 1.5), matern_kernel(c(1e-300, 1e-200), 0.7),
                      exponential_kernel(1e-300), rational_quadratic_kernel(1e-300, 2),
                      generalized_gaussian_kernel(1e-300, 0.5), laplace_kernel(1e-300))) {
    expect_identical(kernel_matrix(kernel, diag(2)), diag(2), label = askrff:::kernel_label(kernel))
  }
  # Huge scales on ordinary data: every distance is about 1e-300, k = 1.
  expect_identical(kernel_matrix(matern_kernel(1e300, 2.3), diag(2)), matrix(1, 2, 2))
})

test_that("the rational quadratic kernel decays as r^(-2 alpha) where r^2 / (2 alpha) overflows", {
  alpha <- 1e-3
  r <- 1e200
  # log(1 + z) = log(z) to double precision for z = r^2 / (2 alpha) = 5e402
  expect_equal(kernel_matrix(rational_quadratic_kernel(1, alpha), matrix(c(0, r)))[1, 2],
               exp(-alpha * (2 * log(r) - log(2 * alpha))), tolerance = 1e-14)
  # and (r / sqrt(2 alpha))^2 does not underflow before r^2 / (2 alpha) would
  expect_equal(kernel_matrix(rational_quadratic_kernel(1, 1e-300), matrix(c(0, 1e-160)))[1, 2],
               exp(-1e-300 * log1p(5e-21)), tolerance = 1e-15)
})

test_that("maps of tiny or huge length scales give finite features or a named error", {
  # the probability-measure families (the signed and complex ones' masses
  # are computed from sigma^2 and do not reach these scales)
  for (name in setdiff(names(scaled_families), c("delta_gaussian", "shift_gaussian", "sinh_gaussian", "cosh_gaussian",
                                                 "rpf_gaussian", "rpf_laplace"))) {
    make <- scaled_families[[name]]
    d <- 3
    method <- if (name == "laplace") "qmc" else "structured"
    # frequencies of about 1e-300: features of data of about 1e300 are finite
    huge <- rff_map(make(1e300), d, 16, method, seed = 1)
    expect_true(all(is.finite(rff_features(huge, fixture_points(3, d) * 1e300))), label = name)
    # frequencies of about 1e300 overflow w'x for data of about 1
    tiny <- rff_map(make(1e-300), d, 16, method, seed = 1)
    expect_error(rff_features(tiny, fixture_points(3, d)), class = "askrff_error",
                 regexp = "`x` has entries up to .* and the map's frequencies reach .*, so the projections w'x overflow")
    # below about 1e-308 the frequencies themselves overflow
    expect_error(rff_map(make(1e-310), d, 16, method, seed = 1), class = "askrff_error",
                 regexp = "`kernel` draws frequencies beyond the largest double: .* length scale too small")
  }
  expect_error(rpf_map(gaussian_kernel(1e-310), 2, 8, seed = 1), class = "askrff_error",
               regexp = "`kernel` draws frequencies beyond the largest double")
})

test_that("maps print the error scale their masses imply", {
  # sigma ||beta|| = 5: masses exp(12.5) each (imag_pos counts twice). With
  # 256 frequencies per part the bound is exp(12.5) sqrt(6 / 256) = 13076;
  # the same 768 shared by mass, 1/4, 1/4, 1/2, give exp(12.5) / sqrt(48) = 12329.
  equal <- rff_map(cosh_gaussian_kernel(1, 2.5), 4, 768, allocation = "equal", seed = 1)
  expect_output(print(equal), "each entry's standard deviation is at most 13076, k\\(0\\) = 1")
  expect_output(print(rff_map(cosh_gaussian_kernel(1, 2.5), 4, 768, seed = 1)), "at most 12329, k\\(0\\) = 1")
  # Gaussian: one part of mass 1 and 64 frequencies: at most 1/8.
  expect_output(print(rff_map(gaussian_kernel(1), 3, 64, seed = 1)), "at most 0.125, k\\(0\\) = 1")
})

test_that("messages name the argument and print enough digits", {
  x <- normalize_rows(fixture_points(3, 3))
  x[2, ] <- x[2, ] * (1 + 1e-5)
  expect_error(kernel_matrix(arccos_kernel(0), x), "row 2 has norm 1.00001", class = "askrff_error")
  expect_error(rff_map(arccos_kernel(0), 3, 4, route = "stationary", z_max = 1e-300),
               "`z_max` must be a single number in \\(0.001, 2\\)", class = "askrff_error")
})
