# Conformance of every periodic function of the core's registry
# (askrff:::periodic_functions(), src/core/periodic/periodic_functions.cpp)
# to the contract in src/core/periodic/periodic_function.h. Each check loops
# over the registry and names the function that fails it, so a new function
# is checked without being named here. The checks read the functions
# through their values (.cpp_periodic_values()), independently of the
# closed forms they test.

functions <- askrff:::periodic_functions()
traits_of <- function(name) askrff:::core(askrff:::.cpp_periodic_function(name))
values_of <- function(name, t) askrff:::.cpp_periodic_values(name, t)

# Midpoints of n cells of one period, n even so that t + pi is on the grid.
# The midpoint rule errs on a cell where f jumps by J by at most J h / (2 pi)
# times max |cos(k t)| = 1, with h = 2 pi / n: in all at most V / n for a
# function of total variation V; on the smooth cells far less.
n <- 2^18
grid <- (seq_len(n) - 0.5) * 2 * pi / n

# Each function's traits and values on the grid, once; for one whose
# traits cannot be read, the error, which the first test reports.
facts <- lapply(stats::setNames(functions, functions), function(name) {
  tryCatch({
    traits <- traits_of(name)
    list(traits = traits, values = values_of(name, grid), variation = traits$variation)
  }, error = function(e) list(error = conditionMessage(e)))
})

# Runs check(name) for every function of the registry whose traits could
# be read (all of them with `all`). An error in one fails the test naming
# the function (naming_errors(), helper-kernel-examples.R), and the other
# functions are still checked.
for_each_function <- function(check, all = FALSE) {
  for (name in functions) {
    if (all || is.null(facts[[name]]$error)) naming_errors(name, check(name))
  }
}

test_that("the registry names each function once, and R makes, prints and saves each by its name", {
  expect_gt(length(functions), 0L)
  expect(!anyDuplicated(functions) && all(nzchar(functions)), "the registry's names are not distinct and nonempty")
  saved <- tempfile(fileext = ".rds")
  on.exit(unlink(saved))
  for_each_function(all = TRUE, check = function(name) {
    expect(is.null(facts[[name]]$error), sprintf("the traits of %s cannot be read: %s", name, facts[[name]]$error))
    fun <- askrff:::as_periodic_function(name, "fun")
    expect(inherits(fun, "rpf_function") && identical(fun$name, name), sprintf("%s is not made by its name", name))
    expect_identical(fun$binary, facts[[name]]$traits$binary, label = paste(name, "binary"))
    expect_output(print(fun), name, fixed = TRUE)
    saveRDS(fun, saved)
    expect_identical(askrff:::as_periodic_function(readRDS(saved), "fun"), fun, label = name)
  })
  # a name outside the registry is refused, with the registry's names
  message <- tryCatch(rpf_coefficients("not a periodic function", 1), askrff_error = conditionMessage)
  for (name in functions) {
    expect(grepl(sprintf('"%s"', name), message, fixed = TRUE),
           sprintf("the refusal of an unknown name does not list \"%s\": %s", name, message))
  }
})

test_that("every function is even, bounded by one, centred and odd about pi / 2", {
  half <- n / 2
  for_each_function(function(name) {
    f <- facts[[name]]$values
    expect(identical(values_of(name, -grid), f), sprintf("%s is not even: f(-t) != f(t)", name))
    ends <- values_of(name, c(0, pi, 2 * pi))
    expect(all(is.finite(f)) && max(abs(c(f, ends))) <= 1, sprintf("%s is not bounded by one", name))
    # F_0 by the midpoint rule, within V / n (above) and rounding
    mean_value <- mean(f)
    expect(abs(mean_value) <= 2 * facts[[name]]$variation / n + 1e-14,
           sprintf("%s is not centred: F_0 = %.3g by quadrature", name, mean_value))
    # f(t + pi) = -f(t): t + pi is the grid point half a period on
    shifted <- max(abs(f[c((half + 1):n, 1:half)] + f))
    expect(shifted <= 1e-9, sprintf("%s is not odd about pi / 2: max |f(t + pi) + f(t)| = %.3g", name, shifted))
    # so its even harmonics are 0, as the expected kernel's series and the
    # study's closed form take them, in the table and one by one
    even <- 2 * seq_len(500)
    even_values <- c(rpf_coefficients(name, even), askrff:::.cpp_periodic_coefficient(name, even))
    expect(max(abs(even_values)) <= 1e-15,
           sprintf("%s has even harmonics: max |F_2j| = %.3g", name, max(abs(even_values))))
  })
})

