# Random periodic features (Schellekens and Jacques 2020): the maps and their
# coefficients, the semi-quantized estimator, the distorted kernel (vignette
# "mathematics", "The distorted kernel of one-bit products"), and packed
# features. What every periodic function of the registry must satisfy is
# checked, function by function, in test-periodic-conformance.R; the tests
# here are of particular functions and pairs, against closed forms.

# Spread-out points in d = 5, so kernel values cover (0, 1).
periodic_points <- function(n, seed) 3 * fixture_points(n, 5, seed = seed)

# The midpoints of n cells of one period.
period_grid <- function(n) (seq_len(n) - 0.5) * 2 * pi / n

# The b-bit quantizer of the cosine by its definition (rpf_quantizer()).
quantizer_in_r <- function(t, bits) {
  levels <- 2^bits
  cell <- pmin(floor((cos(t) + 1) * levels / 2), levels - 1)
  (2 * cell + 1 - levels) / (levels - 1)
}

test_that("the square wave has Schellekens and Jacques's coefficients 2/(k pi) (-1)^((k-1)/2)", {
  k <- -9:9
  expected <- ifelse(k %% 2 == 1, 2 / (abs(k) * pi) * (-1)^((abs(k) - 1) / 2), 0)
  expect_equal(rpf_coefficients("square", k), expected, tolerance = 1e-14)
  expect_equal(rpf_coefficients("cos", -2:2), c(0, 0.5, 0, 0.5, 0))
})

test_that("the quantizers are their definition, and inner products have their closed forms", {
  # the b-bit levels are the cells' own values, as in R, for every b
  # rpf_quantizer() takes (its coefficients and inner products against
  # quadrature are in test-periodic-conformance.R)
  t <- period_grid(1e5)
  for (bits in 1:8) {
    expect_equal(askrff:::.cpp_periodic_values(rpf_quantizer(bits)$name, t), quantizer_in_r(t, bits),
                 label = paste(bits, "bits"))
  }
  inner <- rpf_inner_product
  expect_equal(inner("square", "square"), 1)
  expect_equal(inner("square", "cos"), 2 / pi)
  expect_equal(inner("cos", "cos"), 0.5)
})

test_that("features of the cosine, the square wave and a quantizer are m^(-1/2) f(Omega'x + xi) by their definitions", {
  map <- rpf_map(gaussian_kernel(1.5), d = 5, n_features = 37, seed = 5)
  x <- periodic_points(9, 1)
  phase <- sweep(x %*% map$omega, 2, map$dither, "+")
  scale <- 1 / sqrt(37)
  expect_equal(rpf_features(map, x, "cos"), cos(phase) * scale, tolerance = 1e-14)
  expect_identical(rpf_features(map, x, "square"), ifelse(cos(phase) >= 0, scale, -scale))
  expect_equal(rpf_features(map, x, rpf_quantizer(3)), quantizer_in_r(phase, 3) * scale)
  expect_true(all(map$dither >= 0 & map$dither < 2 * pi))
  expect_equal(dim(map$omega), c(5, 37))
})

test_that("the semi-quantized product is unbiased for the Gaussian and Laplace kernels, both ways", {
  skip_on_cran()
  x <- periodic_points(4, 2)
  y <- periodic_points(5, 3)
  for (kernel in list(gaussian_kernel(1.5), laplace_kernel(1.5))) {
    K <- kernel_matrix(kernel, x, y)
    for (orientation in list(c("square", "cos"), c("cos", "square"))) {
      z <- unbiasedness_z(K, function(r) {
        rpf_kernel_matrix(rpf_map(kernel, 5, 16, seed = r), x, y, orientation[1], orientation[2])
      }, replicates = 400)
      expect_lt(max(abs(z)), 4.5, label = paste(kernel$name, orientation[1], orientation[2]))
    }
  }
})

test_that("the dithered cosine product 2 <z_cos, z_cos> is unbiased too", {
  x <- periodic_points(4, 2)
  y <- periodic_points(5, 3)
  kernel <- delta_gaussian_kernel(c(0.5, 1.5), c(1, 3))
  z <- unbiasedness_z(kernel_matrix(kernel, x, y), function(r) {
    rpf_kernel_matrix(rpf_map(kernel, 5, 16, seed = r), x, y, "cos", "cos")
  }, replicates = 400)
  expect_lt(max(abs(z)), 4.5)
})

