# approximation_study(): its table, seeds and plans, the closed-form
# variances against simulation and against formulas written out here, and
# bad input.

test_that("a study has a row per method, size and trial, and its metrics are the definitions", {
  x <- fixture_points(25, 2)
  y <- fixture_points(10, 2, seed = 7)
  kernel <- gaussian_kernel(0.8)
  study <- approximation_study(kernel, x, y, n_features = c(20, 5), methods = c("iid", "nystrom"), trials = 3,
                               seed = 4)
  expect_s3_class(study, "askrff_study")
  expect_equal(nrow(study), 2 * 2 * 3)
  expect_true(all(c("method", "n_features", "trial", "n_columns", "frobenius", "spectral", "max_abs", "seconds") %in%
                    names(study)))
  expect_equal(levels(study$method), c("iid", "nystrom"))
  expect_equal(sort(unique(study$n_features)), c(5L, 20L))
  expect_equal(study$n_columns[study$method == "iid"], 2L * study$n_features[study$method == "iid"])
  expect_true(all(study$seconds >= 0))
  # the first row rebuilt by hand from its seed
  seeds <- askrff:::study_seeds(askrff:::resolve_seed(4), 3, 4)
  K <- kernel_matrix(kernel, x, y)
  K_hat <- rff_kernel_matrix(rff_map(kernel, 2, 5, seed = seeds[1, 1]), x, y)
  first <- study[study$method == "iid" & study$n_features == 5 & study$trial == 1, ]
  expect_equal(first$frobenius, norm(K - K_hat, "F") / norm(K, "F"), tolerance = 1e-12)
  expect_equal(first$spectral, max(svd(K - K_hat)$d) / max(svd(K)$d), tolerance = 1e-12)
  expect_equal(first$max_abs, max(abs(K - K_hat)), tolerance = 1e-12)
  expect_output(print(study), "2 methods|iid, nystrom")
  summary <- summary(study)
  expect_equal(nrow(summary$table), 4L)
  expect_true(all(c("frobenius_sd", "mean_error", "variance", "theory_variance") %in% names(summary$table)))
  expect_output(print(summary), "slope of log frobenius")
  text <- plotted_text(plot(study, "max_abs"))
  expect_true("largest absolute error" %in% text)
  expect_true(any(grepl("^iid \\(slope -?[0-9.]+\\)$", text)))
  # the axis labels are defaults a caller may replace
  relabelled <- plotted_text(plot(study, xlab = "s", ylab = "error", main = "mine"))
  expect_true(all(c("s", "error", "mine") %in% relabelled))
  expect_false("n_features" %in% relabelled)
  # theory beside experiment: the iid method's closed form is drawn, and a
  # study whose "pairs" were edited away gets a named error
  variance <- plotted_text(plot(study, "variance"))
  expect_true(all(c("variance of one entry (mean over pairs)", "iid", "nystrom", "closed form") %in% variance))
  edited <- study
  attr(edited, "pairs") <- NULL
  expect_error(plot(edited, "variance"), "attribute \"pairs\"", class = "askrff_error")
})

test_that("trial t's maps depend on the seed and t only, under any future plan", {
  x <- fixture_points(12, 2)
  run <- function(trials) {
    approximation_study(laplace_kernel(1), x, n_features = c(4, 8), methods = list(iid = "iid", rpf = "rpf"),
                        trials = trials, metrics = "frobenius", seed = 11)
  }
  three <- run(3)
  two <- run(2)
  columns <- c("method", "n_features", "trial", "frobenius")
  expect_equal(as.data.frame(three)[three$trial <= 2, columns], as.data.frame(two)[, columns], ignore_attr = TRUE)
  expect_identical(three$frobenius, run(3)$frobenius)
  skip_if_not_installed("future")
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  parallel <- run(3)
  expect_identical(parallel$frobenius, three$frobenius)
  expect_identical(attr(parallel, "pairs"), attr(three, "pairs"))
})

