# The linear program of the L1-minimal radial measures (R/measure-lp.R), by
# HiGHS: infeasibility and numerical failure are told apart, and solved
# measures are memoized per session and, when asked, cached on disk.

forget_lp_measures <- function() rm(list = ls(askrff:::lp_cache), envir = askrff:::lp_cache)

test_that("the masses agree with the former solver's, and the L1 norm is minimal", {
  forget_lp_measures()
  measure <- spectral_measure(poly_sphere_kernel(2, 1), 8)
  # lpSolve's simplex on the same grids gave 3.154036 and 2.153942
  expect_equal(measure$parts$mass, c(3.154036, 2.153942), tolerance = 1e-3)
  expect_lt(measure$lp$bias_bound, 2e-3)
})

test_that("infeasibility and a numerical failure of the solver get different messages", {
  check <- askrff:::check_lp_status
  kernel <- poly_sphere_kernel(2, 1)
  expect_invisible(check("Optimal", kernel, 3, 1e-4, 1.5))
  expect_error(check("Infeasible", kernel, 3, 1e-4, 1.5), class = "askrff_error",
               regexp = "within tolerance = 1e-04 on \\[0, z_max = 1.5\\] \\(the linear program is infeasible\\); raise `tolerance` or lower `z_max`")
  for (status in c("Unknown", "Not Set", "Time limit reached")) {
    expect_error(check(status, kernel, 3, 1e-7, 2), class = "askrff_error",
                 regexp = sprintf("it ended with \"%s\"\\): a numerical failure, not infeasibility", status))
  }
})

test_that("a tolerance too small for the cusp ends in the solver's failure message, not in garbage", {
  skip_on_cran()
  forget_lp_measures()
  result <- tryCatch(spectral_measure(arccos_kernel(1), 3, route = "stationary", tolerance = 1e-7, z_max = 2),
                     askrff_error = function(e) e)
  # HiGHS stops without a solution here (1.4 s); should a later version solve it,
  # the measure must still honour its bound.
  if (inherits(result, "askrff_error")) {
    expect_match(conditionMessage(result), "raise `tolerance` or lower `z_max`")
  } else {
    expect_lt(result$lp$bias_bound, 1e-6)
  }
})

test_that("solved measures are cached on disk only when asked, and a corrupt file is solved again", {
  forget_lp_measures()
  cache <- file.path(tempfile(), "cache")
  old_dir <- Sys.getenv("R_USER_CACHE_DIR", NA)
  Sys.setenv(R_USER_CACHE_DIR = cache)
  on.exit(if (is.na(old_dir)) Sys.unsetenv("R_USER_CACHE_DIR") else Sys.setenv(R_USER_CACHE_DIR = old_dir), add = TRUE)
  dir <- tools::R_user_dir("askrff", "cache")
  spectral_measure(poly_sphere_kernel(2, 1), 3)
  expect_false(dir.exists(dir))
  old_options <- options(askrff.disk_cache = TRUE)
  on.exit(options(old_options), add = TRUE)
  forget_lp_measures()
  first <- spectral_measure(poly_sphere_kernel(2, 1), 3)
  files <- list.files(dir, full.names = TRUE)
  expect_length(files, 1L)
  forget_lp_measures()
  expect_identical(spectral_measure(poly_sphere_kernel(2, 1), 3)$lp, first$lp)
  # an edited file is untrusted: it is solved again and rewritten
  saveRDS(list(radius = "a"), files[1])
  forget_lp_measures()
  expect_identical(spectral_measure(poly_sphere_kernel(2, 1), 3)$lp, first$lp)
  expect_identical(readRDS(files[1]), first$lp)
})