test_that("every function's coefficients agree with quadrature of its values, and one by one with the table", {
  skip_on_cran()
  k <- 1:15
  cosines <- cos(outer(grid, k))
  for_each_function(function(name) {
    by_quadrature <- drop(crossprod(cosines, facts[[name]]$values)) / n
    error <- max(abs(rpf_coefficients(name, k) - by_quadrature))
    expect(error <= 2 * facts[[name]]$variation / n + 1e-12,
           sprintf("%s: F_1..F_15 differ from quadrature by %.3g", name, error))
    # coefficient(k), which the expected kernel uses past its table of
    # 2^16, against coefficients(k_max): the recurrence's rounding is below
    # 1e-9 up to k = 1e6
    at <- c(1:300, 65530:65545, 1e5 + 1, 199999)
    table <- rpf_coefficients(name, at)
    one_by_one <- askrff:::.cpp_periodic_coefficient(name, at)
    expect(max(abs(table - one_by_one)) <= 1e-9,
           sprintf("%s: coefficient(k) and coefficients(k_max) differ by %.3g", name, max(abs(table - one_by_one))))
    # the bound the expected kernel's tail takes from variation()
    k_long <- seq_len(1e4)
    excess <- max(abs(rpf_coefficients(name, k_long)) * 2 * pi * k_long) - facts[[name]]$variation
    expect(excess <= 1e-9, sprintf("%s: |F_k| exceeds variation() / (2 pi k)", name))
  })
})

test_that("every function has finitely many harmonics or is a step function, and its variation bounds its own", {
  for_each_function(function(name) {
    traits <- facts[[name]]$traits
    f <- facts[[name]]$values
    steps <- abs(diff(c(f, f[1L])))
    # variation() is at least the total variation, which bounds the grid's
    expect(sum(steps) <= traits$variation + 1e-12,
           sprintf("%s: variation() = %g is below the total variation on a grid, %g", name, traits$variation,
                   sum(steps)))
    jumps <- traits$cosine_jumps
    if (traits$last_harmonic > 0) {
      last <- traits$last_harmonic
      F <- rpf_coefficients(name, seq_len(last + 1000))
      expect(F[last] != 0 && all(F[-seq_len(last)] == 0),
             sprintf("%s: last_harmonic() = %d, but F_%d = 0 or a later F_k is not", name, last, last))
      expect(length(jumps) == 0L, sprintf("%s has finitely many harmonics and reports jumps", name))
      # continuous: no step of the grid beyond |f'| h <= 2 sum k |F_k| h
      slope <- 2 * sum(seq_len(last) * abs(F[seq_len(last)]))
      expect(max(steps) <= slope * 2 * pi / n * (1 + 1e-9) + 1e-12, sprintf("%s jumps, but reports no jumps", name))
      return()
    }
    expect(length(jumps) > 0L,
           sprintf("%s has infinitely many harmonics (last_harmonic() = 0) but no jumps: inner products, the expected kernel near zero and the study's closed form need a finite series or a step function",
                   name))
    if (length(jumps) == 0L) return()
    expect(!is.unsorted(jumps, strictly = TRUE) && all(jumps > -1 & jumps < 1),
           sprintf("%s: cosine_jumps() are not sorted inside (-1, 1)", name))
    # constant on each cell of c between jumps at its reported level, and
    # jumping at each jump
    c <- cos(grid[grid < pi])
    edges <- c(-1, jumps, 1)
    cell <- findInterval(c, edges, all.inside = TRUE)
    inside <- pmin(abs(c - edges[cell]), abs(c - edges[cell + 1L])) > 1e-9
    levels <- traits$levels
    expect(length(levels) == length(jumps) + 1L && all(f[seq_along(c)][inside] == levels[cell][inside]),
           sprintf("%s is not constant at its levels between its jumps", name))
    expect(all(diff(levels) != 0), sprintf("%s: a reported jump has the same level on both sides", name))
    # the total variation is 2 sum |jumps| (each c in (-1, 1) is hit twice)
    expect(2 * sum(abs(diff(levels))) <= traits$variation + 1e-12,
           sprintf("%s: variation() is below its jumps' total", name))
    # correlation_near_zero() reads the levels 1e-7 either side of a jump
    at <- sort(c(acos(jumps), 2 * pi - acos(jumps)))
    gaps <- diff(c(at, at[1L] + 2 * pi))
    expect(min(gaps) >= 1e-5, sprintf("%s: two jumps are %.3g apart in t, closer than 1e-5", name, min(gaps)))
  })
})