test_that("per-feature variances are pi^2/8 - k^2 (semi-quantized) and 1 + k(2u)/2 - k^2 (cosines)", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  # At u = 0 and at a distance where the two variances cross over.
  # Over 2000 maps the sample variance has a relative standard error of about
  # sqrt(2 / 2000) * (kurtosis factor < 2) < 0.07; 0.15 is > 2 SE.
  kernel <- gaussian_kernel(1.5)
  x <- matrix(0, 1, 5)
  y <- rbind(0, c(2, 0, 0, 0, 0))
  m <- 8
  draws <- vapply(1:2000, function(r) {
    map <- rpf_map(kernel, 5, m, seed = r)
    c(rpf_kernel_matrix(map, x, y, "square", "cos"), rpf_kernel_matrix(map, x, y, "cos", "cos"))
  }, numeric(4))
  k <- exp(-c(0, 4) / (2 * 1.5^2))
  k2 <- exp(-c(0, 16) / (2 * 1.5^2))
  expect_equal(m * apply(draws[1:2, ], 1, var), pi^2 / 8 - k^2, tolerance = 0.15)
  expect_equal(m * apply(draws[3:4, ], 1, var), 1 + k2 / 2 - k^2, tolerance = 0.15)
})

test_that("two square waves concentrate on the distorted kernel, not on k", {
  kernel <- gaussian_kernel(1.5)
  x <- periodic_points(4, 2)
  y <- periodic_points(5, 3)
  distorted <- kernel_matrix(rpf_expected_kernel(kernel, "square", "square"), x, y)
  estimate <- function(r) rpf_kernel_matrix(rpf_map(kernel, 5, 16, seed = r), x, y, "square", "square")
  expect_lt(max(abs(unbiasedness_z(distorted, estimate, 400))), 4.5)
  expect_gt(max(abs(unbiasedness_z(kernel_matrix(kernel, x, y), estimate, 400))), 10)
})

test_that("b-bit quantizer pairs have the expected kernel Monte Carlo finds", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  x <- periodic_points(3, 4)
  y <- periodic_points(4, 5)
  pairs <- list(list(rpf_quantizer(2), rpf_quantizer(2)), list(rpf_quantizer(3), "square"),
                list(rpf_quantizer(2), "cos"))
  for (kernel in list(gaussian_kernel(1.5), laplace_kernel(2))) {
    for (pair in pairs) {
      expected <- kernel_matrix(rpf_expected_kernel(kernel, pair[[1]], pair[[2]]), x, y)
      z <- unbiasedness_z(expected, function(r) {
        rpf_kernel_matrix(rpf_map(kernel, 5, 16, seed = r), x, y, pair[[1]], pair[[2]])
      }, replicates = 400)
      expect_lt(max(abs(z)), 4.5, label = paste(kernel$name, pair[[1]]$name))
    }
  }
})

test_that("the distorted Gaussian kernel is 0.8307 at u/sigma = 1/3 and falls with slope 2 sqrt(2)/pi^1.5", {
  sigma <- 1.5
  k_qq <- rpf_expected_kernel(gaussian_kernel(sigma), "square", "square")
  origin <- matrix(0, 1, 3)
  at <- function(r) kernel_matrix(k_qq, cbind(r, 0, 0), origin)[, 1]
  expect_equal(at(sigma / 3), 0.830683637, tolerance = 1e-8)
  # Independent series in R, (8/pi^2) sum over odd k of exp(-k^2 r^2/(2 sigma^2)) / k^2.
  odd <- seq(1, 4e5, by = 2)
  series <- function(r) sum(8 / pi^2 * exp(-odd^2 * r^2 / (2 * sigma^2)) / odd^2)
  r <- c(1e-3, 0.05, 0.5, 1, 2, 5)
  expect_equal(at(r), vapply(r, series, 0), tolerance = 1e-6)
  # Near the origin the slope in u / sigma is 2 sqrt(2) / pi^(3/2) = 0.508;
  # Schellekens and Jacques (2020), eq. 16, print sqrt(2) / pi^(3/2) = 0.254, half of it.
  slope <- (1 - at(1e-3 * sigma)) / 1e-3
  expect_equal(slope, 2 * sqrt(2) / pi^1.5, tolerance = 2e-3)
  expect_gt(abs(slope - sqrt(2) / pi^1.5), 0.2)
  expect_identical(at(0), 1)
})

