# The spectral measure of a kernel: its positive parts, their total masses, and
# the laws the frequencies are drawn from. The C++ core holds the mathematics.

#' Spectral measure of a kernel
#'
#' The Fourier transform \eqn{\mu} of a stationary kernel,
#' \eqn{k(\Delta) = \int e^{i\omega'\Delta} \mu(\omega) d\omega}, split into
#' positive parts. A positive definite kernel has one part, `pos`, a probability
#' measure when \eqn{k(0) = 1}.
#'
#' @param kernel A kernel object, such as [gaussian_kernel()].
#' @param d Dimension of the data, a positive whole number.
#' @return An object of class `"askrff_measure"`: a list with `kernel`, `d` and
#'   `parts`, a data frame with one row per positive part: its name, total
#'   `mass`, whether the mass is `exact`, its `coefficient` in the estimator,
#'   the `right_phase` of the right-hand features, whether the part is
#'   `isotropic` (rotation invariant), and the `density_variable` that [plot()]
#'   shows for it.
#' @family measures
#' @examples
#' m <- spectral_measure(gaussian_kernel(1), d = 8)
#' m
#' plot(m)
#' @export
spectral_measure <- function(kernel, d) {
  check_kernel(kernel)
  d <- check_count(d, "d")
  structure(list(kernel = kernel, d = d, parts = .cpp_measure_parts(kernel, d)),
            class = "askrff_measure")
}

#' @export
print.askrff_measure <- function(x, ...) {
  cat("<askrff spectral measure> ", kernel_label(x$kernel), ", d = ", x$d, "\n", sep = "")
  parts <- x$parts
  shown <- data.frame(part = parts$part, mass = format(parts$mass, digits = 7),
                      exact = ifelse(parts$exact, "exact", "estimated"),
                      sign = ifelse(parts$coefficient < 0, "-", "+"),
                      law = ifelse(parts$isotropic, "rotation invariant", "not rotation invariant"))
  print(shown, row.names = FALSE, right = FALSE)
  invisible(x)
}

#' Plot a spectral measure
#'
#' Draws each positive part's density times its mass, negative parts below the
#' axis: the density of the radius \eqn{\|\omega\|} (with its
#' \eqn{S_{d-1} r^{d-1}} Jacobian) for a rotation-invariant part, of the first
#' coordinate otherwise.
#'
#' @param x An `"askrff_measure"` from [spectral_measure()].
#' @param n_points Number of grid points.
#' @param ... Further arguments to [graphics::matplot()].
#' @return `x`, invisibly.
#' @family measures
#' @export
plot.askrff_measure <- function(x, n_points = 400, ...) {
  n_points <- check_count(n_points, "n_points")
  parts <- x$parts
  radial <- all(parts$density_variable == "radius")
  upper <- max(vapply(seq_len(nrow(parts)), function(p) density_extent(x, p), 0))
  grid <- if (radial) seq(0, upper, length.out = n_points) else seq(-upper, upper, length.out = n_points)
  curves <- vapply(seq_len(nrow(parts)), function(p) {
    sign(parts$coefficient[p]) * parts$mass[p] * .cpp_part_density(x$kernel, x$d, p, grid)
  }, numeric(n_points))
  xlab <- if (radial) "radius ||w||" else "first coordinate w_1"
  graphics::matplot(grid, curves, type = "l", lty = 1, col = seq_len(nrow(parts)), xlab = xlab,
                    ylab = "mass x density", main = sprintf("%s, d = %d", kernel_label(x$kernel), x$d), ...)
  graphics::abline(h = 0, col = "grey")
  graphics::legend("topright", legend = parts$part, col = seq_len(nrow(parts)), lty = 1, bty = "n")
  invisible(x)
}

# Where the density of part p has fallen below 1e-3 of its peak, found on a
# doubling grid so no scale has to be known in advance.
density_extent <- function(measure, p) {
  at <- 2^seq(-12, 24, by = 0.25)
  values <- .cpp_part_density(measure$kernel, measure$d, p, at)
  above <- which(values > 1e-3 * max(values))
  at[max(above)]
}