test_that("z_max outside (1e-100, 1e100] is refused by name, both ways, where the radius grid would overflow", {
  skip_on_cran()
  cusp <- radial_kernel(function(r) exp(-r))
  for (z_max in c(1e-300, 1e-100, 1e300, Inf)) {
    expect_error(spectral_measure(cusp, 3, route = "lp", tolerance = 0.05, z_max = z_max),
                 "`z_max` must be a single number in \\(1e-100, 1e\\+100\\]", class = "askrff_error")
    expect_error(rff_map(cusp, 3, 8, route = "lp", tolerance = 0.05, z_max = z_max),
                 "`z_max` must be a single number in \\(1e-100, 1e\\+100\\]", class = "askrff_error")
  }
  # Inside the range the program is scale-free: a tiny range makes k constant
  # there, so one atom at radius 0 fits; a huge one cannot be fitted. Either
  # way the result is finite or a named refusal.
  small <- rff_map(cusp, 3, 8, route = "lp", tolerance = 0.05, z_max = 1e-90, seed = 1)
  expect_true(all(is.finite(small$omega)))
  expect_true(is.finite(small$bias_bound))
  expect_lte(small$bias_bound, 0.05 + 1e-12)
  expect_error(rff_map(cusp, 3, 8, route = "lp", tolerance = 0.05, z_max = 1e100), "infeasible", class = "askrff_error")
})

test_that("the program is solved at unit scale: no HiGHS output, and only askrff errors", {
  skip_on_cran()
  forget_lp_measures()
  # tolerance is absolute: 0.05 on a kernel of size 1e300 asks for 5e-302
  # of it, which the program cannot resolve; said so, with the way out.
  huge <- radial_kernel(function(r) 1e300 * exp(-r))
  output <- capture.output(type = "output", {
    messages <- capture.output(type = "message", {
      result <- tryCatch(rff_map(huge, 3, 8, route = "lp", tolerance = 0.05, z_max = 3), error = function(e) e)
    })
  })
  expect_length(c(output, messages), 0L)
  expect_s3_class(result, "askrff_error")
  expect_match(conditionMessage(result), "absolute error.*5e-302 of that.*c \\* with_settings\\(k1, route = \"lp\", ...\\) with k1 = k / c")
  # Scaling is exact (the program is homogeneous): a kernel 100 times larger
  # with a tolerance 100 times larger has the same atoms, 100 times heavier.
  unit <- spectral_measure(radial_kernel(function(r) exp(-r)), 3, route = "lp", tolerance = 0.005, z_max = 4)
  big <- spectral_measure(radial_kernel(function(r) 100 * exp(-r)), 3, route = "lp", tolerance = 0.5, z_max = 4)
  expect_identical(big$lp$radius, unit$lp$radius)
  expect_equal(big$lp$weight, 100 * unit$lp$weight, tolerance = 1e-9)
  z <- seq(0, 4, length.out = 501)
  fit <- askrff:::.cpp_omega_matrix(3L, z, big$lp$radius) %*% big$lp$weight
  expect_lt(max(abs(fit - 100 * exp(-z))), big$lp$bias_bound)
  # a HiGHS failure of any kind is an askrff_error (this testthat has no
  # local_mocked_bindings(), so the solver is replaced by hand, and restored)
  highs_ns <- asNamespace("highs")
  solver <- get("highs_solve", envir = highs_ns)
  unlockBinding("highs_solve", highs_ns)
  assign("highs_solve", function(...) stop("solver exploded"), envir = highs_ns)
  on.exit({
    assign("highs_solve", solver, envir = highs_ns)
    lockBinding("highs_solve", highs_ns)
  }, add = TRUE)
  forget_lp_measures()
  expect_error(spectral_measure(radial_kernel(function(r) exp(-r)), 3, route = "lp", tolerance = 0.02, z_max = 4),
               "HiGHS failed .*solver exploded", class = "askrff_error")
})

test_that("a kernel within tolerance of 0 has no atoms, and says so", {
  tiny <- radial_kernel(function(r) 1e-300 * exp(-r))
  expect_error(spectral_measure(tiny, 3, route = "lp", tolerance = 0.05, z_max = 3), "has no atoms.*zero measure fits",
               class = "askrff_error")
})