test_that("the closed-form variance is the formula for a positive definite kernel", {
  x <- fixture_points(12, 3)
  sigma <- 0.6
  study <- approximation_study(gaussian_kernel(sigma), x, n_features = 10, trials = 2, metrics = "max_abs", seed = 1)
  squared <- as.matrix(dist(x))^2
  k <- exp(-squared / (2 * sigma^2))
  k_2 <- exp(-4 * squared / (2 * sigma^2))
  # (k(0)^2 + k(0) k(2 delta) - 2 k(delta)^2) / (2 n), k(0) = 1
  expect_equal(attr(study, "pairs")$theory_variance, mean((1 + k_2 - 2 * k^2) / 20), tolerance = 1e-12)
  # no closed form: dependent frequencies, Nyström, an LP measure's strata
  none <- approximation_study(sinh_gaussian_kernel(0.6, c(0.3, 0, 0)), x, n_features = 10,
                              methods = list(orthogonal = "orthogonal", nystrom = "nystrom"),
                              trials = 2, metrics = "max_abs", seed = 1)
  expect_true(all(is.na(attr(none, "pairs")$theory_variance)))
  none <- approximation_study(radial_kernel(function(r) exp(-r^2 / 2)), x, n_features = 10,
                              methods = list(lp = list(route = "lp", z_max = 2)), trials = 2, metrics = "max_abs",
                              seed = 1)
  expect_true(all(is.na(attr(none, "pairs")$theory_variance)))
  # a closed form that cannot be formed is NA, never an error: every pair at
  # distance 0, distances that overflow, data wide against the kernel
  dog <- delta_gaussian_kernel(c(1, -0.8), c(0.4, 1.5))
  for (points in list(x[c(1, 1), ], x * 1e160, x * 30)) {
    variance <- attr(approximation_study(dog, points, n_features = 4, trials = 2, metrics = "max_abs", seed = 1),
                     "pairs")$theory_variance
    expect_true(is.na(variance) || variance >= 0)
  }
})

test_that("the closed-form variances are those the R implementation gave", {
  # fixtures/theory-variance.rds holds the variances of a panel of kernels
  # and allocations as computed in R before the characteristic functions
  # moved into the core (fixtures/theory-variance.R made it): the same
  # numbers, within rounding and the quadratures' interpolation
  source(test_path("fixtures", "theory-variance-cases.R"), local = TRUE)
  before <- readRDS(test_path("fixtures", "theory-variance.rds"))
  for (name in names(cases)) expect_equal(theory_of(cases[[name]]), before[[name]], tolerance = 1e-10, info = name)
})

test_that("each size takes its own shares under allocation = \"equal\"", {
  # three parts share 20 frequencies as 7, 7 and 6, but 60 as 20 each: the
  # variance at 60 is that of a study of 60 alone
  x <- fixture_points(6, 2)
  theory <- function(n) {
    study <- approximation_study(shift_gaussian_kernel(0.7, c(0.4, -0.2)), x, n_features = n,
                                 methods = list(equal = list(allocation = "equal")), trials = 2, metrics = "max_abs",
                                 seed = 1)
    attr(study, "pairs")$theory_variance
  }
  expect_equal(theory(c(20, 60))[2], theory(60), tolerance = 1e-12)
})

test_that("the count covariance of systematic allocation is that of the maps' counts", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  shares <- c(0.5, 0.3, 0.2) / 1
  a <- c(1.5, -2, 0.7)
  kernel <- gaussian_kernel(0.5) - 0.6 * gaussian_kernel(1) + 0.4 * gaussian_kernel(2)
  counts <- vapply(1:2000, function(s) tabulate(rff_map(kernel, 1, 7, seed = s)$part, 3), double(3))
  expect_equal(rff_map(kernel, 1, 7, seed = 1)$parts$share, shares / sum(shares), tolerance = 1e-12)
  law <- askrff:::.cpp_allocation_law(kernel, 1L, 7L, "mass")
  expect_equal(law$share, shares, tolerance = 1e-12)
  # every map has 7 frequencies, so the covariance's rows sum to 0
  expect_equal(rowSums(law$covariance), rep(0, 3), tolerance = 1e-12)
  combination <- colSums(counts * a)
  # the exact variance, and the sample variance of 2000 maps: its relative
  # standard error is about sqrt(2 / 2000) = 0.03 for a two-point law and less
  # for this one, so 0.15 is beyond 4 standard errors
  exact <- drop(a %*% law$covariance %*% a)
  expect_gt(exact, 0)
  expect_equal(stats::var(combination), exact, tolerance = 0.15)
  expect_equal(mean(combination), sum(7 * shares * a), tolerance = 0.02)
  # "equal" counts are fixed: 3, 2 and 2 of 7
  equal <- askrff:::.cpp_allocation_law(kernel, 1L, 7L, "equal")
  expect_equal(equal$share, c(3, 2, 2) / 7)
  expect_true(all(equal$covariance == 0))
})

