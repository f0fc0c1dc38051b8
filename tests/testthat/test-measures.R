test_that("the Gaussian radial density carries the Jacobian and integrates to one", {
  for (d in c(1, 5, 64)) {
    measure <- spectral_measure(gaussian_kernel(1.5), d)
    density <- function(r) askrff:::.cpp_part_density(measure$kernel, d, 1L, r)
    expect_equal(stats::integrate(density, 0, Inf, rel.tol = 1e-10)$value, 1, tolerance = 1e-8)
    # Closed form: chi_d scaled by 1 / sigma.
    expect_equal(density(2.3), 1.5 * stats::dchisq((1.5 * 2.3)^2, d) * 2 * 1.5 * 2.3, tolerance = 1e-12)
  }
})

test_that("the Laplace measure is a product of Cauchy laws with scale 1 / sigma", {
  measure <- spectral_measure(laplace_kernel(2), 3)
  expect_false(measure$parts$orthogonal)
  expect_identical(measure$parts$density_variable, "coordinate")
  at <- c(-3, 0, 0.4, 10)
  expect_equal(askrff:::.cpp_part_density(measure$kernel, 3, 1L, at), stats::dcauchy(at, 0, 0.5), tolerance = 1e-14)
})

test_that("a positive definite kernel has one exact part of mass one", {
  parts <- spectral_measure(gaussian_kernel(1), 4)$parts
  expect_identical(parts$part, "pos")
  expect_identical(parts$mass, 1)
  expect_true(parts$exact)
  expect_identical(parts$coefficient, 1)
})

test_that("print and plot show the measure", {
  measure <- spectral_measure(gaussian_kernel(1), 8)
  expect_output(print(measure), "pos +1 +exact")
  on_pdf_device({
    expect_invisible(plot(measure))
    expect_invisible(plot(spectral_measure(laplace_kernel(1), 2)))
  })
})
