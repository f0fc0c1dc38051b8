test_that("kernel constructors reject bad parameters, naming them", {
  for (bad in list(-1, 0, NA, NaN, Inf, "1", c(1, 2), NULL)) {
    expect_error(laplace_kernel(bad), "`sigma` must be a single positive finite number")
  }
  # the Gaussian kernel takes one scale per coordinate as well
  for (bad in list(-1, 0, NA, NaN, Inf, "1", c(1, -2), NULL, numeric(0))) {
    expect_error(gaussian_kernel(bad), "`sigma` must be positive finite numbers: one per coordinate, or a single value for all")
  }
})

test_that("data must be finite numeric matrices of the right width", {
  k <- gaussian_kernel(1)
  x <- fixture_points(4, 2)
  expect_error(kernel_matrix(k, "a"), "`x` must be a numeric matrix or data frame")
  expect_error(kernel_matrix(k, data.frame(a = 1, b = "z")), "`x` must have numeric columns only; column b")
  expect_error(kernel_matrix(k, x[0, , drop = FALSE]), "`x` must have at least one row")
  expect_error(kernel_matrix(k, replace(x, 3, NA)), "`x` must not contain NA or NaN")
  expect_error(kernel_matrix(k, replace(x, 3, NaN)), "`x` must not contain NA or NaN")
  expect_error(kernel_matrix(k, replace(x, 3, Inf)), "`x` must not contain infinite values")
  expect_error(kernel_matrix(k, x, fixture_points(3, 3)), "`y` must have 2 columns, not 3")
  expect_error(kernel_matrix("gaussian", x), "`kernel` must be a kernel object")
  map <- rff_map(k, 2, 5, seed = 1)
  expect_error(rff_features(map, fixture_points(3, 4)), "`x` must have 2 columns, not 4")
  expect_error(rff_kernel_matrix(map, x, replace(x, 1, -Inf)), "`y` must not contain infinite values")
})

test_that("rff_map validates sizes, methods, settings and seeds", {
  k <- gaussian_kernel(1)
  for (bad in list(0, -3, 2.5, NA, Inf, "4", c(1, 2))) {
    expect_error(rff_map(k, bad, 10), "`d` must be a single positive whole number")
    expect_error(rff_map(k, 3, bad), "`n_features` must be a single positive whole number")
  }
  expect_error(rff_map(k, 3, 10, method = "sobol"), "`method` must be one of \"iid\", \"orthogonal\"", class = "askrff_error")
  expect_error(rff_map(k, 3, 10, decomposition = "phase"), "`...` has settings the Gaussian kernel \\(sigma = 1\\) does not take: decomposition")
  expect_error(rff_map(laplace_kernel(1), 3, 10, "orthogonal"), "is not one the Laplace kernel \\(sigma = 1\\) takes")
  for (bad in list(-1, 1.5, NA, "a", 2^60, c(1, 2))) {
    expect_error(rff_map(k, 3, 10, seed = bad), "`seed` must be NULL or a single whole number")
  }
  expect_error(rff_map(list(), 3, 10), "`kernel` must be a kernel object")
})

test_that("feature functions validate the map, side and threads", {
  map <- rff_map(gaussian_kernel(1), 2, 5, seed = 1)
  x <- fixture_points(3, 2)
  expect_error(rff_features(list(), x), "`map` must be a map made by rff_map\\(\\)")
  expect_error(rff_kernel_matrix(NULL, x), "`map` must be a map made by rff_map\\(\\)")
  expect_error(rff_features(map, x, side = "middle"), "`side` must be one of \"left\", \"right\"", class = "askrff_error")
  for (bad in list(0, -1, 1.5, NA, "2")) {
    expect_error(rff_features(map, x, n_threads = bad), "`n_threads` must be a single positive whole number")
    expect_error(kernel_matrix(gaussian_kernel(1), x, n_threads = bad), "`n_threads` must be")
  }
  expect_error(total_masses(1), "`map` must be a map made by rff_map\\(\\)")
  expect_error(spectral_measure(gaussian_kernel(1), 0), "`d` must be a single positive whole number")
  expect_error(spectral_measure(1, 2), "`kernel` must be a kernel object")
})

