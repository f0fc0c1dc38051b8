# The spectral measure of a kernel: its positive parts, their total masses, and
# the laws the frequencies are drawn from. The C++ core holds the mathematics.

#' Spectral measure of a kernel
#'
#' The Fourier transform \eqn{\mu} of a stationary kernel,
#' \eqn{k(\Delta) = \int e^{i\omega'\Delta} \mu(\omega) d\omega}, split into
#' positive parts. A positive definite kernel has one part, `pos`, a probability
#' measure when \eqn{k(0) = 1}. An asymmetric kernel has a complex measure
#' \eqn{\mu = \mu_R + i\mu_I}; its Jordan decomposition gives the parts
#' `real_pos`, `real_neg` and `imag_pos` (the negative imaginary part mirrors
#' `imag_pos`), and the kernel is estimated by
#' \deqn{k(\Delta) = \|\mu_R^+\| E\cos(\omega'\Delta) - \|\mu_R^-\| E\cos(\zeta'\Delta)
#'   - 2\|\mu_I^+\| E\sin(\nu'\Delta).}
#' With `decomposition = "phase"` it has the one part `abs`, \eqn{|\mu|},
#' and \eqn{k(\Delta) = \|\mu\| E\cos(\omega'\Delta + \theta(\omega))} with
#' \eqn{\theta} the phase of \eqn{\mu} (see the section "Sampling the modulus:
#' the phase form" in `vignette("mathematics", package = "askrff")`).
#'
#' Every part's estimator term is `coefficient * mass * E cos(w'(x - y) +
#' left phase - right_phase)` under the part's normalised law; `right_phase =
#' pi/2` turns the right-hand cosine and sine into \eqn{\psi = (-\sin, \cos)}.
#'
#' @param kernel A kernel object, such as [gaussian_kernel()].
#' @param d Dimension of the data, a positive whole number.
#' @param ... Kernel-specific settings, as in [rff_map()].
#' @return An object of class `"askrff_measure"`: a list with `kernel`, `d`,
#'   `settings` and `parts`, a data frame with one row per positive part: its
#'   name, total `mass`, whether the mass is `exact`, its `coefficient` in the
#'   estimator, the `right_phase` of the right-hand features, whether the part
#'   carries a left phase (`phased`), whether it supports `orthogonal`
#'   sampling, and the `density_variable` that [plot()] shows for it.
#' @template ref-rahimi2007
#' @template ref-he2022
#' @template ref-liu2021
#' @family measures
#' @examples
#' m <- spectral_measure(gaussian_kernel(1), d = 8)
#' m
#' plot(m)
#' spectral_measure(shift_gaussian_kernel(2, 2 / 16), d = 16)
#' @export
spectral_measure <- function(kernel, d, ...) {
  kernel <- check_has_measure(validate_kernel(kernel))
  d <- check_count(d, "d")
  settings <- resolve_kernel_settings(kernel, list(...))
  check_kernel_dimension(kernel, d)
  spec <- kernel_with_settings(kernel, settings, d)
  parts <- core(.cpp_measure_parts(spec, d))
  structure(list(kernel = kernel, d = d, settings = settings, parts = parts, lp = spec$lp, numeric = spec$numeric,
                 format_version = format_version),
            class = "askrff_measure")
}

law_description <- c(radius = "rotation invariant", coordinate = "product law",
                     projection = "tilted Gaussian", convolution = "convolution of the factors' laws")

feature_description <- c(step = "sqrt(2) step(w'x), w ~ N(0, I) (arc-cosine order 0, exact)",
                         relu = "sqrt(2) relu(w'x), w ~ N(0, I) (arc-cosine order 1, exact)",
                         ntk = "sqrt(2) relu(w'x) and sqrt(2) x step(w'x), w ~ N(0, I) (NTK, exact)")

bias_bound_line <- function(bound, z_max) {
  if (is.null(z_max)) return(sprintf("bias at most ~%s (tabulated measure)", formatC(bound, format = "e", digits = 2)))
  sprintf("bias at most %s for ||x - y|| <= %s (LP measure)", formatC(bound, format = "e", digits = 2), format(z_max, digits = 4))
}