test_that("inner products are the identities the code uses, and positive for every pair", {
  skip_on_cran()
  for_each_function(function(name) {
    traits <- facts[[name]]$traits
    inner <- rpf_inner_product(name, name)
    expect_identical(traits$norm, inner, label = paste(name, "<f, f>"))
    expect_identical(traits$first, rpf_coefficients(name, 1), label = paste(name, "F_1"))
    # Parseval, as the expected kernel's weights 2 F_k^2 / <f, f> add up to
    # one: exactly with finitely many harmonics, else up to a tail below
    # 2 sum_{k > K} (V / (2 pi k))^2 <= 2 (V / 2 pi)^2 / K
    K <- if (traits$last_harmonic > 0) traits$last_harmonic else 2e5
    gap <- inner - 2 * sum(rpf_coefficients(name, seq_len(K))^2)
    bound <- if (traits$last_harmonic > 0) 1e-15 else 2 * (traits$variation / (2 * pi))^2 / K
    expect(gap >= -1e-14 && gap <= bound + 1e-14,
           sprintf("%s: <f, f> - 2 sum_{k <= %d} F_k^2 = %.3g, outside [0, %.3g]", name, K, gap, bound))
    for (other in functions) {
      pair <- rpf_inner_product(name, other)
      label <- sprintf("<%s, %s>", name, other)
      expect(pair > 0, sprintf("%s = %g is not positive: estimators divide by it", label, pair))
      expect(pair == rpf_inner_product(other, name), sprintf("%s is not symmetric", label))
      # against quadrature: f g varies by at most V_f + V_g
      by_quadrature <- mean(facts[[name]]$values * facts[[other]]$values)
      tolerance <- 2 * (traits$variation + facts[[other]]$variation) / n + 1e-12
      expect(abs(pair - by_quadrature) <= tolerance,
             sprintf("%s = %.10g, quadrature %.10g", label, pair, by_quadrature))
    }
  })
})

test_that("binary functions take the values +1 and -1 alone, and their packed features give the same products", {
  map <- rpf_map(gaussian_kernel(1.5), 3, 37, seed = 2)
  x <- 2 * fixture_points(6, 3, seed = 1)
  y <- 2 * fixture_points(5, 3, seed = 2)
  square <- rpf_pack(rpf_features(map, x, "square"))
  for_each_function(function(name) {
    if (facts[[name]]$traits$binary) {
      expect(all(facts[[name]]$values %in% c(-1, 1)), sprintf("%s is binary but takes values other than +-1", name))
      packed <- rpf_pack(rpf_features(map, x, name))
      expect(identical(rpf_kernel_matrix(map, packed, y, left = name), rpf_kernel_matrix(map, x, y, left = name)),
             sprintf("%s: packed features give another product", name))
    } else {
      expect_error(rpf_kernel_matrix(map, square, y, left = name), "binary", class = "askrff_error", label = name)
    }
  })
})

test_that("every function's features are m^(-1/2) f(Omega'x + xi)", {
  map <- rpf_map(laplace_kernel(1), 4, 29, seed = 3)
  x <- 3 * fixture_points(7, 4, seed = 5)
  phase <- sweep(x %*% map$omega, 2, map$dither, "+")
  for_each_function(function(name) {
    expected <- matrix(values_of(name, phase), nrow(x)) / sqrt(29)
    expect_equal(rpf_features(map, x, name), expected, tolerance = 1e-13, label = name)
  })
})

test_that("every function's expected kernel is the kernel itself with a cosine side, and its series with itself", {
  x <- 1.5 * fixture_points(5, 3, seed = 7)
  origin <- matrix(0, 1, 2)
  r <- c(0.1, 0.5, 1, 2)
  for_each_function(function(name) {
    for (kernel in list(gaussian_kernel(1.5), laplace_kernel(1.5))) {
      K <- kernel_matrix(kernel, x)
      for (pair in list(c(name, "cos"), c("cos", name))) {
        expected <- kernel_matrix(rpf_expected_kernel(kernel, pair[1], pair[2]), x)
        expect(max(abs(expected - K)) <= 1e-14,
               sprintf("rpf_expected_kernel(%s, \"%s\", \"%s\") is not the kernel: they differ by %.3g", kernel$name,
                       pair[1], pair[2], max(abs(expected - K))))
      }
    }
    # k_ff(u) = sum_k w_k k(k u), w_k = 2 F_k^2 / <f, f>, by an R series over
    # 2e5 odd k (its tail below 1e-12 for these distances); the core sums to
    # its tolerance, 1e-6 of k(0)
    odd <- seq(1, 4e5, by = 2)
    weights <- 2 * rpf_coefficients(name, odd)^2 / rpf_inner_product(name, name)
    series <- vapply(r, function(u) sum(weights * exp(-odd^2 * u^2 / 2)), 0)
    k_ff <- kernel_matrix(rpf_expected_kernel(gaussian_kernel(1), name, name), cbind(r, 0), origin)[, 1]
    expect(max(abs(k_ff - series)) <= 1e-6,
           sprintf("the expected Gaussian kernel of %s with itself is not its series: they differ by %.3g", name,
                   max(abs(k_ff - series))))
    at_zero <- kernel_matrix(rpf_expected_kernel(gaussian_kernel(1), name, name), origin)
    expect(identical(at_zero[1, 1], 1), sprintf("the expected kernel of %s with itself is not k(0) at 0", name))
  })
})

