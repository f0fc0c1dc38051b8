# The package's refusals of bad arguments and data. What a user reads when a
# call refuses (its wording, the argument it names, the rule it states) and
# the refusal's class are recorded in _snaps/errors.md; a loop over bad values
# checks each against one case of the snapshot. Messages with sizes that
# depend on the machine's memory, and facts about one part of a message, are
# checked with regular expressions.

# A loop over bad values: each meets the refusal the snapshot records for
# `like`, of the same class and with the same message.
expect_same_refusal <- function(object, like, bad) {
  label <- sprintf("%s with bad = %s", deparse1(substitute(object)), deparse1(bad))
  like_label <- deparse1(substitute(like))
  refusal <- function(e) list(class = class(e)[1L], message = conditionMessage(e))
  expected <- expect_error(like, class = "askrff_error", label = like_label)
  actual <- expect_error(object, class = "askrff_error", label = label)
  if (inherits(expected, "askrff_error") && inherits(actual, "askrff_error")) {
    expect_identical(refusal(actual), refusal(expected), label = paste("the refusal of", label),
                     expected.label = paste("that of", like_label))
  }
}

test_that("kernel constructors reject bad parameters, naming them", {
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    laplace_kernel(-1)
    gaussian_kernel(c(1, -2))
  })
  for (bad in list(-1, 0, NA, NaN, Inf, "1", c(1, 2), NULL)) {
    expect_same_refusal(laplace_kernel(bad), laplace_kernel(-1), bad)
  }
  # the Gaussian kernel takes one scale per coordinate as well
  for (bad in list(-1, 0, NA, NaN, Inf, "1", c(1, -2), NULL, numeric(0))) {
    expect_same_refusal(gaussian_kernel(bad), gaussian_kernel(c(1, -2)), bad)
  }
})

test_that("data must be finite numeric matrices of the right width", {
  k <- gaussian_kernel(1)
  x <- fixture_points(4, 2)
  map <- rff_map(k, 2, 5, seed = 1)
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    kernel_matrix(k, "a")
    kernel_matrix(k, data.frame(a = 1, b = "z"))
    kernel_matrix(k, x[0, , drop = FALSE])
    kernel_matrix(k, replace(x, 3, NA))
    kernel_matrix(k, replace(x, 3, NaN))
    kernel_matrix(k, replace(x, 3, Inf))
    kernel_matrix(k, x, fixture_points(3, 3))
    kernel_matrix("gaussian", x)
    rff_features(map, fixture_points(3, 4))
    rff_kernel_matrix(map, x, replace(x, 1, -Inf))
  })
})

test_that("rff_map validates sizes, methods, settings and seeds", {
  k <- gaussian_kernel(1)
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    rff_map(k, 0, 10)
    rff_map(k, 3, 0)
    rff_map(k, 3, 10, method = "unknown")
    rff_map(k, 3, 10, decomposition = "phase")
    rff_map(laplace_kernel(1), 3, 10, "orthogonal")
    rff_map(k, 3, 10, seed = -1)
    rff_map(list(), 3, 10)
  })
  for (bad in list(0, -3, 2.5, NA, Inf, "4", c(1, 2))) {
    expect_same_refusal(rff_map(k, bad, 10), rff_map(k, 0, 10), bad)
    expect_same_refusal(rff_map(k, 3, bad), rff_map(k, 3, 0), bad)
  }
  for (bad in list(-1, 1.5, NA, "a", 2^60, c(1, 2))) {
    expect_same_refusal(rff_map(k, 3, 10, seed = bad), rff_map(k, 3, 10, seed = -1), bad)
  }
})

test_that("feature functions validate the map, side and threads", {
  map <- rff_map(gaussian_kernel(1), 2, 5, seed = 1)
  x <- fixture_points(3, 2)
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    rff_features(list(), x)
    rff_kernel_matrix(NULL, x)
    rff_features(map, x, side = "middle")
    rff_features(map, x, n_threads = 0)
    kernel_matrix(gaussian_kernel(1), x, n_threads = 0)
    total_masses(1)
    spectral_measure(gaussian_kernel(1), 0)
    spectral_measure(1, 2)
  })
  for (bad in list(0, -1, 1.5, NA, "2")) {
    expect_same_refusal(rff_features(map, x, n_threads = bad), rff_features(map, x, n_threads = 0), bad)
    expect_same_refusal(kernel_matrix(gaussian_kernel(1), x, n_threads = bad),
                        kernel_matrix(gaussian_kernel(1), x, n_threads = 0), bad)
  }
})

