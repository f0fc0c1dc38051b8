# AsK-RFF maps (He et al. 2022): unbiasedness and orientation, the lifted
# samplers, the phase decomposition and the mass estimator (vignette
# "mathematics": "The orientation of the asymmetric estimator", "Exact total
# masses of the asymmetric kernels", "Sampling the modulus: the phase form",
# "The sign in the subset least-squares estimator").

# Parameters with every part's acceptance above 1e-2, so thousands of maps
# stay cheap; the tabulated samplers are tested on their own below.
asymmetric_kernels <- function() {
  list(shift = shift_gaussian_kernel(1, 0.6), sinh = sinh_gaussian_kernel(1, 0.5),
       cosh = cosh_gaussian_kernel(1, 0.5))
}

test_that("rff_kernel_matrix is unbiased for k(x_i - y_j): all kernels, decompositions, methods and allocations", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  x <- fixture_points(7, 3)
  y <- fixture_points(5, 3, seed = 11)
  for (kernel in asymmetric_kernels()) {
    K <- kernel_matrix(kernel, x, y)
    for (decomposition in c("jordan", "phase")) {
      for (method in c("iid", "orthogonal")) {
        # The equal allocation once per kernel: its weights are the mass
        # allocation's with fixed counts.
        for (allocation in if (decomposition == "jordan" && method == "iid") c("mass", "equal") else "mass") {
          # Eight frequencies in all: with "mass" a part's count is random
          # (systematic sampling), which the weights must absorb.
          z <- unbiasedness_z(K, function(r) {
            map <- rff_map(kernel, 3, 8, method, decomposition = decomposition, allocation = allocation, seed = r)
            rff_kernel_matrix(map, x, y)
          }, replicates = 300)
          expect_lt(max(abs(z)), 4.5, label = paste(kernel$name, decomposition, method, allocation))
        }
      }
    }
  }
})

test_that("the estimate is of k(x_i - y_j), not of the transposed orientation", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  # Against k(x_j - x_i) the z-scores run into the dozens; here the
  # mean of 300 maps misses t(kernel_matrix(k, y, x)) by over 10 standard errors.
  x <- fixture_points(7, 3)
  y <- fixture_points(5, 3, seed = 11)
  for (kernel in asymmetric_kernels()) {
    wrong <- t(kernel_matrix(kernel, y, x))
    z <- unbiasedness_z(wrong, function(r) rff_kernel_matrix(rff_map(kernel, 3, 8, seed = r), x, y), 300)
    expect_gt(max(abs(z)), 10)
  }
})

test_that("left and right features are phi and psi with the signs and masses of the oriented estimator", {
  kernel <- shift_gaussian_kernel(1.5, c(0.2, -0.4))
  map <- rff_map(kernel, 2, 15, allocation = "equal", seed = 3)  # five frequencies per part
  x <- fixture_points(4, 2)
  L <- rff_features(map, x, "left")
  R <- rff_features(map, x, "right")
  m <- total_masses(map)
  F <- ncol(map$omega)
  P <- x %*% map$omega
  expected_left <- cbind(cos(P), sin(P)) * rep(sqrt(rep(c(1, 1, 2) * m, each = 5) / 5), each = 4, times = 2)
  expect_equal(L, expected_left, tolerance = 1e-14)
  imag <- map$part == 3
  psi <- cbind(-sin(P[, imag]), cos(P[, imag]))
  expect_equal(R[, c(which(imag), F + which(imag))], -sqrt(2 * m[["imag_pos"]] / 5) * psi, tolerance = 1e-14)
  neg <- map$part == 2
  expect_equal(R[, c(which(neg), F + which(neg))], -L[, c(which(neg), F + which(neg))], tolerance = 1e-15)
  expect_equal(L %*% t(R), rff_kernel_matrix(map, x), tolerance = 1e-13)
})

