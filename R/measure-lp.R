# The L1-minimal discrete radial measure: for a kernel on the sphere whose
# exact measure has infinite mass (or a radial kernel's), find atoms c_j
# at radii r_j with |sum_j c_j Omega_d(r_j z) - k(z)| <= tolerance for z in
# [0, z_max], by a linear program (HiGHS, through the highs package), once
# per (kernel, d, tolerance, z_max).

lp_cache <- new.env(parent = emptyenv())

# Grids of the linear program: 601 radii and 401 distances (twice as fine
# in each gives masses that agree to 4 digits). The radii reach 30 at d = 16 and
# grow like sqrt(d), the width of Omega_d.
lp_grid <- list(n_radius = 601L, n_distance = 401L, n_check = 20001L)

lp_radius_max <- function(d) 30 * max(1, sqrt(d / 16))

# Solved measures are kept for the session and, with
# options(askrff.disk_cache = TRUE), in tools::R_user_dir("askrff", "cache")
# across sessions, under the values of k they fit; a file whose measure does
# not pass verified_lp() is solved again and rewritten. Radii reach
# `radius_max`.
lp_radial_measure <- function(kernel, d, tolerance, z_max, radius_max) {
  radius <- seq(0, radius_max, length.out = lp_grid$n_radius)
  z <- seq(0, z_max, length.out = lp_grid$n_distance)
  target <- lp_target(kernel, z)
  key <- paste(c("lp-v2", d, tolerance, z_max, radius_max, unlist(lp_grid), object_digest(target)), collapse = "|")
  if (!is.null(lp_cache[[key]])) return(lp_cache[[key]])
  file <- lp_cache_file(key)
  lp <- if (!is.null(file)) verified_lp(read_cached_lp(file), kernel, d, tolerance, z_max, radius, z, target) else NULL
  if (is.null(lp)) {
    lp <- solve_lp_measure(kernel, d, tolerance, z_max, radius, z, target)
    if (!is.null(file)) write_cached_lp(lp, file)
  }
  assign(key, lp, envir = lp_cache)
  lp
}

# What the linear program fits: a sphere kernel's profile with its cusp
# split off, from the core, or a radial kernel's function
# (R/kernel-radial.R).
lp_target <- function(kernel, z) UseMethod("lp_target")

#' @export
lp_target.askrff_kernel <- function(kernel, z) core(.cpp_lp_target(kernel, z))

solve_lp_measure <- function(kernel, d, tolerance, z_max, radius, z, target) {
  A <- core(.cpp_omega_matrix(d, z, radius))
  # HiGHS drops entries below 1e-9 with a warning; they are dropped here
  # instead. The bias bound below is computed with the full matrix, so it
  # accounts for them.
  A[abs(A) <= 1e-9] <- 0
  n <- length(radius)
  # The program is homogeneous in (target, tolerance, c), so it is solved for
  # values of unit size (HiGHS takes bounds beyond 1e20 as infinite and
  # refuses some) and the masses scaled back, exactly. `tolerance` stays
  # absolute, in k's units; relative to k's size it may not ask for less
  # than 1e-10, two decades below the least it can be for a kernel of unit
  # size, where the solver (feasible to 1e-7 of it) is long past exact.
  scale <- max(abs(target))
  if (scale == 0) scale <- 1
  if (tolerance < 1e-10 * scale) {
    fail("The LP route fits the %s within `tolerance`, an absolute error (at most 0.5), but k reaches %s on [0, z_max = %s]: tolerance = %s is %s of that, finer than the linear program resolves (1e-10). Give the kernel as a multiple of one of unit size, c * with_settings(k1, route = \"lp\", ...) with k1 = k / c, whose tolerance is then relative to c.",
         kernel_label(kernel), format(scale, digits = 3), format(z_max), format(tolerance),
         format(tolerance / scale, digits = 2))
  }
  # c = c_plus - c_minus with both nonnegative: minimise sum(c_plus + c_minus)
  # subject to target - tolerance <= A c <= target + tolerance. Entries of A
  # are Omega_d values in [-1, 1], and the scaled targets at most 1.
  solve <- function(solver) {
    control <- highs::highs_control(threads = 1L, solver = solver, output_flag = FALSE, log_to_console = FALSE)
    tryCatch(highs::highs_solve(L = rep(1, 2L * n), lower = rep(0, 2L * n), upper = rep(Inf, 2L * n),
                                A = cbind(A, -A), lhs = (target - tolerance) / scale, rhs = (target + tolerance) / scale,
                                control = control),
             error = function(e) {
               fail("HiGHS failed on the linear program for the %s in dimension %d (tolerance = %s, z_max = %s): %s",
                    kernel_label(kernel), d, format(tolerance), format(z_max), conditionMessage(e))
             })
  }
  solution <- solve("simplex")
  # The dual simplex can stall on near-collinear columns and end with no
  # status ("Not Set"); the interior point method then tells infeasibility
  # from a solution.
  if (!solution$status_message %in% c("Optimal", "Infeasible")) solution <- solve("ipm")
  check_lp_status(solution$status_message, kernel, d, tolerance, z_max)
  weight <- solution$primal_solution[seq_len(n)] - solution$primal_solution[n + seq_len(n)]
  keep <- abs(weight) > 1e-12
  if (!any(keep)) {
    fail("The LP measure of the %s in dimension %d has no atoms: |k| stays within tolerance = %s of 0 on [0, z_max = %s] (it reaches %s), so the zero measure fits. Lower `tolerance` below that.",
         kernel_label(kernel), d, format(tolerance), format(z_max), format(max(abs(target)), digits = 3))
  }
  lp <- list(radius = radius[keep], weight = scale * weight[keep], tolerance = tolerance, z_max = z_max)
  lp$bias_bound <- lp_bias_bound(kernel, d, lp)
  if (!is.finite(lp$bias_bound)) {
    fail("The LP measure of the %s in dimension %d has no finite bias bound on [0, z_max = %s] (its atoms' masses or radii are too large); lower `z_max` or raise `tolerance`.",
         kernel_label(kernel), d, format(z_max))
  }
  lp
}