test_that("requests larger than memory fail before allocating", {
  skip_if(is.na(askrff:::available_memory()), "the system does not tell its available memory")
  x <- matrix(0, 1e6, 2)
  expect_error(kernel_matrix(gaussian_kernel(1), x),
               "the kernel matrix \\(1,000,000 x 1,000,000\\) needs .* of memory with its intermediates, but only .* is available")
  map <- rff_map(gaussian_kernel(1), 2, 1e6, seed = 1)
  expect_error(rff_features(map, x), "the feature matrix \\(1,000,000 x 2,000,000\\) needs")
  expect_error(rff_map(gaussian_kernel(1), 2, 2^31), "`n_features` must be at most 2,147,483,647")
  expect_error(rff_map(gaussian_kernel(1), 1e9, 1), "the frequency matrix \\(1,000,000,000 x 1\\) needs .* with its intermediates")
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
  expect_error(relative_error(diag(2), diag(3)), "`K_hat` must have the dimensions of `K` \\(2 x 2\\), not 3 x 3")
  expect_error(relative_error(matrix(0, 2, 2), diag(2)), "`K` must not be all zero")
  expect_error(relative_error(diag(2), replace(diag(2), 1, NA)), "`K_hat` must not contain NA")
})

test_that("asymmetric kernels reject bad parameters with clear errors", {
  constructors <- list(shift = shift_gaussian_kernel, beta = sinh_gaussian_kernel, beta = cosh_gaussian_kernel)
  for (i in seq_along(constructors)) {
    make <- constructors[[i]]
    name <- names(constructors)[i]
    for (bad in list(NA, c(1, Inf), NaN, "a", numeric(0), NULL)) {
      expect_error(make(1, bad), sprintf("`%s` must be a numeric vector of finite values", name))
    }
    for (bad in list(0, -1, Inf, c(1, 2))) {
      expect_error(make(bad, 0.1), "`sigma` must be a single positive finite number")
    }
    k <- make(1, c(0.1, 0.2, 0.3))
    expect_error(rff_map(k, 4, 10), sprintf("`%s` of the .* has length 3, but the data have 4 columns", name))
    expect_error(kernel_matrix(k, matrix(0, 2, 2)), "has length 3, but the data have 2 columns")
    expect_error(spectral_measure(k, 5), "has length 3")
  }
  expect_error(rff_map(cosh_gaussian_kernel(2, 10), 16, 4), "sigma \\* \\|\\|beta\\|\\| is 80 in dimension 16; it must be at most 37")
  expect_error(rff_map(sinh_gaussian_kernel(2, 20), 1, 4), "must be at most 37")
})

test_that("kernel-specific settings are checked by name and value", {
  k <- shift_gaussian_kernel(1, 0.2)
  expect_error(rff_map(k, 2, 4, decomposition = "polar"), "`decomposition` must be one of \"jordan\", \"phase\"")
  expect_error(rff_map(k, 2, 4, decomposition = c("jordan", "phase")), "`decomposition` must be one of")
  expect_error(rff_map(k, 2, 4, "iid", "phase"), "`...` takes named settings only")
  expect_error(rff_map(k, 2, 4, tolerance = 1e-3), "does not take: tolerance \\(it takes decomposition\\)")
  expect_error(spectral_measure(k, 2, decomposition = 1), "`decomposition` must be one of")
})

test_that("estimate_total_masses validates its map and subset", {
  map <- rff_map(shift_gaussian_kernel(1, 0.2), 2, 8, seed = 1)
  expect_error(estimate_total_masses(list(), matrix(0, 3, 2)), "`map` must be a map made by rff_map")
  expect_error(estimate_total_masses(map, matrix(0, 3, 3)), "`x_subset` must have 2 columns, not 3")
  expect_error(estimate_total_masses(map, matrix(0, 1, 2)), "`x_subset` must have at least 2 rows")
  expect_error(estimate_total_masses(map, matrix(c(NA, 0, 0, 0), 2)), "`x_subset` must not contain NA")
  expect_error(estimate_total_masses(map, matrix(0, 3, 2), n_threads = 0), "`n_threads` must be a single positive whole number")
})

test_that("indefinite kernels reject bad parameters with clear errors", {
  for (bad in list(NA, Inf, "1", c(1, 0), numeric(0))) {
    expect_error(delta_gaussian_kernel(bad, 1), "`weights` must be a numeric vector of finite, nonzero values")
  }
  for (bad in list(-1, 0, NA, Inf, "1")) {
    expect_error(delta_gaussian_kernel(1, bad), "`sigmas` must be a numeric vector of finite positive values")
  }
  expect_error(delta_gaussian_kernel(c(1, -1), 1), "`sigmas` must have one value per weight: 2 weights, 1 sigmas")
  expect_error(delta_gaussian_kernel(c(1, -1), c(2, 2)), "`sigmas` must be distinct")
  expect_error(spectral_measure(delta_gaussian_kernel(c(1, -1), c(1, 1.001)), 2),
               "fewer than 1 in 1000 proposals; use decomposition = \"components\"")
  for (bad in list(1.9, NA, Inf, "2", c(2, 3))) expect_error(poly_sphere_kernel(a = bad), "`a` must be a single number of at least 2")
  for (bad in list(0, 1.5, NA, "1", 101)) expect_error(poly_sphere_kernel(p = bad), "`p` must be")
  for (bad in list(2, -1, 0.5, NA, "0", c(0, 1))) expect_error(arccos_kernel(bad), "`order` must be 0 or 1")
  expect_error(radial_density(laplace_kernel(1), 2, 1), "has no rotation-invariant spectral measure")
  expect_error(radial_density(gaussian_kernel(1), 2, c(1, -1)), "`radius` must be a numeric vector of finite, nonnegative values")
  expect_error(radial_density(gaussian_kernel(1), 0, 1), "`d` must be a single positive whole number")
})