test_that("near the origin the expected Gaussian kernel of quantizer pairs is exact in closed form", {
  # Close points need about 6 sigma / ||u|| terms of the series; the core
  # switches to h(0) + slope E|T| there. Both against an independent R series
  # from rpf_coefficients() with 2e5 odd terms (enough for sd >= 1e-4).
  origin <- matrix(0, 1, 2)
  odd <- seq(1, 4e5, by = 2)
  for (pair in list(list(rpf_quantizer(2), rpf_quantizer(3)), list("square", rpf_quantizer(8)),
                    list(rpf_quantizer(8), rpf_quantizer(8)))) {
    weights <- 2 * rpf_coefficients(pair[[1]], odd) * rpf_coefficients(pair[[2]], odd) /
      rpf_inner_product(pair[[1]], pair[[2]])
    k_fg <- rpf_expected_kernel(gaussian_kernel(2), pair[[1]], pair[[2]])
    sd <- c(1e-4, 3e-4, 1e-3, 3e-3)
    series <- vapply(sd, function(s) sum(weights * exp(-odd^2 * s^2 / 2)), 0)
    expect_equal(kernel_matrix(k_fg, cbind(2 * sd, 0), origin)[, 1], series, tolerance = 2e-6)
  }
})

test_that("expected kernels: a cosine side gives k itself; Laplace has a closed-form series", {
  x <- periodic_points(6, 6)
  kernel <- laplace_kernel(1.5)
  expect_equal(kernel_matrix(rpf_expected_kernel(kernel, "square", "cos"), x), kernel_matrix(kernel, x),
               tolerance = 1e-14)
  expect_equal(kernel_matrix(rpf_expected_kernel(kernel, "cos", rpf_quantizer(4)), x), kernel_matrix(kernel, x),
               tolerance = 1e-14)
  # For L1 distance s: (8/pi^2) sum over odd k of exp(-k s / 1.5) / k^2.
  s <- as.vector(dist(x, method = "manhattan"))
  odd <- seq(1, 2e5, by = 2)
  series <- vapply(s, function(si) sum(8 / pi^2 * exp(-odd * si / 1.5) / odd^2), 0)
  K_qq <- kernel_matrix(rpf_expected_kernel(kernel, "square", "square"), x)
  expect_equal(K_qq[lower.tri(K_qq)], series, tolerance = 1e-6)
  expect_identical(diag(K_qq), rep(1, 6))
  # A mixture with positive weights keeps k(0) = sum of the weights
  mixture <- delta_gaussian_kernel(c(0.5, 1.5), c(1, 3))
  expect_equal(diag(kernel_matrix(rpf_expected_kernel(mixture, "square", "square"), x)), rep(2, 6))
})

# The expected kernel at distances r from the origin, with the series terms
# each value took (0 where a closed form near zero applies).
expected_at <- function(kernel, r) askrff:::.cpp_expected_kernel_at(askrff:::validate_kernel(kernel), r)