# Each method's mean over pairs of the measured variance against the closed
# form's, as a ratio within `tolerance` of 1: expect_equal() compares
# numbers below its tolerance absolutely, and these variances are below 0.1,
# so a factor 2 would pass it.
expect_variances_agree <- function(pairs, tolerance) {
  ratio <- pairs$variance / pairs$theory_variance
  expect(isTRUE(all(abs(ratio - 1) < tolerance)),
         sprintf("measured over closed-form variance (%s): %s", paste(pairs$method, collapse = ", "),
                 paste(format(ratio, digits = 3), collapse = ", ")))
}

test_that("the closed-form variances match simulation, and the estimators are unbiased", {
  skip_on_cran()
  skip_statistics_under_sanitizers()
  x <- fixture_points(8, 2, seed = 3)
  trials <- 1500
  signed <- approximation_study(gaussian_kernel(0.5) - 0.6 * gaussian_kernel(1.2), x, n_features = 7,
                                methods = list(mass = list(), equal = list(allocation = "equal")),
                                trials = trials, metrics = "max_abs", seed = 5)
  periodic <- approximation_study(laplace_kernel(1), x, n_features = 10,
                                  methods = list(iid = "iid", square = "rpf",
                                                 cosines = list(type = "rpf", left = "cos", right = "cos")),
                                  trials = trials, metrics = "max_abs", seed = 6)
  pairs <- rbind(attr(signed, "pairs"), attr(periodic, "pairs"))
  expect_false(anyNA(pairs$theory_variance))
  # Each pair's sample variance over 1500 trials has a relative standard error
  # near sqrt(2 / 1499) = 0.037 (somewhat more for heavier tails); their mean
  # over pairs no more. 0.15 is about 4 standard errors, while a wrong term
  # (the count variance, a factor 2) moves the value by more.
  expect_variances_agree(pairs, 0.15)
  # Pairs share maps, so the bias is tested on the mean error over all pairs:
  # its variance across trials is at most the mean of the pairs' variances,
  # so the mean of `trials` of them has standard error at most
  # sqrt(variance / trials); 4.5 of those is the bound.
  expect_true(all(abs(pairs$mean_error) < 4.5 * sqrt(pairs$variance / trials)))
})

# The kernel as the core reads it in dimension d with the settings `...`.
prepared <- function(kernel, d, ...) {
  askrff:::kernel_with_settings(kernel, askrff:::resolve_kernel_settings(kernel, list(...)), d)
}

# Each part's moments T_p and S_p over the pairs of rows of x and y, as the
# closed-form variance takes them from the core.
part_moments <- function(kernel, d, x, y, ...) askrff:::.cpp_part_moments(prepared(kernel, d, ...), d, x, y, 1L)

