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
