# Total masses of a map's positive parts: the exact ones it was sampled with,
# and the subset least-squares estimate of He et al. (2022), Algorithm 2, eq. 12.

#' Total masses of a map's positive parts
#'
#' The total mass of each positive part of the kernel's spectral measure, as
#' the map's features are weighted with it: `pos` for a positive definite
#' kernel; `pos` and `neg` for a signed measure; `real_pos`, `real_neg` and
#' `imag_pos` for an asymmetric kernel (`real_pos` and `imag_pos` for the
#' Sinh-Gaussian, whose real part is positive); `abs` under
#' `decomposition = "phase"`; in a kernel expression, each term's parts
#' prefixed by `k1.`, `k2.`, ...
#'
#' A part's mass in the kernel's measure is \eqn{a_p m_p}: the total mass
#' \eqn{m_p} of the law it samples (the `mass` column of the map's `parts`
#' and of [spectral_measure()]) times \eqn{a_p}, the magnitude of the
#' weights a kernel expression gives it (1 outside expressions). The part's
#' `coefficient` \eqn{c_p} in the estimator \eqn{c_p m_p E_p \cos(\dots)}
#' holds those weights times the part's own sign and factor (-2 for the
#' imaginary part of an asymmetric kernel, which stands for its mirror image
#' too; 1/2 for the sum and difference halves of a product of two
#' asymmetric parts). So `0.5 * matern_kernel(1, 1.5) + 2 *
#' gaussian_kernel(0.7)` has the masses 0.5 and 2, which add up to
#' \eqn{k(0) = 2.5}, and the Delta-Gaussian's `pos` and `neg` differ by
#' \eqn{k(0)}.
#'
#' @param map A map from [rff_map()] or [estimate_total_masses()].
#' @return A named numeric vector, one entry per positive part: \eqn{a_p m_p}.
#' @template ref-he2022
#' @template ref-liu2021
#' @family maps
#' @examples
#' total_masses(rff_map(gaussian_kernel(1), d = 2, n_features = 10, seed = 1))
#' total_masses(rff_map(shift_gaussian_kernel(2, 0.5), d = 4, n_features = 10, seed = 1))
#' @export
total_masses <- function(map) {
  map <- validate_map(map, kinds = "rff_map")
  part_masses(map)
}

# a_p m_p by part name, for a validated map: each part's mass in the
# kernel's measure, with the expression weights a_p the core reports.
part_masses <- function(map) {
  weight <- core(.cpp_part_weights(kernel_with_settings(map$kernel, map$settings, map$d), map$d))
  stats::setNames(weight * map$parts$mass, map$parts$part)
}

#' Estimate total masses from a subset of the data
#'
#' Algorithm 2 of He et al. (2022), AsK-RFF: with the map's frequencies
#' fixed, choose the masses \eqn{\xi} that make the approximate Gram matrix
#' of `x_subset` closest to the exact one in Frobenius norm,
#' \deqn{\min_\xi \|K - \xi_1 \Phi_\omega\Phi_\omega' + \xi_2 \Phi_\zeta\Phi_\zeta'
#'   + 2\xi_3 \Phi_\nu\Psi_\nu'\|_F^2,}
#' subject to \eqn{\xi \ge 0} and \eqn{\xi_1 - \xi_2 = k(0)} (a signed real
#' measure's masses must differ by \eqn{k(0)}). The sign of the last term is
#' `+`: the paper's eq. 12 prints `-`, which fits \eqn{k(x_j - x_i)} instead
#' (see the section "The sign in the subset least-squares estimator" in
#' `vignette("mathematics", package = "askrff")`). A kernel without a
#' `real_neg` part (Sinh-Gaussian) keeps \eqn{\xi_2 = 0}. The problem has at
#' most three variables, so it is solved exactly by enumerating its active
#' sets: on each, the equality-constrained least-squares solution has a
#' closed form, and the best feasible one is the optimum.
#'
#' The exact masses of [total_masses()] are available for every kernel in
#' askrff and should be preferred. The estimate is biased low when the number
#' of frequencies is small, because the sampled Gram matrices are noisy
#' regressors; at `d = 16` with 1024 frequencies per part (`n_features =
#' 3072, allocation = "equal"`) it is within about
#' 1% of the exact masses. The vignette "asymmetric-kernels" shows both.
#'
#' @param map A map from [rff_map()].
#' @param x_subset Numeric matrix or data frame with `map$d` columns and at
#'   least two rows (the paper uses 50 random training points).
#' @inheritParams kernel_matrix
#' @return The map with its masses replaced by the estimates, marked as not
#'   exact.
#' @template ref-he2022
#' @family maps
#' @examples
#' k <- cosh_gaussian_kernel(sigma = 2, beta = 0.5 * pi / 4)
#' map <- rff_map(k, d = 4, n_features = 256, seed = 1)
#' x <- matrix(runif(200), 50)
#' rbind(exact = total_masses(map), estimated = total_masses(estimate_total_masses(map, x)))
#' @export
estimate_total_masses <- function(map, x_subset, n_threads = NULL) {
  map <- validate_map(map, kinds = "rff_map")
  x <- check_data(x_subset, "x_subset", map$d)
  if (nrow(x) < 2L) fail("`x_subset` must have at least 2 rows.")
  check_projections(x, map$omega, "x_subset")
  n_threads <- resolve_threads(n_threads)
  parts <- map$parts
  normal <- mass_normal_equations(map, x, n_threads)
  # Parts of the real measure sampled without phase carry k(0) between them.
  real <- parts$right_phase == 0 & !parts$phased
  k0 <- kernel_at_zero(map$kernel, map$d)
  constraint <- if (any(real)) ifelse(real, parts$coefficient, 0) else NULL
  masses <- active_set_least_squares(normal$H, normal$g, normal$bb, constraint, k0)
  if (is.null(masses)) {
    fail("`x_subset` gives no feasible mass estimate (the sampled Gram matrices are degenerate on it); use total_masses(map), which is exact.")
  }
  map$parts$mass <- masses
  map$parts$exact <- FALSE
  map
}