# The memory guard's refusals name sizes: what a request needs, and what the
# machine has available, which depends on the machine and the moment; these
# tests check the sizes and the class, not a snapshot.
test_that("requests larger than memory fail before allocating", {
  skip_if(is.na(askrff:::available_memory()), "the system does not tell its available memory")
  x <- matrix(0, 1e6, 2)
  expect_error(kernel_matrix(gaussian_kernel(1), x),
               "the kernel matrix \\(1,000,000 x 1,000,000\\) needs .* of memory with its intermediates, but only .* is available",
               class = "askrff_too_large")
  map <- rff_map(gaussian_kernel(1), 2, 1e6, seed = 1)
  expect_error(rff_features(map, x), "the feature matrix \\(1,000,000 x 2,000,000\\) needs", class = "askrff_too_large")
  expect_error(rff_map(gaussian_kernel(1), 2, 2^31), "`n_features` must be at most 2,147,483,647",
               class = "askrff_invalid_argument")
  expect_error(rff_map(gaussian_kernel(1), 1e9, 1), "the frequency matrix \\(1,000,000,000 x 1\\) needs .* with its intermediates",
               class = "askrff_too_large")
})

test_that("the memory guard reads every OS's available memory through ps, and refuses before allocating", {
  # What ps_system_memory() returns on each OS, as its help page lists the
  # fields; the guard reads `avail` alone, so each branch is forced by what it returns.
  avail <- 8e9
  readings <- list(
    Linux = list(total = 16e9, avail = avail, percent = 50, used = 7e9, free = 1e9, active = 5e9, inactive = 2e9,
                 buffers = 1e8, cached = 4e9, shared = 1e8, slab = 1e8),
    Darwin = list(total = 16e9, avail = avail, percent = 50, used = 8e9, free = 2e9, active = 6e9, inactive = 6e9,
                  wired = 2e9),
    Windows = list(total = 16e9, avail = avail, percent = 50, used = 8e9, free = 8e9))
  for (os in names(readings)) {
    with_mocked_bindings({
      expect_identical(askrff:::available_memory(), avail, label = os)
      # 8e9 doubles of frequencies, 64 GB, refused by the guard before the core is called.
      expect_error(rff_map(gaussian_kernel(1), 1e9, 8),
                   "the frequency matrix \\(1,000,000,000 x 8\\) needs .* of memory with its intermediates, but only 7.5 Gb is available",
                   class = "askrff_error", label = os)
    }, ps_system_memory = function() readings[[os]], .package = "ps")
  }
  # Where ps cannot tell (an OS it does not know, a sandbox hiding the
  # figures), the guard does not guess: the allocation decides.
  with_mocked_bindings({
    expect_identical(askrff:::available_memory(), NA_real_)
    expect_silent(askrff:::check_output_size(1e5, 1e5, "a result"))
  }, ps_system_memory = function() stop("not supported on this platform"), .package = "ps")
  # The real reading on this machine.
  available <- askrff:::available_memory()
  skip_if(is.na(available), "the system does not tell its available memory")
  expect_true(available > 0 && available <= ps::ps_system_memory()$total)
  if (file.exists("/proc/meminfo")) {
    line <- grep("^MemAvailable:", readLines("/proc/meminfo"), value = TRUE)
    # Read moments apart, so within what other processes allocate meanwhile.
    expect_equal(available, 1024 * as.numeric(gsub("[^0-9]", "", line)), tolerance = 0.25)
  }
  skip_if(available > 6.4e10, "more than the 64 GB asked for below is available")
  expect_error(rff_map(gaussian_kernel(1), 1e9, 8), "the frequency matrix \\(1,000,000,000 x 8\\) needs",
               class = "askrff_error")
})

test_that("the memory guard counts intermediates, and large maps draw only what they need", {
  skip_if(is.na(askrff:::available_memory()), "the system does not tell its available memory")
  # A 2 x 1e6 result (16 MB) whose cosine side, 1e6 x 4000 doubles, would be stored whole.
  map <- rpf_map(gaussian_kernel(1), 2, 4000, seed = 1)
  expect_error(rpf_kernel_matrix(map, matrix(0, 2, 2), matrix(0, 1e6, 2)),
               "the approximate kernel matrix \\(2 x 1,000,000\\) needs .* with its intermediates", class = "askrff_error")
  # One orthogonal frequency in d = 20000 draws one column, not a 20000 x 20000 block (3.2 GB).
  wide <- rff_map(gaussian_kernel(1), 20000, 1, method = "orthogonal", seed = 1)
  expect_equal(dim(wide$omega), c(20000, 1))
  expect_true(all(is.finite(wide$omega)))
})