test_that("the lifted laws' moments agree with quadrature of their densities", {
  # In d = 1 every part of the Shift-, Sinh- and Cosh-Gaussian is a law of
  # w = a'w / a, a > 0, whose density the core reports (spectral_measure()),
  # so T_p = c m int cos(w delta + phi(w) - theta) f(w) dw and S_p = c^2 m^2
  # (1 + int cos(2 (w delta + phi(w) - theta)) f(w) dw) / 2, by
  # stats::integrate() on the pieces where the profile h(a w) is smooth;
  # with the phase decomposition phi(w) is the phase of mu
  cases <- list(list(shift_gaussian_kernel(0.7, 0.21), 0.21), list(shift_gaussian_kernel(0.7, 0.7), 0.7),
                list(shift_gaussian_kernel(0.7, 1.75), 1.75), list(cosh_gaussian_kernel(0.8, -0.5), 0.32),
                list(sinh_gaussian_kernel(1, -0.3), 0.3), list(sinh_gaussian_kernel(0.5, -4), 1))
  for (case in cases) {
    kernel <- case[[1]]
    a <- case[[2]]
    s <- a / kernel$params$sigma
    delta <- c(-3.1, 0, 0.7, 5) * a
    amplitude <- if (kernel$name == "shift_gaussian") 1 else exp(s^2 / 2)
    for (decomposition in c("jordan", "phase")) {
      measure <- spectral_measure(kernel, 1, decomposition = decomposition)
      moments <- part_moments(kernel, 1, matrix(delta), matrix(0), decomposition = decomposition)
      phase <- function(w) {
        if (decomposition == "jordan") 0 else if (kernel$name == "sinh_gaussian") atan(amplitude * sin(a * w)) else a * w
      }
      for (p in seq_len(nrow(measure$parts))) {
        part <- measure$parts[p, ]
        density <- function(w) askrff:::.cpp_part_density(prepared(kernel, 1, decomposition = decomposition), 1L, p, w)
        breaks <- seq(-pi / 2 - 40 * pi, 40 * pi + pi / 2, by = pi / 2) / a
        breaks <- breaks[abs(breaks) < (12 * s + pi) / a]
        mean_cos <- function(z, j) {
          sum(vapply(seq_len(length(breaks) - 1L), function(i) {
            stats::integrate(function(w) cos(j * (w * z + phase(w) - part$right_phase)) * density(w), breaks[i],
                             breaks[i + 1L], rel.tol = 1e-11, abs.tol = 1e-14)$value
          }, double(1)))
        }
        scale <- part$coefficient * part$mass
        info <- sprintf("%s, %s, part %s", askrff:::kernel_label(kernel), decomposition, part$part)
        expect_equal(drop(moments$first[[p]]), scale * vapply(delta, mean_cos, double(1), j = 1), tolerance = 1e-8,
                     info = info)
        expect_equal(drop(moments$second[[p]]), scale^2 * (1 + vapply(delta, mean_cos, double(1), j = 2)) / 2,
                     tolerance = 1e-8, info = info)
      }
    }
  }
})

test_that("the Jordan parts' moments agree with quadrature of the radial density", {
  # In d = 3, Omega_3(t) = sin(t) / t, so m_+ E_+ cos(w'delta) is the
  # integral of the positive part of the radial density against
  # sin(r z) / (r z), z = ||delta||, split where the density changes sign
  kernel <- delta_gaussian_kernel(c(1, -1), c(1, 10))
  map <- rff_map(kernel, 4, d = 3, seed = 1)
  x <- rbind(c(0, 0, 0), c(0.3, -0.1, 0.2), c(1.2, 0.4, -0.9))
  y <- rbind(c(0, 0, 0), c(2.5, 0, 0.5))
  moments <- part_moments(kernel, 3, x, y)
  moments <- Map(function(t, s) list(T = t, S = s), moments$first, moments$second)
  density <- function(r) radial_density(kernel, 3, r)
  root <- stats::uniroot(density, c(0.1, 1), tol = 1e-14)$root
  part_integral <- function(z, sign, lower, upper) {
    stats::integrate(function(r) pmax(sign * density(r), 0) * (if (z == 0) 1 else sin(r * z) / (r * z)),
                     lower, upper, rel.tol = 1e-11, abs.tol = 1e-14)$value
  }
  z <- as.matrix(dist(rbind(x, y)))[1:3, 4:5]
  positive <- apply(z, 1:2, function(zz) part_integral(zz, 1, root, 60))
  negative <- apply(z, 1:2, function(zz) part_integral(zz, -1, 0, root))
  positive_2 <- apply(2 * z, 1:2, function(zz) part_integral(zz, 1, root, 60))
  mass <- map$parts$mass
  expect_equal(moments[[1]]$T, positive, tolerance = 1e-8, ignore_attr = TRUE)
  expect_equal(moments[[2]]$T, -negative, tolerance = 1e-8, ignore_attr = TRUE)
  expect_equal(moments[[1]]$S, (mass[1]^2 + mass[1] * positive_2) / 2, tolerance = 1e-8, ignore_attr = TRUE)
  # the parts add up to the kernel
  expect_equal(moments[[1]]$T + moments[[2]]$T, kernel_matrix(kernel, x, y), tolerance = 1e-8, ignore_attr = TRUE)
})

