# The L1-minimal discrete radial measure of SPEC 3.4: for a kernel on the
# sphere whose exact measure has infinite mass (SPEC 3.2, 5), find atoms c_j
# at radii r_j with |sum_j c_j Omega_d(r_j z) - k(z)| <= tolerance for z in
# [0, z_max], by a linear program, once per (kernel, d, tolerance, z_max).

lp_cache <- new.env(parent = emptyenv())

# Grids of the linear program. SPEC 3.4 uses 1201 radii and 801 distances;
# lpSolve's simplex takes minutes and can fail on that size, while 601 x 401
# solves in about 2 s with the same masses to 4 digits. The radii reach 30 at
# d = 16 and grow like sqrt(d), the width of Omega_d.
lp_grid <- list(n_radius = 601L, n_distance = 401L, n_check = 20001L)

lp_radius_max <- function(d) 30 * max(1, sqrt(d / 16))

lp_radial_measure <- function(kernel, d, tolerance, z_max) {
  key <- paste(kernel$name, paste(unlist(kernel$params), collapse = ","), d, tolerance, z_max, sep = "|")
  if (!is.null(lp_cache[[key]])) return(lp_cache[[key]])
  radius <- seq(0, lp_radius_max(d), length.out = lp_grid$n_radius)
  z <- seq(0, z_max, length.out = lp_grid$n_distance)
  A <- core(.cpp_omega_matrix(d, z, radius))
  target <- core(.cpp_lp_target(kernel, z))
  n <- length(radius)
  # c = c_plus - c_minus with both nonnegative: minimise sum(c_plus + c_minus).
  solution <- lpSolve::lp("min", rep(1, 2L * n), rbind(cbind(A, -A), cbind(A, -A)),
                          rep(c("<=", ">="), each = length(z)), c(target + tolerance, target - tolerance))
  if (solution$status != 0L) {
    fail("The linear program for the %s in dimension %d found no radial measure within tolerance = %s on [0, z_max = %s] (lpSolve status %d); raise `tolerance` or lower `z_max`.",
         kernel_label(kernel), d, format(tolerance), format(z_max), solution$status)
  }
  weight <- solution$solution[seq_len(n)] - solution$solution[n + seq_len(n)]
  keep <- abs(weight) > 1e-12
  lp <- list(radius = radius[keep], weight = weight[keep], tolerance = tolerance, z_max = z_max)
  lp$bias_bound <- lp_bias_bound(kernel, d, lp)
  assign(key, lp, envir = lp_cache)
  lp
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
  target <- core(.cpp_lp_target(kernel, z))
  error <- core(.cpp_omega_matrix(d, z, lp$radius)) %*% lp$weight - target
  target_curvature <- max(abs(diff(target, differences = 2L))) / h^2
  atom_curvature <- sum(abs(lp$weight) * lp$radius^2) / d
  max(abs(error)) + h^2 / 8 * (atom_curvature + target_curvature)
}