test_that("the mass estimator's blocks of rows give the same normal equations as one block", {
  map <- rff_map(shift_gaussian_kernel(2, 0.2), 4, 64, seed = 5)
  x <- fixture_points(30, 4)
  whole <- askrff:::mass_normal_equations(map, x, 1L, block = 30L)
  blocked <- askrff:::mass_normal_equations(map, x, 2L, block = 7L)
  expect_equal(blocked, whole, tolerance = 1e-12)
})

test_that("relative_error checks its matrices", {
  expect_equal(relative_error(diag(2), diag(2) * 1.5), 0.5)
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    relative_error(diag(2), diag(3))
    relative_error(matrix(0, 2, 2), diag(2))
    relative_error(diag(2), replace(diag(2), 1, NA))
  })
})

test_that("asymmetric kernels reject bad parameters with clear errors", {
  shift3 <- shift_gaussian_kernel(1, c(0.1, 0.2, 0.3))
  sinh3 <- sinh_gaussian_kernel(1, c(0.1, 0.2, 0.3))
  cosh3 <- cosh_gaussian_kernel(1, c(0.1, 0.2, 0.3))
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    shift_gaussian_kernel(1, NA)
    sinh_gaussian_kernel(1, NA)
    cosh_gaussian_kernel(1, NA)
    shift_gaussian_kernel(0, 0.1)
    rff_map(shift3, 4, 10)
    kernel_matrix(shift3, matrix(0, 2, 2))
    spectral_measure(shift3, 5)
    rff_map(sinh3, 4, 10)
    rff_map(cosh3, 4, 10)
    rff_map(cosh_gaussian_kernel(2, 10), 16, 4)
    rff_map(sinh_gaussian_kernel(2, 20), 1, 4)
  })
  # every constructor refuses every bad value as the snapshot shows, and
  # every function names its parameter and the data's width
  constructors <- list(shift = shift_gaussian_kernel, beta = sinh_gaussian_kernel, beta = cosh_gaussian_kernel)
  for (i in seq_along(constructors)) {
    make <- constructors[[i]]
    name <- names(constructors)[i]
    for (bad in list(NA, c(1, Inf), NaN, "a", numeric(0), NULL)) {
      expect_same_refusal(make(1, bad), make(1, NA), bad)
    }
    for (bad in list(0, -1, Inf, c(1, 2))) {
      expect_same_refusal(make(bad, 0.1), shift_gaussian_kernel(0, 0.1), bad)
    }
    k <- make(1, c(0.1, 0.2, 0.3))
    expect_error(rff_map(k, 4, 10), sprintf("`%s` of the .* has length 3, but the data have 4 columns", name),
                 class = "askrff_error")
    expect_error(kernel_matrix(k, matrix(0, 2, 2)), sprintf("`%s` of the .* has length 3, but the data have 2 columns", name),
                 class = "askrff_error")
    expect_error(spectral_measure(k, 5), sprintf("`%s` of the .* has length 3, but the data have 5 columns", name),
                 class = "askrff_error")
  }
})

test_that("kernel-specific settings are checked by name and value", {
  k <- shift_gaussian_kernel(1, 0.2)
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    rff_map(k, 2, 4, decomposition = "polar")
    rff_map(k, 2, 4, decomposition = c("jordan", "phase"))
    rff_map(k, 2, 4, "iid", "phase")
    rff_map(k, 2, 4, tolerance = 1e-3)
    spectral_measure(k, 2, decomposition = 1)
  })
})

test_that("estimate_total_masses validates its map and subset", {
  map <- rff_map(shift_gaussian_kernel(1, 0.2), 2, 8, seed = 1)
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    estimate_total_masses(list(), matrix(0, 3, 2))
    estimate_total_masses(map, matrix(0, 3, 3))
    estimate_total_masses(map, matrix(0, 1, 2))
    estimate_total_masses(map, matrix(c(NA, 0, 0, 0), 2))
    estimate_total_masses(map, matrix(0, 3, 2), n_threads = 0)
  })
})

