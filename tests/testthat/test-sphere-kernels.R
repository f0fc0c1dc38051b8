# Kernels on the sphere: closed forms, the unit-norm rule, the dot-product
# features with their full constants (twice the functions of Liu et al. 2021,
# remark (ii)), the Hankel radial density with the (2 pi)^(-d/2) the papers
# omit, and the LP measures with their bias bound (vignette "mathematics",
# "Arc-cosine kernels and the NTK", "The constant of the spectral densities",
# "An L1-minimal discrete measure").

sphere_points <- function(n, d, seed = 42) {
  set.seed(seed)
  normalize_rows(matrix(stats::rnorm(n * d), n, d))
}

# The closed forms in the distance z.
kappa0_z <- function(z) acos(z^2 / 2 - 1) / pi
kappa1_z <- function(z) (2 - z^2) / (2 * pi) * acos(z^2 / 2 - 1) + z * sqrt(4 - z^2) / (2 * pi)
ntk_z <- function(z) (2 - z^2) / pi * acos(z^2 / 2 - 1) + z * sqrt(4 - z^2) / (2 * pi)

pair_distances <- function(x, y) sqrt(pmax(outer(rowSums(x^2), rowSums(y^2), `+`) - 2 * x %*% t(y), 0))

test_that("kernel_matrix matches the closed forms in the distance", {
  x <- sphere_points(7, 4)
  y <- sphere_points(5, 4, seed = 3)
  z <- pair_distances(x, y)
  expect_equal(kernel_matrix(arccos_kernel(0), x, y), kappa0_z(z), tolerance = 1e-12)
  expect_equal(kernel_matrix(arccos_kernel(1), x, y), kappa1_z(z), tolerance = 1e-12)
  expect_equal(kernel_matrix(ntk_kernel(), x, y), ntk_z(z), tolerance = 1e-12)
  expect_equal(kernel_matrix(poly_sphere_kernel(3, 2), x, y), (1 - z^2 / 9)^2, tolerance = 1e-12)
  # The dot-product forms of Liu et al. (2021): u kappa_0(u) + kappa_1(u) with u = x'y.
  u <- x %*% t(y)
  expect_equal(kernel_matrix(ntk_kernel(), x, y),
               u * (1 - acos(u) / pi) + (u * (pi - acos(u)) + sqrt(1 - u^2)) / pi, tolerance = 1e-12)
  expect_equal(diag(kernel_matrix(ntk_kernel(), x)), rep(2, 7), tolerance = 1e-12)
})

test_that("sphere kernels reject rows off the unit sphere and point to normalize_rows()", {
  x <- sphere_points(4, 3)
  off <- x
  off[3, ] <- off[3, ] * 1.01
  for (kernel in list(poly_sphere_kernel(), arccos_kernel(0), arccos_kernel(1), ntk_kernel())) {
    expect_error(kernel_matrix(kernel, off), "`x` must have rows of unit norm.*row 3.*normalize_rows\\(x\\)")
    expect_error(kernel_matrix(kernel, x, off), "`y` must have rows of unit norm.*normalize_rows\\(y\\)")
  }
  map <- rff_map(arccos_kernel(1), 3, 10, seed = 1)
  expect_error(rff_features(map, off), "unit norm.*normalize_rows")
  expect_error(rff_kernel_matrix(map, x, off), "`y` must have rows of unit norm")
  expect_silent(kernel_matrix(gaussian_kernel(1), off))
})

test_that("dot-product features are sqrt(2/F) step, relu and the NTK blocks", {
  x <- sphere_points(6, 3)
  F <- 7
  for (kind in c("step", "relu", "ntk")) {
    kernel <- switch(kind, step = arccos_kernel(0), relu = arccos_kernel(1), ntk = ntk_kernel())
    map <- rff_map(kernel, 3, F, seed = 2)
    P <- x %*% map$omega
    step <- sqrt(2 / F) * (P >= 0)
    relu <- sqrt(2 / F) * pmax(P, 0)
    expected <- switch(kind, step = step, relu = relu,
                       ntk = cbind(relu, step * x[, 1], step * x[, 2], step * x[, 3]))
    L <- rff_features(map, x)
    expect_equal(L, expected, tolerance = 1e-14, ignore_attr = TRUE)
    expect_identical(rff_features(map, x, "right"), L)
    expect_equal(rff_kernel_matrix(map, x), L %*% t(L), tolerance = 1e-13)
  }
})