test_that("near the origin the expected Laplace kernel of step-function pairs is exact", {
  skip_on_cran()
  # Against the series from rpf_coefficients() with 5e5 odd terms: its
  # weights after K are below 0.81 / K in sum, so for L1 distances s >= 1e-5
  # its truncation error is below 0.81e-6 exp(-10) = 4e-11.
  odd <- seq(1, 999999, by = 2)
  s <- c(1e-5, 1e-4, 1e-3, 3e-3, 1e-2, 0.1, 1)
  for (pair in list(list("square", "square"), list(rpf_quantizer(2), rpf_quantizer(3)),
                    list("square", rpf_quantizer(8)), list(rpf_quantizer(8), rpf_quantizer(8)))) {
    weights <- 2 * rpf_coefficients(pair[[1]], odd) * rpf_coefficients(pair[[2]], odd) /
      rpf_inner_product(pair[[1]], pair[[2]])
    series <- vapply(s, function(si) sum(weights * exp(-odd * si / 1.5)), 0)
    kernel <- rpf_expected_kernel(laplace_kernel(1.5), pair[[1]], pair[[2]])
    # the stated tolerance is 1e-6 of k(0) = 1
    expect_lt(max(abs(expected_at(kernel, s)$value - series)), 1e-6)
  }
  # Closer still, two square waves against quadrature of E h(T) = 1 - (2 / pi) E|T|
  # over the wrapped Cauchy law of T (scale gamma = s / sigma), its density
  # written with cosh(gamma) - cos(t) = 2 sinh(gamma / 2)^2 + 2 sin(t / 2)^2.
  mean_abs <- function(gamma) {
    density <- function(t) sinh(gamma) / (4 * pi * (sinh(gamma / 2)^2 + sin(t / 2)^2))
    knots <- c(0, gamma * 10^(0:40)[gamma * 10^(0:40) < pi], pi)
    2 * sum(vapply(seq_len(length(knots) - 1L), function(i) {
      stats::integrate(function(t) t * density(t), knots[i], knots[i + 1L], rel.tol = 1e-12)$value
    }, 0))
  }
  gamma <- c(1e-150, 1e-40, 1e-12, 1e-7, 1e-3)
  kernel <- rpf_expected_kernel(laplace_kernel(1.5), "square", "square")
  expect_equal(expected_at(kernel, 1.5 * gamma)$value, 1 - 2 / pi * vapply(gamma, mean_abs, 0), tolerance = 1e-10)
  # and the Gram matrix of close points is these values
  x <- rbind(c(0, 0), c(1e-7, 2e-7), c(3e-7, 0))
  K <- kernel_matrix(kernel, x)
  expect_identical(diag(K), rep(1, 3))
  expect_equal(K[1, 2:3], 1 - 2 / pi * vapply(c(3e-7, 3e-7) / 1.5, mean_abs, 0), tolerance = 1e-10)
})

test_that("the expected kernel takes a bounded number of terms at every distance, for every family", {
  # Before, the series for L1 distances s summed about 14 sigma / s terms, up
  # to tail / tolerance = 8e5 (odd ones: 4e5) near the origin. Now the L1
  # family has a closed form for s / sigma up to about the correlation's
  # reach (7.8e-3 for 8-bit quantizers) and the series beyond it stops by
  # log(tail / tolerance) / 7.8e-3 = 1800 (900 odd terms); a Gaussian
  # component has one for 40 sd below the reach and stops by
  # 40 sqrt(2 log(tail / tolerance)) / reach = 27000 (13500 odd terms).
  r <- 10^seq(-300, 3, by = 0.25)
  pairs <- list(list("square", "square"), list(rpf_quantizer(2), rpf_quantizer(3)),
                list(rpf_quantizer(8), rpf_quantizer(8)))
  for (pair in pairs) {
    laplace <- expected_at(rpf_expected_kernel(laplace_kernel(1), pair[[1]], pair[[2]]), r)
    expect_true(all(is.finite(laplace$value)))
    expect_lte(max(laplace$terms), 900)
    gaussian <- expected_at(rpf_expected_kernel(gaussian_kernel(1), pair[[1]], pair[[2]]), r)
    expect_lte(max(gaussian$terms), 13500)
  }
  # Each component of a mixture stops on its own: the wide one at distances
  # where the narrow one needs its series does not run to the cap.
  mixture <- expected_at(rpf_expected_kernel(delta_gaussian_kernel(c(1, 1), c(1, 1e6)), "square", "square"), r)
  expect_lte(max(mixture$terms), 2 * 13500)
})