test_that("the phase decomposition puts the phase of mu on the left features", {
  kernel <- cosh_gaussian_kernel(2, c(0.1, 0.3))
  map <- rff_map(kernel, 2, 6, decomposition = "phase", seed = 8)
  a <- -4 * c(0.1, 0.3)  # a = -sigma^2 beta: mu = A mu_g e^{i a'w}
  expect_equal(map$phase, drop(a %*% map$omega), tolerance = 1e-14)
  x <- fixture_points(3, 2)
  L <- rff_features(map, x, "left")
  expect_equal(L[, 1:6], sqrt(total_masses(map) / 6) * cos(x %*% map$omega + rep(map$phase, each = 3)), tolerance = 1e-14)
  expect_equal(rff_features(map, x, "right")[, 7:12], sqrt(total_masses(map) / 6) * sin(x %*% map$omega), tolerance = 1e-14)
})

test_that("the tabulated sampler draws the projection's 1-D law and lifts it exactly", {
  # Shift-Gaussian at the paper's d = 16: real_neg has acceptance 1.3e-11, so
  # its projection T = a'w comes from the tabulated inverse CDF.
  d <- 16
  kernel <- shift_gaussian_kernel(2, 2 / d)
  map <- rff_map(kernel, d, 60000, allocation = "equal", seed = 5)  # 20000 per part
  a <- rep(2 / d, d)
  omega <- map$omega[, map$part == 2]
  t_draws <- drop(a %*% omega)
  s <- sqrt(sum(a^2)) / 2
  law <- function(t) pmax(-cos(t), 0) * exp(-(t^2 - (pi / 2)^2) / (2 * s^2))
  moment <- function(f) {
    stats::integrate(function(t) f(t) * law(t), pi / 2, 3 * pi / 2, rel.tol = 1e-10)$value /
      stats::integrate(law, pi / 2, 3 * pi / 2, rel.tol = 1e-10)$value
  }
  # |T| and T^2 are symmetric; compare their means within 4 standard errors.
  for (f in list(abs, function(t) t^2)) {
    values <- f(t_draws)
    expect_lt(abs(mean(values) - moment(f)) / (stats::sd(values) / sqrt(length(values))), 4)
  }
  expect_lt(abs(mean(t_draws > 0) - 0.5) / sqrt(0.25 / 20000), 4)
  # Across a the lift is N(0, sigma^-2 I): unit variance once scaled by sigma.
  across <- omega - outer(a / sum(a^2), t_draws)
  basis <- qr.Q(qr(cbind(a, diag(d))))[, 2:d]
  scaled <- 2 * crossprod(basis, across)
  expect_lt(abs(mean(scaled^2) - 1) / sqrt(2 / length(scaled)), 4)
})

test_that("orthogonal maps draw orthogonal Gaussian directions within each block", {
  map <- rff_map(sinh_gaussian_kernel(1, 0.2), 6, 12, method = "orthogonal", allocation = "equal", seed = 2)
  block <- map$omega[, map$part == 1]
  gram <- crossprod(block)
  expect_lt(max(abs(gram[upper.tri(gram)])), 1e-12)
})

test_that("asymmetric maps are reproducible across seeds, threads and saveRDS", {
  kernel <- cosh_gaussian_kernel(2, 0.5 * pi / 22)  # real_neg tabulated at d = 22
  x <- fixture_points(50, 22)
  map <- rff_map(kernel, 22, 40, seed = 9)
  expect_identical(map, rff_map(kernel, 22, 40, seed = 9))
  set.seed(4)
  a <- rff_map(kernel, 22, 40, decomposition = "phase")
  set.seed(4)
  expect_identical(a, rff_map(kernel, 22, 40, decomposition = "phase"))
  expect_identical(rff_kernel_matrix(map, x, n_threads = 1), rff_kernel_matrix(map, x, n_threads = 2))
  path <- tempfile(fileext = ".rds")
  saveRDS(map, path)
  expect_identical(rff_features(readRDS(path), x, "right"), rff_features(map, x, "right"))
  unlink(path)
  expect_output(print(map), "settings: decomposition = jordan")
})