test_that("dot-product features are unbiased with the full constants, not Liu et al.'s halves", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  x <- sphere_points(6, 4)
  y <- sphere_points(4, 4, seed = 8)
  for (kernel in list(arccos_kernel(0), arccos_kernel(1), ntk_kernel())) {
    K <- kernel_matrix(kernel, x, y)
    for (method in c("iid", "orthogonal")) {
      z <- unbiasedness_z(K, function(r) rff_kernel_matrix(rff_map(kernel, 4, 8, method, seed = r), x, y), 300)
      expect_lt(max(abs(z)), 4.5, label = paste(kernel$name, kernel$params$order, method))
    }
    # The g-functions of Liu et al. (2021), remark (ii), estimate half the kernel: far off.
    z_half <- unbiasedness_z(K / 2, function(r) rff_kernel_matrix(rff_map(kernel, 4, 8, seed = r), x, y), 300)
    expect_gt(max(abs(z_half)), 10)
  }
})

# Sonine's closed form with the (2 pi)^(-d/2) the papers omit, as
# a radial density, by R's besselJ: independent of the package's Hankel recipe.
sonine_radial_density <- function(r, d, a, p) {
  mu <- 0
  for (i in 0:p) {
    nu <- d / 2 + i
    mu <- mu + factorial(p) / factorial(p - i) * (1 - 4 / a^2)^(p - i) * (2 / a^2)^i * (2 / r)^nu * besselJ(2 * r, nu)
  }
  2 * pi^(d / 2) / gamma(d / 2) * r^(d - 1) * (2 * pi)^(-d / 2) * mu
}

test_that("the Hankel radial density matches Sonine's closed form with the (2 pi)^(-d/2) factor", {
  r <- c(0.3, 1, 2.5, 5, 9.7, 20, 40)
  for (case in list(c(2, 1, 16), c(3, 1, 16), c(2, 1, 22), c(2, 3, 5), c(2, 1, 1))) {
    ours <- radial_density(poly_sphere_kernel(case[1], case[2]), case[3], r)
    # At the few radii near a zero of mu the relative error grows; 1e-8 covers them.
    expect_equal(ours, sonine_radial_density(r, case[3], case[1], case[2]), tolerance = 1e-8,
                 label = paste(case, collapse = " "))
  }
})

test_that("the Hankel radial density of the arc-cosine kernel matches a direct transform in d = 1", {
  # d = 1: the density of |w| is 2 mu(r), mu(r) = (1/pi) int_0^2 k(z) cos(r z) dz.
  for (r in c(0.2, 1.5, 4, 11)) {
    direct <- 2 / pi * stats::integrate(function(z) kappa0_z(z) * cos(r * z), 0, 2, rel.tol = 1e-12)$value
    expect_equal(radial_density(arccos_kernel(0), 1, r), direct, tolerance = 1e-8)
  }
})

test_that("LP masses match a finer grid's and shrink when the data lie in the nonnegative orthant", {
  skip_on_cran()
  # Reference masses from a separate solution of the linear program on a
  # finer grid (1201 x 801), outside the package; masses agree to 1%.
  expect_equal(sum(spectral_measure(poly_sphere_kernel(2, 1), 16)$parts$mass), 7.31, tolerance = 0.01)
  expect_equal(sum(spectral_measure(poly_sphere_kernel(3, 1), 16)$parts$mass), 2.43, tolerance = 0.01)
  expect_equal(sum(spectral_measure(poly_sphere_kernel(2, 1), 16, tolerance = 1e-3)$parts$mass), 5.55, tolerance = 0.01)
  expect_equal(sum(spectral_measure(poly_sphere_kernel(2, 1), 16, tolerance = 1e-3, z_max = sqrt(2))$parts$mass),
               1.98, tolerance = 0.01)
  expect_equal(sum(spectral_measure(arccos_kernel(1), 16, route = "stationary")$parts$mass), 22.2, tolerance = 0.01)
  ntk <- spectral_measure(ntk_kernel(), 16, route = "stationary", z_max = sqrt(2))
  expect_equal(sum(ntk$parts$mass), 4.42, tolerance = 0.01)
  # pos - neg = k_LP(0), within the tolerance of k(0).
  poly <- spectral_measure(poly_sphere_kernel(2, 1), 16)
  expect_lt(abs(poly$parts$mass[1] - poly$parts$mass[2] - 1), 1e-4 + 1e-12)
  expect_lt(abs(ntk$parts$mass[1] - ntk$parts$mass[2] - 2), 1e-3 + 1e-12)
})