#' @export
print.askrff_measure <- function(x, ...) {
  x <- validate_measure(x, "x")
  cat("<askrff spectral measure> ", kernel_label(x$kernel), ", d = ", x$d, "\n", sep = "")
  parts <- x$parts
  shown <- data.frame(part = parts$part, mass = vapply(parts$mass, format, "", digits = 7),
                      exact = ifelse(parts$exact, "exact", "estimated"),
                      coefficient = sprintf("%+g", parts$coefficient),
                      right = ifelse(parts$right_phase == 0, "phi", "psi"),
                      phase = ifelse(parts$phased, "yes", "no"),
                      law = law_description[parts$density_variable])
  print(shown, row.names = FALSE, right = FALSE)
  kind <- parts$features[1L]
  if (kind != "trig") cat("features: ", feature_description[[kind]], "\n", sep = "")
  if (!is.null(x$lp)) {
    cat(sprintf("%d atoms with radii in [%s, %s], fitted to tolerance %s\n", length(x$lp$radius),
                format(min(x$lp$radius), digits = 3), format(max(x$lp$radius), digits = 3), format(x$lp$tolerance)))
    cat(bias_bound_line(x$lp$bias_bound, x$lp$z_max), "\n", sep = "")
  }
  if (!is.null(x$numeric)) cat(numeric_measure_line(x$numeric), "\n", sep = "")
  invisible(x)
}

#' @export
summary.askrff_measure <- function(object, ...) {
  object <- validate_measure(object, "object")
  parts <- object$parts
  structure(list(kernel = object$kernel, d = object$d,
                 parts = data.frame(part = parts$part, mass = parts$mass, exact = parts$exact,
                                    coefficient = parts$coefficient, law = law_description[parts$density_variable],
                                    stringsAsFactors = FALSE),
                 total_mass = sum(abs(parts$coefficient) * parts$mass), k0 = kernel_at_zero(object$kernel, object$d),
                 bias_bound = c(object$lp$bias_bound, object$numeric$bias),
                 bias_of = if (is.null(object$lp)) "tabulated" else "LP"),
            class = "summary.askrff_measure")
}

#' @export
print.summary.askrff_measure <- function(x, ...) {
  cat("<askrff measure summary> ", kernel_label(x$kernel), ", d = ", x$d, "\n", sep = "")
  print(x$parts, row.names = FALSE)
  cat(sprintf("sum of |coefficient| x mass: %s; k(0) = %s\n", format(x$total_mass, digits = 6), format(x$k0, digits = 6)))
  if (!is.null(x$bias_bound)) cat(sprintf("bias bound of the %s measure: %s\n", x$bias_of,
                                          formatC(x$bias_bound, format = "e", digits = 2)))
  invisible(x)
}

#' Plot a spectral measure
#'
#' Draws each positive part's density times its mass, parts with a negative
#' coefficient below the axis: the density of the radius \eqn{\|\omega\|}
#' (with its \eqn{S_{d-1} r^{d-1}} Jacobian) for a rotation-invariant part, of
#' the projection \eqn{a'\omega/\|a\|} on the kernel's direction \eqn{a}
#' (the shift, or \eqn{-\sigma^2\beta}) for the asymmetric kernels, of the
#' first coordinate otherwise. The x-axis names the variable (and the
#' direction projected on), and its range ends where every part's density
#' has fallen below 1e-3 of its peak.
#'
#' An LP measure (kernels on the sphere) is drawn in two panels: left, the
#' exact measure's radial densities \eqn{\mu^\pm} from [radial_density()],
#' the picture of Fig. 1 of Liu et al. (2021) (with the Jacobian their figure omits,
#' which is why these masses are infinite); right, the measure askrff samples,
#' its atoms as spikes of height \eqn{c_j}, coloured by part, and the
#' split-off cusp law, if any, as a dashed curve, with a legend.
#'
#' @param x An `"askrff_measure"` from [spectral_measure()].
#' @param n_points Number of grid points.
#' @param ... Further arguments to [graphics::matplot()].
#' @return `x`, invisibly.
#' @template ref-liu2021
#' @family measures
#' @examples
#' plot(spectral_measure(delta_gaussian_kernel(), d = 3))
#' plot(spectral_measure(poly_sphere_kernel(2, 1), d = 16))
#' @export
plot.askrff_measure <- function(x, n_points = 400, ...) {
  x <- validate_measure(x, "x")
  n_points <- check_count(n_points, "n_points", max = 1e6)
  parts <- x$parts
  spec <- kernel_with_settings(x$kernel, x$settings, x$d)
  title <- sprintf("%s, d = %d", kernel_label(x$kernel), x$d)
  if (!is.null(x$lp)) return(plot_lp_measure(x, spec, n_points, title, ...))
  if (any(parts$density_variable == "convolution")) {
    fail("The parts of a product kernel are convolutions of its factors' laws, whose densities askrff does not compute; plot the factors' measures.")
  }
  variable <- parts$density_variable[1]
  grid <- mass_range(x, spec, variable, n_points)
  curves <- part_curves(x, spec, grid)
  colours <- part_colours(nrow(parts))
  draw_with_defaults(graphics::matplot, list(x = grid, y = curves, type = "l", lty = 1, lwd = 2, col = colours,
                                             xlab = axis_label(variable, core(.cpp_part_directions(spec, x$d))[, 1L]), ylab = "mass x density",
                                             main = title), list(...))
  graphics::abline(h = 0, col = "grey")
  graphics::legend("topright", legend = parts$part, col = colours, lty = 1, lwd = 2, bty = "n")
  invisible(x)
}