test_that("settings a call gives an expression that belong to a term point to with_settings() on the term", {
  scaled <- 1e100 * radial_kernel(function(r) exp(-r))
  message <- tryCatch(rff_map(scaled, 3, 8, route = "lp", tolerance = 0.05, z_max = 3), askrff_error = conditionMessage)
  expect_match(message, "does not take: route, tolerance, z_max \\(it takes split, accuracy\\)")
  expect_match(message, "Term k1 \\(the radial kernel .*\\) takes route, tolerance, z_max: .*with_settings\\(<term>, route = ..., tolerance = ..., z_max = ...\\)")
  # the way it points to works
  term <- with_settings(radial_kernel(function(r) exp(-r)), route = "lp", tolerance = 0.05, z_max = 3)
  map <- rff_map(1e100 * term, 3, 8, seed = 1)
  expect_true(all(is.finite(map$omega)))
  # a setting no term takes gets no such hint
  other <- tryCatch(rff_map(scaled, 3, 8, decomposition = "phase"), askrff_error = conditionMessage)
  expect_no_match(other, "with_settings")
})

test_that("a cached measure is verified before use: an edited file is ignored, solved again and rewritten", {
  skip_on_cran()
  forget_lp_measures()
  cache <- file.path(tempfile(), "cache")
  old_dir <- Sys.getenv("R_USER_CACHE_DIR", NA)
  Sys.setenv(R_USER_CACHE_DIR = cache)
  on.exit(if (is.na(old_dir)) Sys.unsetenv("R_USER_CACHE_DIR") else Sys.setenv(R_USER_CACHE_DIR = old_dir), add = TRUE)
  old_options <- options(askrff.disk_cache = TRUE)
  on.exit(options(old_options), add = TRUE)
  cusp <- radial_kernel(function(r) exp(-r))
  measure <- function() spectral_measure(cusp, 3, route = "lp", tolerance = 0.01, z_max = 5)
  first <- measure()$lp
  file <- list.files(tools::R_user_dir("askrff", "cache"), full.names = TRUE)
  expect_length(file, 1L)
  # An intact file is used as it is: the solver is not called.
  ns <- asNamespace("askrff")
  solver <- get("solve_lp_measure", envir = ns)
  unlockBinding("solve_lp_measure", ns)
  assign("solve_lp_measure", function(...) stop("solved again"), envir = ns)
  forget_lp_measures()
  reused <- tryCatch(measure()$lp, error = conditionMessage)
  assign("solve_lp_measure", solver, envir = ns)
  lockBinding("solve_lp_measure", ns)
  expect_identical(reused, first)
  # Edits that keep the file well formed: heavier atoms under the old bias
  # bound (the relative error the map would carry grows to about 4), a bias
  # bound that lies, radii off the program's grid, an atom split in two.
  edits <- list(
    heavier = within(first, weight <- 5 * weight),
    lying_bound = within(first, bias_bound <- 1e-9),
    off_grid = within(first, radius <- radius + 1e-3),
    duplicated = within(first, {
      radius <- c(radius, radius[1])
      weight <- c(weight / c(2, rep(1, length(weight) - 1L)), weight[1] / 2)
    }))
  z <- seq(0, 5, length.out = 201)
  for (name in names(edits)) {
    saveRDS(edits[[name]], file)
    forget_lp_measures()
    used <- measure()$lp
    expect_identical(used, first, label = name)
    expect_identical(readRDS(file), first, label = name)
    fit <- askrff:::.cpp_omega_matrix(3L, z, used$radius) %*% used$weight
    expect_lt(max(abs(fit - exp(-z))), used$bias_bound)
  }
  # and the map drawn after an edit carries the solved measure
  saveRDS(edits$heavier, file)
  forget_lp_measures()
  map <- rff_map(cusp, 3, 8, route = "lp", tolerance = 0.01, z_max = 5, seed = 1)
  expect_identical(map$bias_bound, first$bias_bound)
})