# k_LP(z): the LP measure's kernel, atoms plus the cusp law exp(-z/pi).
lp_kernel <- function(measure, z) {
  d <- measure$d
  omega <- function(t) ifelse(t < 1e-8, 1, gamma(d / 2) * (2 / t)^(d / 2 - 1) * besselJ(t, d / 2 - 1))
  atoms <- vapply(z, function(zz) sum(measure$lp$weight * omega(measure$lp$radius * zz)), 0)
  cusp <- measure$kernel$name == "ntk" || identical(measure$kernel$params$order, 0)
  atoms + if (cusp) exp(-z / pi) else 0
}

test_that("the printed bias bound holds between the LP's grid points and is close to the tolerance", {
  cases <- list(list(poly_sphere_kernel(2, 1), kappa = function(z) 1 - z^2 / 4, list()),
                list(ntk_kernel(), kappa = ntk_z, list(route = "stationary")),
                list(arccos_kernel(0), kappa = kappa0_z, list(route = "stationary", z_max = sqrt(2))))
  set.seed(4)
  for (case in cases) {
    measure <- do.call(spectral_measure, c(list(case[[1]], 8), case[[3]]))
    z <- stats::runif(3000, 0, measure$lp$z_max)
    error <- abs(lp_kernel(measure, z) - case$kappa(z))
    expect_lte(max(error), measure$lp$bias_bound)
    expect_lt(measure$lp$bias_bound, 1.1 * measure$lp$tolerance)
    expect_output(print(measure), "bias at most [0-9.]+e-0[34] for \\|\\|x - y\\|\\| <= ")
  }
})

test_that("LP maps are unbiased for the LP kernel, so within the bias bound of k", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  # |mean of 300 maps - k| <= bias bound + 4.5 standard errors.
  x <- sphere_points(6, 5)
  y <- sphere_points(4, 5, seed = 6)
  cases <- list(list(poly_sphere_kernel(2, 1)), list(poly_sphere_kernel(3, 2)),
                list(ntk_kernel(), route = "stationary"), list(arccos_kernel(0), route = "stationary"))
  for (case in cases) {
    kernel <- case[[1]]
    settings <- case[-1]
    K <- kernel_matrix(kernel, x, y)
    bound <- do.call(spectral_measure, c(list(kernel, 5), settings))$lp$bias_bound
    for (method in c("iid", "orthogonal")) {
      draws <- vapply(1:300, function(r) {
        as.vector(rff_kernel_matrix(do.call(rff_map, c(list(kernel, 5, 16, method, seed = r), settings)), x, y))
      }, numeric(length(K)))
      se <- apply(draws, 1, stats::sd) / sqrt(300)
      expect_true(all(abs(rowMeans(draws) - as.vector(K)) <= bound + 4.5 * se),
                  label = paste(kernel$name, method))
    }
  }
})

test_that("LP parts are allocated to atoms systematically, with orthogonal directions per atom", {
  measure <- spectral_measure(poly_sphere_kernel(2, 1), 16)
  map <- rff_map(poly_sphere_kernel(2, 1), 16, 200, "orthogonal", allocation = "equal", seed = 3)  # 100 per part
  for (p in 1:2) {
    sign <- c(1, -1)[p]
    atoms <- measure$lp$weight * sign > 0
    expected <- 100 * abs(measure$lp$weight[atoms]) / sum(abs(measure$lp$weight[atoms]))
    omega <- map$omega[, map$part == p]
    radius <- sqrt(colSums(omega^2))
    counts <- vapply(measure$lp$radius[atoms], function(r) sum(abs(radius - r) < 1e-9), 0)
    expect_equal(sum(counts), 100)
    expect_true(all(counts >= floor(expected) & counts <= ceiling(expected)))
    # Directions of one atom, up to d of them, come from one Haar block.
    largest <- which.max(ifelse(measure$lp$radius[atoms] > 0, counts, 0))
    first <- which(abs(radius - measure$lp$radius[atoms][largest]) < 1e-9)[1:min(16, counts[largest])]
    u <- omega[, first, drop = FALSE] / rep(radius[first], each = 16)
    gram <- crossprod(u)
    expect_equal(gram, diag(ncol(u)), tolerance = 1e-12)
  }
})