test_that("indefinite kernels reject bad parameters with clear errors", {
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    delta_gaussian_kernel(c(1, 0), 1)
    delta_gaussian_kernel(1, -1)
    delta_gaussian_kernel(c(1, -1), 1)
    delta_gaussian_kernel(c(1, -1), c(2, 2))
    poly_sphere_kernel(a = 1.9)
    poly_sphere_kernel(p = 1.5)
    poly_sphere_kernel(p = 101)
    arccos_kernel(2)
    radial_density(laplace_kernel(1), 2, 1)
    radial_density(gaussian_kernel(1), 2, c(1, -1))
    radial_density(gaussian_kernel(1), 0, 1)
  })
  # The mass of the Jordan part, computed in floating point, is left out.
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    spectral_measure(delta_gaussian_kernel(c(1, -1), c(1, 1.001)), 2)
  }, transform = function(lines) sub("has mass [-+.0-9e]+,", "has mass <mass>,", lines))
  for (bad in list(NA, Inf, "1", c(1, 0), numeric(0))) {
    expect_same_refusal(delta_gaussian_kernel(bad, 1), delta_gaussian_kernel(c(1, 0), 1), bad)
  }
  for (bad in list(-1, 0, NA, Inf, "1")) {
    expect_same_refusal(delta_gaussian_kernel(1, bad), delta_gaussian_kernel(1, -1), bad)
  }
  for (bad in list(1.9, NA, Inf, "2", c(2, 3))) {
    expect_same_refusal(poly_sphere_kernel(a = bad), poly_sphere_kernel(a = 1.9), bad)
  }
  for (bad in list(0, 1.5, NA, "1")) {
    expect_same_refusal(poly_sphere_kernel(p = bad), poly_sphere_kernel(p = 1.5), bad)
  }
  for (bad in list(2, -1, 0.5, NA, "0", c(0, 1))) {
    expect_same_refusal(arccos_kernel(bad), arccos_kernel(2), bad)
  }
})

test_that("random periodic features reject bad input, naming the argument", {
  k <- gaussian_kernel(1)
  x <- fixture_points(4, 2)
  map <- rpf_map(k, 2, 10, seed = 1)
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    rpf_map(delta_gaussian_kernel(), 2, 10)
    rpf_map(arccos_kernel(1), 2, 10)
    rpf_map(shift_gaussian_kernel(1, 0.5), 2, 10)
    rpf_map("gaussian", 2, 10)
    rpf_map(k, 0, 10)
    rpf_map(k, 2, 0)
    rpf_map(k, 2, 10, seed = -1)
    rpf_features(rff_map(k, 2, 10, seed = 1), x)
    rpf_features(map, fixture_points(3, 3))
    rpf_features(map, x, "sine")
    rpf_features(map, x, 2)
    rpf_kernel_matrix(map, x, left = "sawtooth")
    rpf_kernel_matrix(map, x, replace(x, 2, NA))
    rpf_kernel_matrix(map, x, n_threads = 0)
    rpf_quantizer(0)
    rpf_quantizer(9)
    rpf_coefficients("square", 1.5)
    rpf_coefficients("square", 2e6)
  })
  for (bad in list(0, 2.5, NA, "4")) {
    expect_same_refusal(rpf_map(k, bad, 10), rpf_map(k, 0, 10), bad)
    expect_same_refusal(rpf_map(k, 2, bad), rpf_map(k, 2, 0), bad)
  }
  for (bad in list(0, 1.5, NA, "2")) {
    expect_same_refusal(rpf_quantizer(bad), rpf_quantizer(0), bad)
  }
})

test_that("packed features go only where square waves are, and must match the map", {
  map <- rpf_map(gaussian_kernel(1), 2, 10, seed = 1)
  other <- rpf_map(gaussian_kernel(1), 2, 12, seed = 1)
  x <- fixture_points(4, 2)
  packed <- rpf_pack(rpf_features(map, x, "square"))
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    rpf_kernel_matrix(map, packed)
    rpf_kernel_matrix(map, packed, x, left = rpf_quantizer(2))
    rpf_kernel_matrix(other, packed, x)
    rpf_pack(rpf_features(map, x, "cos"))
    rpf_pack(x)
    rpf_pack("bits")
  })
})

test_that("expected kernels check their arguments and have no measure to sample", {
  k <- gaussian_kernel(1)
  expected <- rpf_expected_kernel(k, "square", "square")
  expect_snapshot(error = TRUE, cnd_class = TRUE, {
    rpf_expected_kernel(k, "square", "square", tolerance = 0)
    rpf_expected_kernel(laplace_kernel(1), "square", "saw")
    rpf_expected_kernel(poly_sphere_kernel(), "square", "cos")
    rff_map(expected, 2, 10)
    spectral_measure(expected, 2)
    rpf_map(expected, 2, 10)
  })
  for (bad in list(0, 1e-7, 0.5, NA, "1e-3", c(1e-3, 1e-4))) {
    expect_same_refusal(rpf_expected_kernel(k, "square", "square", tolerance = bad),
                        rpf_expected_kernel(k, "square", "square", tolerance = 0), bad)
  }
})