test_that("the squares of the quantizers have the Fourier coefficients of their definition", {
  # q_b(t) = Q_b(cos t), rounding [-1, 1] to 2^b equal cells with levels
  # (2j + 1 - 2^b) / (2^b - 1), written out here apart from the package; the
  # coefficients of q_b^2 by quadrature over each cell of t in [0, pi]
  for (bits in 2:3) {
    cells <- 2^bits
    q <- function(t) {
      j <- pmin(floor((cos(t) + 1) / 2 * cells), cells - 1)
      (2 * j + 1 - cells) / (cells - 1)
    }
    edges <- sort(acos(-1 + 2 * seq_len(cells - 1) / cells))
    pieces <- c(0, edges, pi)
    by_quadrature <- vapply(c(0, 2, 4, 6, 10), function(k) {
      sum(vapply(seq_len(length(pieces) - 1L), function(i) {
        stats::integrate(function(t) q(t)^2 * cos(k * t), pieces[i], pieces[i + 1L], rel.tol = 1e-12)$value
      }, double(1))) / pi
    }, double(1))
    coefficients <- askrff:::squared_coefficients(rpf_quantizer(bits), 5)$coefficients
    expect_equal(coefficients[c(1, 2, 3, 4, 6)], by_quadrature, tolerance = 1e-10)
  }
  # <q_2^2, q_3^2> from the step functions, against quadrature
  q2 <- askrff:::squared_coefficients(rpf_quantizer(2), 4)
  q3 <- askrff:::squared_coefficients(rpf_quantizer(3), 4)
  level <- function(bits, t) {
    cells <- 2^bits
    j <- pmin(floor((cos(t) + 1) / 2 * cells), cells - 1)
    ((2 * j + 1 - cells) / (cells - 1))^2
  }
  grid <- sort(unique(c(0, pi, acos(-1 + 2 * (1:3) / 4), acos(-1 + 2 * (1:7) / 8))))
  inner <- sum(vapply(seq_len(length(grid) - 1L), function(i) {
    stats::integrate(function(t) level(2, t) * level(3, t), grid[i], grid[i + 1L], rel.tol = 1e-12)$value
  }, double(1))) / pi
  expect_equal(q2$inner(q3), inner, tolerance = 1e-12)
})

test_that("the closed-form variances of multi-bit random periodic features match simulation", {
  skip_on_cran()
  skip_statistics_under_sanitizers()
  x <- fixture_points(8, 2, seed = 3)
  y <- rbind(fixture_points(5, 2, seed = 4), x[1, ])  # a pair at distance 0
  trials <- 1500
  studies <- list(
    approximation_study(gaussian_kernel(0.8), x, y, n_features = 9,
                        methods = list(q2_q3 = list(type = "rpf", left = rpf_quantizer(2), right = rpf_quantizer(3)),
                                       q2_cos = list(type = "rpf", left = rpf_quantizer(2), right = "cos")),
                        trials = trials, metrics = "max_abs", seed = 10),
    approximation_study(laplace_kernel(1), x, y, n_features = 9,
                        methods = list(q3_square = list(type = "rpf", left = rpf_quantizer(3), right = "square")),
                        trials = trials, metrics = "max_abs", seed = 11))
  pairs <- do.call(rbind, lapply(studies, attr, "pairs"))
  expect_false(anyNA(pairs$theory_variance))
  # 0.15 is about 4 standard errors of the mean over pairs of their sample
  # variances over 1500 trials, as above
  expect_variances_agree(pairs, 0.15)
})

test_that("the closed-form variances of complex measures match simulation", {
  skip_on_cran()
  skip_statistics_under_sanitizers()
  x <- fixture_points(8, 2, seed = 3)
  y <- fixture_points(6, 2, seed = 4)
  trials <- 1500
  studies <- list(
    approximation_study(shift_gaussian_kernel(0.7, c(0.4, -0.2)), x, y, n_features = 9,
                        methods = list(mass = list(), equal = list(allocation = "equal"),
                                       phase = list(decomposition = "phase")),
                        trials = trials, metrics = "max_abs", seed = 7),
    approximation_study(sinh_gaussian_kernel(1, 0.3), x, y, n_features = 9,
                        methods = list(mass = list(), phase = list(decomposition = "phase")),
                        trials = trials, metrics = "max_abs", seed = 8),
    approximation_study(cosh_gaussian_kernel(0.8, c(0.5, 0.1)), x, y, n_features = 9,
                        methods = list(mass = list(), phase = list(decomposition = "phase")),
                        trials = trials, metrics = "max_abs", seed = 9))
  pairs <- do.call(rbind, lapply(studies, attr, "pairs"))
  expect_false(anyNA(pairs$theory_variance))
  # as above: 0.15 is about 4 standard errors of the mean over pairs of
  # their sample variances over 1500 trials; leaving out the imaginary part's
  # phase (sin^2 for cos^2) moves the value by far more
  expect_variances_agree(pairs, 0.15)
})