part_colours <- function(n) grDevices::hcl.colors(max(n, 2L), "Dark 3")[seq_len(n)]

# A grid over where the parts' mass lies: from 0 (radius) or symmetric about
# 0, out to where every density has fallen below 1e-3 of its peak, then
# trimmed to where some curve is still above that level, so a measure
# tilted to one side is not drawn with an empty half.
mass_range <- function(x, spec, variable, n_points) {
  upper <- max(vapply(seq_len(nrow(x$parts)), function(p) density_extent(spec, x$d, p), 0))
  if (variable == "radius") return(seq(0, upper, length.out = n_points))
  wide <- seq(-upper, upper, length.out = 4L * n_points)
  height <- apply(abs(part_curves(x, spec, wide)), 1L, max)
  inside <- range(which(height > 1e-3 * max(height)))
  seq(wide[max(1L, inside[1L] - 1L)], wide[min(length(wide), inside[2L] + 1L)], length.out = n_points)
}

# Each part's density times its mass, negative parts below the axis.
part_curves <- function(x, spec, grid) {
  parts <- x$parts
  vapply(seq_len(nrow(parts)), function(p) {
    sign(parts$coefficient[p]) * parts$mass[p] * core(.cpp_part_density(spec, x$d, p, grid))
  }, numeric(length(grid)))
}

# Two panels under one title: the exact measure's radial densities, and the
# atoms askrff samples, coloured by part, with the split-off cusp law.
plot_lp_measure <- function(x, spec, n_points, title, ...) {
  old <- graphics::par(mfrow = c(1L, 2L), oma = c(0, 0, 2, 0))
  on.exit(graphics::par(old))
  upper <- max(x$lp$radius) * 1.1
  grid <- seq(0, upper, length.out = n_points)
  exact <- radial_density(x$kernel, x$d, grid)
  colours <- part_colours(2L)
  draw_with_defaults(graphics::matplot, list(x = grid, y = cbind(pmax(exact, 0), -pmax(-exact, 0)), type = "l", lty = 1,
                                             lwd = 2, col = colours, xlab = "radius ||w||", ylab = "radial density",
                                             main = "exact measure (infinite mass)"), list(...))
  graphics::abline(h = 0, col = "grey")
  graphics::legend("topleft", legend = c("mu+", "-mu-"), col = colours, lty = 1, lwd = 2, bty = "n")
  cusp <- part_curves(x, spec, grid)[, 1L]
  limits <- range(c(x$lp$weight, cusp, 0))
  graphics::plot(x$lp$radius, x$lp$weight, type = "h", lwd = 2, col = ifelse(x$lp$weight > 0, colours[1L], colours[2L]),
                 xlim = c(0, upper), ylim = limits, xlab = "radius ||w||", ylab = "atom weight",
                 main = sprintf("sampled: %d atoms, bias <= %s", length(x$lp$radius),
                                formatC(x$lp$bias_bound, format = "e", digits = 1)))
  graphics::abline(h = 0, col = "grey")
  has_cusp <- any(cusp > 0)
  if (has_cusp) graphics::lines(grid, cusp, col = "grey30", lwd = 2, lty = 2)
  graphics::legend("topright", legend = c("atoms of pos", "atoms of neg", if (has_cusp) "cusp law (pos)"),
                   col = c(colours, if (has_cusp) "grey30"), lty = c(1, 1, if (has_cusp) 2), lwd = 2, bty = "n")
  graphics::mtext(title, side = 3, outer = TRUE, line = 0.5, font = 2)
  invisible(x)
}