test_that("estimate_total_masses keeps the constraint and recovers the masses at d = 16", {
  d <- 16
  kernel <- cosh_gaussian_kernel(2, 0.5 * pi / d)
  exact <- total_masses(rff_map(kernel, d, 2, seed = 1))
  estimates <- t(vapply(1:5, function(trial) {
    x <- fixture_points(50, d, seed = trial)
    estimated <- estimate_total_masses(rff_map(kernel, d, 3 * 1024, allocation = "equal", seed = trial), x)
    expect_false(any(estimated$parts$exact))
    total_masses(estimated)
  }, numeric(3)))
  expect_equal(estimates[, 1] - estimates[, 2], rep(1, 5), tolerance = 1e-10)
  expect_true(all(estimates >= 0))
  # One trial's estimates scatter by about 0.007 (2%), with an attenuation
  # bias of about 1% at M = 1024; 5% covers both.
  expect_equal(colMeans(estimates), exact, tolerance = 0.05)
  # A computation outside the package gave xi1 = 4.63 for this case, from
  # fitting K + k(0) B instead of K - k(0) B. The estimate of xi1 is close.
  expect_lt(abs(mean(estimates[, 1]) - exact[["real_pos"]]), 0.03)
})

# The estimator's solver works on the normal equations of min ||b - A xi||.
least_squares_masses <- function(A, b, constraint, target) {
  askrff:::active_set_least_squares(crossprod(A), drop(crossprod(A, b)), sum(b^2), constraint, target)
}

test_that("the printed sign of eq. 12 sends xi3 to zero; the corrected sign does not", {
  d <- 16
  kernel <- shift_gaussian_kernel(2, 2 / d)
  map <- rff_map(kernel, d, 3 * 1024, allocation = "equal", seed = 3)  # the paper's 1024 per part
  x <- fixture_points(50, d)
  K <- kernel_matrix(kernel, x)
  grams <- lapply(1:3, function(p) as.vector(askrff:::unit_mass_gram(map, p, x, x, 1L)))
  corrected <- cbind(grams[[1]], -grams[[2]], -2 * grams[[3]])
  printed <- cbind(grams[[1]], -grams[[2]], 2 * grams[[3]])
  k0 <- kernel_matrix(kernel, matrix(0, 1, d))[1, 1]
  xi_printed <- least_squares_masses(printed, as.vector(K), c(1, -1, 0), k0)
  xi_corrected <- least_squares_masses(corrected, as.vector(K), c(1, -1, 0), k0)
  expect_identical(xi_printed[3], 0)
  expect_equal(xi_corrected[3], 0.0976834882, tolerance = 0.05)
  expect_equal(total_masses(estimate_total_masses(map, x)), stats::setNames(xi_corrected, names(total_masses(map))))
})

test_that("the estimator fixes xi2 = 0 for the Sinh-Gaussian and fits one mass for the phase form", {
  d <- 8
  x <- fixture_points(40, d)
  sinh <- estimate_total_masses(rff_map(sinh_gaussian_kernel(2, 0.5 * pi / d), d, 1024, allocation = "equal", seed = 2), x)
  expect_named(total_masses(sinh), c("real_pos", "imag_pos"))
  expect_equal(total_masses(sinh)[["real_pos"]], 1, tolerance = 1e-12)
  expect_output(print(sinh), "(estimated)")
  phase <- rff_map(shift_gaussian_kernel(2, 2 / d), d, 512, decomposition = "phase", seed = 2)
  estimated <- total_masses(estimate_total_masses(phase, x))
  # The exact mass is 1; one fit on 40 points with 512 frequencies is within a few percent.
  expect_equal(estimated, c(abs = 1), tolerance = 0.05)
})

test_that("the active-set solver matches a brute-force grid search", {
  set.seed(12)
  A <- matrix(stats::rnorm(60), 20)
  b <- stats::rnorm(20)
  xi <- least_squares_masses(A, b, c(1, -1, 0), 0.5)
  objective <- function(v) sum((b - A %*% v)^2)
  grid <- expand.grid(x2 = seq(0, 3, by = 0.01), x3 = seq(0, 3, by = 0.01))
  values <- apply(grid, 1, function(g) objective(c(0.5 + g[1], g[1], g[2])))
  expect_lte(objective(xi), min(values) + 1e-12)
  expect_equal(xi[1] - xi[2], 0.5)
  unconstrained <- least_squares_masses(A, b, NULL, NA)
  expect_true(all(unconstrained >= 0))
})