test_that("the closed-form variances of Jordan parts, products and sums match simulation", {
  skip_on_cran()
  skip_statistics_under_sanitizers()
  x <- fixture_points(8, 2, seed = 3)
  y <- fixture_points(6, 2, seed = 4)
  trials <- 1500
  run <- function(kernel, y, seed, methods = list(mass = list())) {
    attr(approximation_study(kernel, x, y, n_features = 9, methods = methods, trials = trials,
                             metrics = "max_abs", seed = seed), "pairs")
  }
  pairs <- rbind(
    run(delta_gaussian_kernel(c(1, -0.8), c(0.4, 1.5)), x, 11,
        list(jordan = list(), components = list(decomposition = "components"))),
    run(radial_kernel(function(r) exp(-r^2 / 2) * (1 - r^2 / 4)), x, 12),
    run(gaussian_kernel(0.5) * laplace_kernel(1) - 0.5 * gaussian_kernel(1.5), x, 13),
    run(shift_gaussian_kernel(0.7, c(0.4, -0.2)) + 0.5 * gaussian_kernel(0.4), y, 14),
    # two asymmetric factors: sum and difference frequencies
    run(shift_gaussian_kernel(1, 0.3) * cosh_gaussian_kernel(1.5, c(0.2, -0.1)), y, 15),
    run((gaussian_kernel(1) + laplace_kernel(2)) * sinh_gaussian_kernel(1, 0.3), y, 16),
    # factors whose laws are known by quadrature (Jordan parts, a table), and
    # an LP measure's atoms, drawn independently in a product
    run(delta_gaussian_kernel(c(1, -0.8), c(0.4, 1.5)) * gaussian_kernel(1), y, 17),
    run(radial_kernel(function(r) exp(-r^2 / 2) * (1 - r^2 / 4)) * matern_kernel(1.5, 2.5), y, 18),
    run(with_settings(radial_kernel(function(r) exp(-r^2 / 2) * (1 - r^2 / 4)), route = "lp", z_max = 2) *
          gaussian_kernel(1), y, 19))
  expect_false(anyNA(pairs$theory_variance))
  # as above: 0.15 is about 4 standard errors of the mean over pairs of
  # their sample variances over 1500 trials
  expect_variances_agree(pairs, 0.15)
})