test_that("packed and unpacked square-wave features give identical products", {
  map <- rpf_map(gaussian_kernel(1.5), d = 5, n_features = 203, seed = 9)
  x <- periodic_points(70, 7)
  y <- periodic_points(90, 8)
  zx <- rpf_features(map, x, "square")
  zy <- rpf_features(map, y, "square")
  px <- rpf_pack(zx)
  py <- rpf_pack(zy)
  expect_identical(as.matrix(px), zx)
  expect_identical(dim(px$bits), c(26L, 70L))
  expect_identical(rpf_kernel_matrix(map, px, y), rpf_kernel_matrix(map, x, y))
  expect_identical(rpf_kernel_matrix(map, y, px, "cos", "square"), rpf_kernel_matrix(map, y, x, "cos", "square"))
  expect_identical(rpf_kernel_matrix(map, px, py, "square", "square"),
                   rpf_kernel_matrix(map, x, y, "square", "square"))
  expect_identical(rpf_kernel_matrix(map, px, y, "square", rpf_quantizer(3)),
                   rpf_kernel_matrix(map, x, y, "square", rpf_quantizer(3)))
  # and they are the products of the feature matrices, up to rounding
  expect_equal(rpf_kernel_matrix(map, px, y), pi / 2 * zx %*% t(rpf_features(map, y, "cos")), tolerance = 1e-13)
  expect_equal(rpf_kernel_matrix(map, px, py, "square", "square"), zx %*% t(zy), tolerance = 1e-13)
  # bit layout: feature f of a point is bit (f - 1) %% 8 of byte (f - 1) %/% 8 + 1
  bits <- as.integer(rawToBits(px$bits[, 1]))[1:203]
  expect_identical(bits == 1L, zx[1, ] > 0)
})

test_that("maps and products are reproducible across threads and saveRDS", {
  kernel <- laplace_kernel(1)
  map <- rpf_map(kernel, d = 5, n_features = 300, seed = 11)
  expect_identical(rpf_map(kernel, 5, 300, seed = 11), map)
  path <- tempfile(fileext = ".rds")
  saveRDS(map, path)
  x <- periodic_points(300, 12)
  for (pair in list(c("square", "cos"), c("square", "square"), c("cos", "square"), c("cos", "cos"))) {
    one <- rpf_kernel_matrix(map, x, left = pair[1], right = pair[2], n_threads = 1)
    expect_identical(rpf_kernel_matrix(readRDS(path), x, left = pair[1], right = pair[2], n_threads = 2), one)
  }
  expect_identical(rpf_features(map, x, "square", n_threads = 1), rpf_features(map, x, "square", n_threads = 2))
  set.seed(3)
  a <- rpf_map(kernel, 5, 10)
  set.seed(3)
  expect_identical(rpf_map(kernel, 5, 10), a)
})

test_that("row names carry over, and the objects print", {
  map <- rpf_map(gaussian_kernel(1), d = 2, n_features = 16, seed = 1)
  x <- matrix(1:6 / 6, 3, dimnames = list(c("a", "b", "c"), NULL))
  packed <- rpf_pack(rpf_features(map, x, "square"))
  K <- rpf_kernel_matrix(map, packed, x)
  expect_identical(dimnames(K), list(c("a", "b", "c"), c("a", "b", "c")))
  expect_output(print(map), "16 frequencies with dither")
  expect_output(print(packed), "3 points x 16 one-bit features")
  expect_output(print(rpf_quantizer(2)), "not binary, <f, f> = 0.703704")
  expect_output(print(rpf_expected_kernel(gaussian_kernel(1), "square", "square")),
                "expected square x square kernel of the Gaussian kernel")
})

test_that("quantizers are known by name, and the square wave is binary but finer quantizers are not", {
  expect_identical(rpf_quantizer(3)$name, "3-bit quantizer")
  expect_identical(rpf_quantizer(1)$name, "square")
  expect_equal(rpf_coefficients("3-bit quantizer", 1:5), rpf_coefficients(rpf_quantizer(3), 1:5))
  expect_true(rpf_quantizer(1)$binary)
  expect_false(rpf_quantizer(2)$binary)
  expect_output(print(rpf_quantizer(1)), "binary \\(\\+-1")
  expect_output(print(rpf_quantizer(2)), "not binary")
  expect_error(rpf_coefficients("9-bit quantizer", 1), class = "askrff_error", regexp = "`fun` must name a periodic function, not \"9-bit quantizer\"")
  expect_error(rpf_coefficients("2-bit quantizer ", 1), class = "askrff_error", regexp = "not \"2-bit quantizer \"")
  # an edited `binary` is never trusted: the core's answer is rebuilt from the name
  fake <- rpf_quantizer(2)
  fake$binary <- TRUE
  map <- rpf_map(gaussian_kernel(1), 5, 16, seed = 1)
  x <- periodic_points(4, 2)
  expect_error(rpf_kernel_matrix(map, rpf_pack(rpf_features(map, x, "square")), x, left = fake),
               class = "askrff_error", regexp = "binary side")
})