# How far from 0 the density of part p stays above 1e-3 of its peak, found
# on a doubling grid on both sides so no scale has to be known in advance.
density_extent <- function(spec, d, p) {
  at <- 2^seq(-12, 24, by = 0.25)
  values <- pmax(core(.cpp_part_density(spec, d, p, at)), core(.cpp_part_density(spec, d, p, -at)))
  above <- which(values > 1e-3 * max(values))
  at[max(above)]
}

#' Signed radial density of a spectral measure
#'
#' The density of \eqn{\|\omega\|} under the kernel's spectral measure
#' \eqn{\mu}, with its Jacobian: \eqn{S_{d-1} r^{d-1} \mu(r)}, where
#' \eqn{S_{d-1} = 2\pi^{d/2}/\Gamma(d/2)} is the area of the unit sphere. Its
#' positive and negative parts are the radial densities of \eqn{\mu^+} and
#' \eqn{\mu^-}; it integrates to \eqn{k(0)} when \eqn{\|\mu\|} is finite.
#' Papers that sample the radius in proportion to \eqn{|\mu(r)|}, such as
#' Luo et al. (2021), drop the Jacobian \eqn{r^{d-1}}; askrff never does (see
#' the section "The Jacobian of radial laws" in
#' `vignette("mathematics", package = "askrff")`).
#'
#' Closed forms for the Gaussian kernels; for the kernels on the sphere, the
#' Hankel transform \eqn{\mu(r) = (2\pi)^{-d} S_{d-1} \int_0^2 k(z) z^{d-1}
#' \Omega_d(rz) dz} computed stably (Gauss-Legendre after \eqn{z = 2 - t^2},
#' logs throughout).
#'
#' @param kernel A kernel whose spectral measure is rotation invariant:
#'   [gaussian_kernel()], [delta_gaussian_kernel()], or a kernel on the sphere.
#' @param d Dimension of the data.
#' @param radius Numeric vector of radii \eqn{r \ge 0}.
#' @return A numeric vector, the signed density at each radius.
#' @template ref-liu2021
#' @template ref-luo2021
#' @family measures
#' @examples
#' r <- seq(0, 1.5, by = 0.25)
#' radial_density(delta_gaussian_kernel(), d = 4, r)
#' @export
radial_density <- function(kernel, d, radius) {
  kernel <- validate_kernel(kernel)
  d <- check_count(d, "d")
  if (!is.numeric(radius) || is.object(radius) || anyNA(radius) || any(!is.finite(radius)) || any(radius < 0)) {
    fail("`radius` must be a numeric vector of finite, nonnegative values.")
  }
  if (!kernel_traits(kernel)$radial) {
    fail("The %s has no rotation-invariant spectral measure, so no radial density.", kernel_label(kernel))
  }
  check_kernel_dimension(kernel, d)
  core(.cpp_radial_density(density_form(kernel, d), d, as.double(radius)))
}

# The kernel as the core reads it for its radial density: as it is, unless R
# computes part of its core form (a radial kernel's table, an expression's
# terms), which the default settings then give.
density_form <- function(kernel, d) UseMethod("density_form")

#' @export
density_form.askrff_kernel <- function(kernel, d) kernel

#' @export
density_form.radial_kernel <- function(kernel, d) kernel_with_settings(kernel, resolve_kernel_settings(kernel, list()), d)

#' @export
density_form.sum_kernel <- density_form.radial_kernel

#' @export
density_form.product_kernel <- density_form.radial_kernel
