# The penalized objectives of the kinked losses as quadratic programs, solved
# by HiGHS: an independent reference for rff_glm()'s quantile, hinge and
# support vector regression fits
# on the same features z, with the intercept unpenalized and row weights w.
# Each returns the minimum of sum_i w_i loss_i + lambda ||b||^2 and the
# minimizer (b0, b).

# The check loss of r = y - o - b0 - z b as r = u - v, u, v >= 0, whose
# minimum puts tau u + (1 - tau) v = rho_tau(r).
quantile_qp <- function(z, y, w, tau, lambda, offset = 0) {
  n <- nrow(z)
  w <- rep_len(w, n)
  p <- ncol(z) + 1L
  qp_solve(quadratic = c(0, rep(2 * lambda, p - 1L), rep(0, 2 * n)), linear = c(rep(0, p), w * tau, w * (1 - tau)),
           lower = c(rep(-Inf, p), rep(0, 2 * n)), constraints = cbind(1, z, diag(n), -diag(n)),
           lhs = y - offset, rhs = y - offset, p = p)
}

# The hinge loss of the class s = +-1 as xi >= 1 - s (b0 + z b), xi >= 0.
hinge_qp <- function(z, s, w, lambda, tolerance = 1e-10) {
  n <- nrow(z)
  w <- rep_len(w, n)
  p <- ncol(z) + 1L
  qp_solve(quadratic = c(0, rep(2 * lambda, p - 1L), rep(0, n)), linear = c(rep(0, p), w),
           lower = c(rep(-Inf, p), rep(0, n)), constraints = cbind(s, s * z, diag(n)), lhs = rep(1, n),
           rhs = rep(Inf, n), p = p, tolerance = tolerance)
}

# Support vector regression's epsilon-insensitive loss of r = y - o - b0 -
# z b as xi >= r - epsilon, xi >= -r - epsilon, xi >= 0, whose minimum puts
# xi = max(0, |r| - epsilon); with `squared` the loss xi^2.
svr_qp <- function(z, y, w, epsilon, lambda, offset = 0, squared = FALSE) {
  n <- nrow(z)
  w <- rep_len(w, n)
  p <- ncol(z) + 1L
  target <- y - offset
  qp_solve(quadratic = c(0, rep(2 * lambda, p - 1L), if (squared) 2 * w else rep(0, n)),
           linear = c(rep(0, p), if (squared) rep(0, n) else w), lower = c(rep(-Inf, p), rep(0, n)),
           constraints = rbind(cbind(1, z, diag(n)), cbind(-1, -z, diag(n))),
           lhs = c(target - epsilon, -target - epsilon), rhs = rep(Inf, 2 * n), p = p)
}

# min quadratic' x^2 / 2 + linear' x subject to lhs <= A x <= rhs and x >=
# lower, with HiGHS's feasibility tolerances at 1e-10 (its defaults, 1e-7,
# would decide the comparison's last digits) unless told otherwise.
qp_solve <- function(quadratic, linear, lower, constraints, lhs, rhs, p, tolerance = 1e-10) {
  k <- length(quadratic)
  q <- Matrix::sparseMatrix(i = seq_len(k), j = seq_len(k), x = quadratic, dims = c(k, k))
  solved <- highs::highs_solve(Q = q, L = linear, lower = lower, upper = rep(Inf, k), A = constraints, lhs = lhs,
                               rhs = rhs, control = highs::highs_control(primal_feasibility_tolerance = tolerance,
                                                                          dual_feasibility_tolerance = tolerance))
  if (solved$status_message != "Optimal") stop("HiGHS did not solve the quadratic program: ", solved$status_message)
  list(objective = solved$objective_value, coefficients = solved$primal_solution[seq_len(p)])
}

# The epsilon-insensitive loss of each residual, squared or not.
svr_loss <- function(r, epsilon, squared = FALSE) pmax(abs(r) - epsilon, 0)^(if (squared) 2 else 1)

# The check loss rho_tau(r) of each residual.
check_loss <- function(r, tau) r * (tau - (r < 0))