test_that("bad studies give named errors", {
  x <- fixture_points(6, 2)
  k <- gaussian_kernel(1)
  expect_error(approximation_study(k, x, n_features = c(4, 4)), "`n_features` must hold distinct", class = "askrff_error")
  expect_error(approximation_study(k, x, n_features = 0), "`n_features`", class = "askrff_error")
  expect_error(approximation_study(k, x, n_features = 4, trials = 0), "`trials`", class = "askrff_error")
  expect_error(approximation_study(k, x, n_features = 4, metrics = "l1"), "`metrics` must hold", class = "askrff_error")
  expect_error(approximation_study(k, x, n_features = 4, methods = "unknown"), "`methods\\[\\[1\\]\\]` must be one of",
               class = "askrff_error")
  expect_error(approximation_study(k, x, n_features = 4, methods = list(list(method = "iid"))),
               "`methods` must name it", class = "askrff_error")
  expect_error(approximation_study(k, x, n_features = 4, methods = list(a = list(type = "svm"))),
               "`methods\\$a\\$type`", class = "askrff_error")
  expect_error(approximation_study(k, x, n_features = 4, methods = list(a = list(type = "nystrom", seed = 1))),
               "`methods\\$a` has arguments nystrom is not given: `seed`", class = "askrff_error")
  expect_error(approximation_study(k, x, n_features = 4, methods = list(a = list(decomposition = "phase"))),
               "`methods\\$a` is not valid: .*decomposition", class = "askrff_error")
  expect_error(approximation_study(k, x, n_features = 7, methods = "nystrom"), "`methods\\$nystrom` failed.*at most the 6",
               class = "askrff_error")
  # a method failing only at some sizes leaves NA rows with its message, and a warning
  expect_warning(partial <- approximation_study(k, x, n_features = c(3, 7), methods = c("iid", "nystrom"), trials = 2,
                                                seed = 1),
                 "`methods\\$nystrom` failed at n_features = 7.*in 2 of 2 trials", class = "askrff_warning")
  failed <- partial$method == "nystrom" & partial$n_features == 7
  expect_equal(sum(failed), 2)
  expect_true(all(is.na(partial[failed, c("frobenius", "spectral", "max_abs", "seconds", "n_columns")])))
  expect_match(partial$error[failed], "at most the 6 distinct rows")
  expect_true(all(is.na(partial$error[!failed])) && all(is.finite(partial$frobenius[!failed])))
  expect_equal(nrow(summary(partial)$table), 3)
  expect_output(print(partial), "failed, see `error`")
  expect_identical(on_pdf_device(plot(partial)), partial)
  expect_error(approximation_study(k, x, n_features = 4, methods = c("iid", "iid")), "distinct names",
               class = "askrff_error")
  study <- approximation_study(k, x, n_features = 4, trials = 2, seed = 1)
  bad <- study
  bad$frobenius[1] <- NA
  expect_error(summary(bad), "`object\\$frobenius` must hold finite", class = "askrff_error")
  expect_error(plot(study, "l1"), "`metric` must be one of", class = "askrff_error")
  expect_error(summary(as.data.frame(study)[, 1:2]), NA)
})

test_that("custom methods draw their own maps and, if they like, their own Gram matrices", {
  x <- fixture_points(15, 3)
  kernel <- delta_gaussian_kernel(c(1, -1), c(1, 3))
  custom <- list(draw = function(n_features, seed) rff_map(kernel, 3, n_features, seed = seed), type = "custom")
  # the left features alone estimate the kernel of |mu|, not k: a baseline
  # whose error cannot fall below that gap
  baseline <- list(type = "custom", draw = custom$draw, gram = function(map, x, y) {
    tcrossprod(rff_features(map, x), rff_features(map, y))
  })
  study <- approximation_study(kernel, x, n_features = c(8, 512), methods = list(iid = "iid", same = custom,
                                                                                   abs = baseline),
                               trials = 2, metrics = "frobenius", seed = 3)
  # its second trial at 8 features rebuilt from its seed (configuration 3:
  # the second method's first size)
  K <- kernel_matrix(kernel, x)
  seeds <- askrff:::study_seeds(askrff:::resolve_seed(3), 2, 6)
  K_hat <- rff_kernel_matrix(rff_map(kernel, 3, 8, seed = seeds[3, 2]), x)
  row <- study$method == "same" & study$n_features == 8 & study$trial == 2
  expect_equal(study$frobenius[row], norm(K - K_hat, "F") / norm(K, "F"), tolerance = 1e-12)
  expect_equal(study$n_columns[study$method == "same"], study$n_columns[study$method == "iid"])
  # split per term, |mu| is the sum of the two Gaussians' measures: the
  # baseline converges to their kernel, not to K
  K_abs <- kernel_matrix(gaussian_kernel(1), x) + kernel_matrix(gaussian_kernel(3), x)
  gap <- norm(K_abs - K, "F") / norm(K, "F")
  at_512 <- mean(study$frobenius[study$method == "abs" & study$n_features == 512])
  expect_gt(at_512, 0.5 * gap)
  expect_true(is.na(attr(study, "pairs")$theory_variance[attr(study, "pairs")$method == "same"][1]))
  k <- gaussian_kernel(1)
  expect_error(approximation_study(k, x, n_features = 4, methods = list(a = list(type = "custom"))),
               "`methods\\$a` is custom, so its `draw` must be a function", class = "askrff_error")
  expect_error(approximation_study(k, x, n_features = 4,
                                   methods = list(a = list(type = "custom", draw = function(n, s) stop("no map")))),
               "`methods\\$a` failed at n_features = 4: its `draw` failed: no map", class = "askrff_error")
  expect_error(approximation_study(k, x, n_features = 4,
                                   methods = list(a = list(type = "custom", draw = function(n, s) list()))),
               "`methods\\$a` failed.*`map` must be", class = "askrff_error")
  expect_error(approximation_study(k, x, n_features = 4,
                                   methods = list(a = list(type = "custom", draw = function(n, s) rff_map(k, 3, n),
                                                           gram = function(map, x, y) matrix(NaN, 2, 2)))),
               "must be a finite numeric 15 x 15 matrix", class = "askrff_error")
})