test_that("random periodic features reject bad input, naming the argument", {
  k <- gaussian_kernel(1)
  x <- fixture_points(4, 2)
  expect_error(rpf_map(delta_gaussian_kernel(), 2, 10), "`kernel` must be positive definite .* Delta-Gaussian")
  expect_error(rpf_map(arccos_kernel(1), 2, 10), "`kernel` must be positive definite")
  expect_error(rpf_map(shift_gaussian_kernel(1, 0.5), 2, 10), "`kernel` must be positive definite")
  expect_error(rpf_map("gaussian", 2, 10), "`kernel` must be a kernel object")
  for (bad in list(0, 2.5, NA, "4")) {
    expect_error(rpf_map(k, bad, 10), "`d` must be a single positive whole number")
    expect_error(rpf_map(k, 2, bad), "`n_features` must be a single positive whole number")
  }
  expect_error(rpf_map(k, 2, 10, seed = -1), "`seed` must be NULL or a single whole number")
  map <- rpf_map(k, 2, 10, seed = 1)
  expect_error(rpf_features(rff_map(k, 2, 10, seed = 1), x), "`map` must be a map made by rpf_map\\(\\)")
  expect_error(rpf_features(map, fixture_points(3, 3)), "`x` must have 2 columns, not 3")
  expect_error(rpf_features(map, x, "sine"), "`fun` must name a periodic function, not \"sine\": askrff.s periodic functions are \"cos\", \"square\"")
  expect_error(rpf_features(map, x, 2), "`fun` must be")
  expect_error(rpf_kernel_matrix(map, x, left = "tri"), "`left` must name a periodic function, not \"tri\"")
  expect_error(rpf_kernel_matrix(map, x, replace(x, 2, NA)), "`y` must not contain NA")
  expect_error(rpf_kernel_matrix(map, x, n_threads = 0), "`n_threads` must be a single positive whole number")
  for (bad in list(0, 9, 1.5, NA, "2")) expect_error(rpf_quantizer(bad), "`bits` must be")
  expect_error(rpf_coefficients("square", 1.5), "`k` must be a vector of whole numbers")
  expect_error(rpf_coefficients("square", 2e6), "`k` must lie between")
})

test_that("packed features go only where square waves are, and must match the map", {
  map <- rpf_map(gaussian_kernel(1), 2, 10, seed = 1)
  x <- fixture_points(4, 2)
  packed <- rpf_pack(rpf_features(map, x, "square"))
  expect_error(rpf_kernel_matrix(map, packed), "`y` is packed one-bit features, which only a binary side \\(the square wave\\) takes, but `right` is cos")
  expect_error(rpf_kernel_matrix(map, packed, x, left = rpf_quantizer(2)), "`x` is packed .* `left` is 2-bit quantizer")
  other <- rpf_map(gaussian_kernel(1), 2, 12, seed = 1)
  expect_error(rpf_kernel_matrix(other, packed, x), "`x` holds 10 features per point, but the map has 12 frequencies")
  expect_error(rpf_pack(rpf_features(map, x, "cos")), "`features` must hold square-wave features")
  expect_error(rpf_pack(x), "`features` must hold square-wave features")
  expect_error(rpf_pack("bits"), "`features` must be a numeric matrix of square-wave features")
})

test_that("expected kernels check their arguments and have no measure to sample", {
  k <- gaussian_kernel(1)
  for (bad in list(0, 1e-7, 0.5, NA, "1e-3", c(1e-3, 1e-4))) {
    expect_error(rpf_expected_kernel(k, "square", "square", tolerance = bad), "`tolerance` must be a single number between 1e-6 and 0.1")
  }
  expect_error(rpf_expected_kernel(laplace_kernel(1), "square", "saw"), "`right` must name a periodic function, not \"saw\"")
  expect_error(rpf_expected_kernel(poly_sphere_kernel(), "square", "cos"), "`kernel` must be positive definite")
  expected <- rpf_expected_kernel(k, "square", "square")
  expect_error(rff_map(expected, 2, 10), "expected kernel of random periodic features, which has no spectral measure")
  expect_error(spectral_measure(expected, 2), "no spectral measure")
  expect_error(rpf_map(expected, 2, 10), "`kernel` must be positive definite")
})