# The normal equations of min ||vec(K) - A xi||^2, column p of A being part
# p's unit-mass Gram matrix times its coefficient: H = A'A, g = A'vec(K) and
# vec(K)'vec(K), summed over blocks of rows of K so that only a block of each
# Gram matrix exists at a time (about 32 MB each).
mass_normal_equations <- function(map, x, n_threads, block = max(1L, floor(2^22 / nrow(x)))) {
  n_parts <- nrow(map$parts)
  H <- matrix(0, n_parts, n_parts)
  g <- numeric(n_parts)
  bb <- 0
  for (start in seq(1L, nrow(x), by = block)) {
    rows <- x[start:min(nrow(x), start + block - 1L), , drop = FALSE]
    K <- as.vector(kernel_matrix(map$kernel, rows, x, n_threads = n_threads))
    A <- vapply(seq_len(n_parts), function(p) {
      map$parts$coefficient[p] * as.vector(unit_mass_gram(map, p, rows, x, n_threads))
    }, numeric(length(K)))
    H <- H + crossprod(A)
    g <- g + drop(crossprod(A, K))
    bb <- bb + sum(K^2)
  }
  list(H = H, g = g, bb = bb)
}

# Part p's estimator term with unit mass and coefficient one, as the map
# weighs it: the sum of cos(w'(x_i - y_j) + phase_left - phase_right) over
# its frequencies, divided by their expected number n share_p. It is the
# map restricted to part p, with the share that keeps that weight.
unit_mass_gram <- function(map, p, x, y, n_threads) {
  columns <- map$part == p
  # A part the allocation gave no frequency adds nothing, whatever its mass.
  if (!any(columns)) return(matrix(0, nrow(x), nrow(y)))
  unit <- map$parts[p, ]
  unit$coefficient <- 1
  unit$mass <- 1
  unit$share <- map$n_features * map$parts$share[p] / sum(columns)
  part_map <- structure(list(omega = map$omega[, columns, drop = FALSE], part = rep(1L, sum(columns)),
                             phase = map$phase[columns], parts = unit), class = map_class("rff_map"))
  core(.cpp_map_gram(part_map, x, y, n_threads))
}

# min ||b - A xi||^2 = bb - 2 g'xi + xi'H xi over xi >= 0, with
# constraint' xi = target when a constraint is given, from the normal
# equations H = A'A, g = A'b, bb = b'b. A convex quadratic program's optimum
# is the equality-constrained least-squares solution on its own active set,
# so try every set of free variables (at most 2^3), solve the KKT system of
# each, and keep the best solution that is feasible.
active_set_least_squares <- function(H, g, bb, constraint, target) {
  n <- ncol(H)
  # Without a constraint, all masses zero is a candidate too.
  best <- if (is.null(constraint)) numeric(n) else NULL
  best_objective <- if (is.null(constraint)) bb else Inf
  for (mask in seq_len(2^n - 1)) {
    free <- which(bitwAnd(mask, 2^(seq_len(n) - 1)) > 0)
    if (!is.null(constraint) && all(constraint[free] == 0)) next
    if (is.null(constraint)) {
      kkt <- H[free, free, drop = FALSE]
      rhs <- g[free]
    } else {
      kkt <- rbind(cbind(H[free, free, drop = FALSE], constraint[free]), c(constraint[free], 0))
      rhs <- c(g[free], target)
    }
    solution <- tryCatch(solve(kkt, rhs), error = function(e) NULL)
    if (is.null(solution)) next
    xi <- numeric(n)
    xi[free] <- solution[seq_along(free)]
    if (any(xi < 0)) next
    objective <- bb - 2 * sum(g * xi) + drop(crossprod(xi, H %*% xi))
    if (objective < best_objective) {
      best <- xi
      best_objective <- objective
    }
  }
  best
}