test_that("per_pair keeps each pair's mean and variance, whose means over pairs are the summaries", {
  x <- fixture_points(5, 2)
  y <- fixture_points(4, 2, seed = 3)
  rownames(x) <- letters[1:5]
  study <- approximation_study(gaussian_kernel(1), x, y, n_features = c(4, 16), methods = c("iid", "orthogonal"),
                               trials = 40, metrics = "max_abs", seed = 5, per_pair = TRUE)
  means <- attr(study, "pair_mean")
  variances <- attr(study, "pair_variance")
  expect_equal(dim(variances), c(5L, 4L, 2L, 2L))
  expect_equal(dimnames(variances)[[1]], letters[1:5])
  expect_equal(dimnames(variances)[3:4], list(c("4", "16"), c("iid", "orthogonal")))
  pairs <- attr(study, "pairs")
  K <- kernel_matrix(gaussian_kernel(1), x, y)
  for (i in seq_len(nrow(pairs))) {
    n <- as.character(pairs$n_features[i])
    method <- as.character(pairs$method[i])
    expect_equal(mean(variances[, , n, method]), pairs$variance[i], tolerance = 1e-12)
    expect_equal(mean(means[, , n, method] - K), pairs$mean_error[i], tolerance = 1e-12)
  }
  # i.i.d. at 16 frequencies: each pair's variance is its closed form within
  # about 5 standard errors of a 40-trial sample variance (sqrt(2 / 39))
  theory <- (1 + kernel_matrix(gaussian_kernel(1), 2 * x, 2 * y) - 2 * K^2) / (2 * 16)
  expect_true(all(abs(variances[, , "16", "iid"] / theory - 1) < 5 * sqrt(2 / 39)))
  expect_null(attr(approximation_study(gaussian_kernel(1), x, y, n_features = 4, trials = 2, seed = 1), "pair_mean"))
  expect_error(approximation_study(gaussian_kernel(1), x, n_features = 4, per_pair = NA), "`per_pair` must be TRUE or FALSE",
               class = "askrff_error")
})

test_that("custom methods take a map of every kind, whose kernel matrix is rff_kernel_matrix()'s", {
  x <- fixture_points(12, 3)
  kernel <- gaussian_kernel(1)
  draws <- list(periodic = function(n, seed) rpf_map(kernel, 3, n, seed = seed),
                nystrom = function(n, seed) nystrom_map(kernel, nystrom_landmarks(x, n, seed = seed)))
  methods <- lapply(draws, function(draw) list(type = "custom", draw = draw))
  study <- approximation_study(kernel, x, n_features = 6, methods = methods, trials = 2, metrics = "frobenius", seed = 4)
  seeds <- askrff:::study_seeds(askrff:::resolve_seed(4), 2, 2)
  K <- kernel_matrix(kernel, x)
  for (m in seq_along(draws)) {
    # trial 2's map of method m rebuilt from its seed
    K_hat <- rff_kernel_matrix(draws[[m]](6, seeds[m, 2]), x)
    row <- study$method == names(draws)[m] & study$trial == 2
    expect_equal(study$frobenius[row], norm(K - K_hat, "F") / norm(K, "F"), tolerance = 1e-12)
  }
  # the periodic map's estimate is rpf_kernel_matrix()'s default, the square wave against the cosine
  expect_identical(rff_kernel_matrix(draws$periodic(6, 1), x), rpf_kernel_matrix(draws$periodic(6, 1), x))
  expect_equal(study$n_columns[study$method == "nystrom"], c(6, 6))
})