test_that("orthogonal directions lower the LP estimator's error", {
  # A computation outside the package measured 0.25 (stratified) against 0.16
  # (stratified + orthogonal) at s = 256;
  # 20 maps each separate the means by many standard errors of the difference.
  x <- sphere_points(150, 16)
  K <- kernel_matrix(poly_sphere_kernel(2, 1), x)
  errors <- vapply(c("iid", "orthogonal"), function(method) {
    vapply(1:20, function(r) relative_error(K, rff_kernel_matrix(rff_map(poly_sphere_kernel(2, 1), 16, 128, method, seed = r), x)), 0)
  }, numeric(20))
  gain <- errors[, "iid"] - errors[, "orthogonal"]
  expect_gt(mean(gain), 4 * stats::sd(gain) / sqrt(20))
})

test_that("sphere kernel settings are checked", {
  expect_error(rff_map(ntk_kernel(), 4, 10, route = "stationary", z_max = 2), "`z_max` must be a single number in \\(0.001, 2\\)")
  expect_error(rff_map(poly_sphere_kernel(), 4, 10, z_max = 2.5), "`z_max` must be a single number in \\(0.001, 2\\]")
  expect_error(rff_map(poly_sphere_kernel(), 4, 10, tolerance = 0), "`tolerance` must be a single number in \\(1e-08, 0.5\\]")
  expect_error(rff_map(arccos_kernel(1), 4, 10, tolerance = 1e-3), "`tolerance` applies only to route = \"stationary\"")
  expect_error(rff_map(arccos_kernel(1), 4, 10, route = "exact"), "`route` must be one of \"dot_product\", \"stationary\"")
  expect_error(rff_map(poly_sphere_kernel(), 4, 10, route = "stationary"), "does not take: route")
})

test_that("measures and maps of the indefinite kernels print and plot", {
  poly <- spectral_measure(poly_sphere_kernel(2, 1), 6, z_max = sqrt(2))
  # the number of atoms depends on the optimal vertex the solver reaches, not on the measure's L1 norm
  expect_output(print(poly), "[0-9]+ atoms with radii in \\[[0-9.]+, [0-9.]+\\], fitted to tolerance 1e-04")
  expect_invisible(on_pdf_device(plot(poly)))
  expect_invisible(on_pdf_device(plot(spectral_measure(ntk_kernel(), 6, route = "stationary"))))
  expect_invisible(on_pdf_device(plot(spectral_measure(delta_gaussian_kernel(), 3))))
  map <- rff_map(poly_sphere_kernel(2, 1), 6, 12, z_max = sqrt(2), seed = 1)
  expect_output(print(map), "bias at most [0-9.]+e-04 for \\|\\|x - y\\|\\| <= 1.414")
  expect_output(print(rff_map(ntk_kernel(), 6, 12, seed = 1)), "84 features per side")
  expect_output(print(spectral_measure(arccos_kernel(0), 6)), "features: sqrt\\(2\\) step")
})

test_that("estimate_total_masses keeps pos - neg = k(0) for signed measures", {
  x <- fixture_points(40, 4) * 0.6
  map <- rff_map(delta_gaussian_kernel(), 4, 512, "orthogonal", allocation = "equal", seed = 2)
  estimated <- total_masses(estimate_total_masses(map, x))
  expect_equal(estimated[["pos"]] - estimated[["neg"]], 0, tolerance = 1e-10)
  expect_equal(unname(estimated), unname(total_masses(map)), tolerance = 0.1)
  s <- sphere_points(40, 4)
  poly <- rff_map(poly_sphere_kernel(2, 1), 4, 256, "orthogonal", seed = 2)
  estimated <- total_masses(estimate_total_masses(poly, s))
  expect_equal(estimated[["pos"]] - estimated[["neg"]], 1, tolerance = 1e-10)
})