# HiGHS's model status: "Optimal" passes. An infeasible program and a solver
# that stopped without a solution get different messages; in practice the
# latter happens when the tolerance is so small that the L1-minimal measure
# needs huge atoms (its L1 norm passes 1e4 at tolerance 1e-5 for the
# arc-cosine kernel's cusp at z = 2), which is ill-conditioned.
check_lp_status <- function(status, kernel, d, tolerance, z_max) {
  if (identical(status, "Optimal")) return(invisible(status))
  if (identical(status, "Infeasible")) {
    fail("No radial measure approximates the %s in dimension %d within tolerance = %s on [0, z_max = %s] (the linear program is infeasible); raise `tolerance` or lower `z_max`.",
         kernel_label(kernel), d, format(tolerance), format(z_max))
  }
  fail("HiGHS could not solve the linear program for the %s in dimension %d (it ended with \"%s\"): a numerical failure, not infeasibility. It happens when tolerance = %s is so small on [0, z_max = %s] that the measure would need huge atoms; raise `tolerance` or lower `z_max`.",
       kernel_label(kernel), d, status, format(tolerance), format(z_max))
}

lp_cache_file <- function(key) {
  if (!isTRUE(getOption("askrff.disk_cache"))) return(NULL)
  dir <- tools::R_user_dir("askrff", "cache")
  if (!dir.exists(dir) && !dir.create(dir, recursive = TRUE, showWarnings = FALSE)) return(NULL)
  file.path(dir, paste0("lp-", object_digest(key), ".rds"))
}

# A cached file is untrusted like any object: NULL unless it holds a list.
read_cached_lp <- function(file) {
  if (!file.exists(file)) return(NULL)
  lp <- tryCatch(readRDS(file), error = function(e) NULL)
  if (is.list(lp) && !is.object(lp)) lp else NULL
}

# A measure read back is used only if it is one the program could have
# returned for these inputs, checked rather than trusted (a checksum would
# not stop a deliberate edit): distinct radii of the program's grid, finite
# masses, the same tolerance and z_max; an error on the program's distances
# within tolerance (plus the solver's feasibility slack, 1e-7 of max |k|, and
# the Omega_d entries below 1e-9 it was not given); and the bias bound
# recomputed from the atoms equal to the one stored. Costs a bias bound, far
# less than a solve. NULL otherwise.
verified_lp <- function(lp, kernel, d, tolerance, z_max, radius, z, target) {
  if (is.null(lp)) return(NULL)
  on_grid <- match(lp$radius, radius)
  valid <- is.double(lp$radius) && is.double(lp$weight) && length(lp$radius) >= 1L &&
    length(lp$radius) == length(lp$weight) && !anyNA(on_grid) && !anyDuplicated(on_grid) &&
    all(is.finite(lp$weight)) && identical(lp$tolerance, tolerance) && identical(lp$z_max, z_max) &&
    is_single_number(lp$bias_bound) && is.finite(lp$bias_bound)
  if (!valid) return(NULL)
  error <- core(.cpp_omega_matrix(d, z, lp$radius)) %*% lp$weight - target
  slack <- 1e-7 * max(abs(target)) + 1e-9 * sum(abs(lp$weight))
  if (!(max(abs(error)) <= tolerance + slack)) return(NULL)
  bound <- lp_bias_bound(kernel, d, lp)
  if (!isTRUE(all.equal(bound, lp$bias_bound, tolerance = 1e-12))) return(NULL)
  lp[c("radius", "weight", "tolerance", "z_max", "bias_bound")]
}

write_cached_lp <- function(lp, file) {
  tryCatch(saveRDS(lp, file), error = function(e) NULL, warning = function(w) NULL)
  invisible(lp)
}

# A bound on |k_LP(z) - k(z)| over all of [0, z_max], not only the LP's grid:
# the largest error on a grid of spacing h, plus h^2/8 times a bound on the
# error's second derivative (between two grid points an error with curvature
# at most C exceeds the larger endpoint by at most C h^2 / 8). The atoms
# contribute sum |c_j| r_j^2 / d, since |d^2/dz^2 Omega_d(r z)| <= r^2 E u_1^2
# = r^2 / d; the target's own curvature is taken from second differences on
# the same grid, where it is smooth (the cusp is split off).
lp_bias_bound <- function(kernel, d, lp) {
  z <- seq(0, lp$z_max, length.out = lp_grid$n_check)
  h <- z[2L] - z[1L]
  target <- lp_target(kernel, z)
  error <- core(.cpp_omega_matrix(d, z, lp$radius)) %*% lp$weight - target
  target_curvature <- max(abs(diff(target, differences = 2L))) / h^2
  atom_curvature <- sum(abs(lp$weight) * lp$radius^2) / d
  max(abs(error)) + h^2 / 8 * (atom_curvature + target_curvature)
}