test_that("every function's random periodic features estimate their expected kernel without bias", {
  skip_on_cran()
  skip_statistics_under_sanitizers()
  # Each map's mean error over all pairs; over 100 independent maps its mean
  # over its standard error is beyond 4.5 with probability about 2e-5 (t with
  # 99 degrees of freedom).
  x <- 2 * fixture_points(4, 3, seed = 2)
  y <- 2 * fixture_points(5, 3, seed = 3)
  kernel <- gaussian_kernel(1.5)
  for_each_function(function(name) {
    for (pair in list(c(name, "cos"), c(name, name))) {
      expected <- kernel_matrix(rpf_expected_kernel(kernel, pair[1], pair[2]), x, y)
      z <- mean_error_z(expected, function(r) {
        rpf_kernel_matrix(rpf_map(kernel, 3, 16, seed = r), x, y, pair[1], pair[2])
      }, 100)
      expect_lt(abs(z), 4.5, label = sprintf("left = \"%s\", right = \"%s\": z", pair[1], pair[2]))
    }
  })
})

test_that("every function gives the study's closed form the coefficients of its square", {
  # A_0, A_2, A_4, ... of f^2 (from the finite series or the steps, as the
  # core reports them) against quadrature: f^2 varies by at most 2 V
  cosines <- cos(outer(grid, 2 * (0:6)))
  for_each_function(function(name) {
    fun <- askrff:::as_periodic_function(name, "fun")
    squared <- askrff:::squared_coefficients(fun, 6L)$coefficients
    by_quadrature <- drop(crossprod(cosines, facts[[name]]$values^2)) / n
    expect(length(squared) == 7L && max(abs(squared - by_quadrature)) <= 4 * facts[[name]]$variation / n + 1e-12,
           sprintf("%s: the coefficients of f^2 differ from quadrature", name))
    expect(abs(squared[1L] - rpf_inner_product(name, name)) <= 1e-12, sprintf("%s: A_0 is not <f, f>", name))
  })
})

test_that("every function's closed-form variance matches simulation, with a cosine and with itself", {
  skip_on_cran()
  skip_statistics_under_sanitizers()
  # The study reports each method's mean over the 36 pairs of the measured
  # and the closed-form variance. Over 300 trials a pair's sample variance
  # has a relative standard error near sqrt(2 / 299) = 0.08 (more for heavy
  # tails), and their mean no more (at most 0.11 off here). The points are
  # close against sigma = 3 (kernel values 0.76 to 1), so that the
  # harmonics of f^2 weigh in: doubling them moves the ratio by 0.35 or
  # more. (The ratio, since expect_equal() compares numbers below its
  # tolerance absolutely.)
  x <- fixture_points(6, 2, seed = 3)
  readable <- functions[vapply(facts, function(f) is.null(f$error), NA)]
  methods <- unlist(lapply(readable, function(name) {
    stats::setNames(list(list(type = "rpf", left = name, right = "cos"), list(type = "rpf", left = name, right = name)),
                    paste(name, c("cos", "itself")))
  }), recursive = FALSE)
  study <- approximation_study(laplace_kernel(3), x, n_features = 10, methods = methods, trials = 300,
                               metrics = "max_abs", seed = 6)
  pairs <- attr(study, "pairs")
  for (method in names(methods)) {
    at <- pairs[pairs$method == method, ]
    expect(!anyNA(at$theory_variance), sprintf("%s: the study has no closed-form variance", method))
    ratio <- at$variance / at$theory_variance
    expect(isTRUE(abs(ratio - 1) <= 0.2),
           sprintf("%s: the measured variance is %.3g times the closed form's", method, ratio))
  }
})
