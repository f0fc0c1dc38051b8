# Radial kernels the user gives as an R function of the distance
# (src/core/kernels/radial_profile_kernel.*). R evaluates the function, in dimension
# d, on a table the core takes: no R code runs inside the core.

#' Radial kernel given as a function of the distance
#'
#' \eqn{k(x, y) = f(\|x - y\|)} for any vectorized R function `fun`, positive
#' definite or not. [kernel_matrix()] applies `fun` to the distances, so it is
#' exact. Random features need the kernel's spectral measure in the data's
#' dimension \eqn{d}, which askrff computes numerically.
#'
#' Two routes lead to it:
#'
#' * **`route = "density"`** (the default). `fun` is evaluated at the nodes
#'   of nested Gauss-Legendre rules (up to 8192 nodes) on \eqn{[0, z]}, where
#'   \eqn{z} is the distance beyond which \eqn{|f(r)| r^d} is below
#'   \eqn{10^{-16}} of its largest value. The radial spectral density
#'   \eqn{S_{d-1} r^{d-1}\mu(r)} is the Hankel transform
#'   \eqn{(2\pi)^{-d} S_{d-1}^2 r^{d-1} \int_0^z f(t) t^{d-1}
#'   \Omega_d(rt)\,dt} (as for the kernels on the sphere), tabulated on 8193
#'   radii over the range outside which its mass is below `accuracy` times
#'   its total variation, and split into its minimal Jordan parts `pos` and
#'   `neg`, whose masses are integrals of the table. Frequencies are drawn
#'   exactly from the table's piecewise-linear densities, so the features are
#'   unbiased for the tabulated measure, whose kernel differs from `fun` by at
#'   most the stated bias: the estimated mass outside the table, plus the
#'   table's interpolation error, plus the bound on the transform's rounding
#'   error, plus \eqn{|\int \mu - f(0)|}. Every frequency source applies.
#' * **`route = "lp"`**. When the spectral measure is not finite, or the
#'   density route cannot tabulate it (below), the L1-minimal discrete radial
#'   measure that matches `fun` within `tolerance` on the distances
#'   \eqn{[0, z_{max}]} you give, by linear program, with a bias bound over
#'   that range (as for [poly_sphere_kernel()]). The atoms' radii
#'   lie on 601 points in \eqn{[0, 240 \max(1, \sqrt{d/16}) / z_{max}]}, so
#'   a cusp that needs higher frequencies than that within `tolerance` makes
#'   the program infeasible.
#'
#' A finite spectral density needs `fun` to decay faster than \eqn{r^{-d}},
#' but the density route needs more, and checks it in this order; each
#' failure is an error that says which, and points to `route = "lp"`:
#'
#' 1. "`fun` decays too slowly for the density route": \eqn{|f(r)| r^d} must
#'    fall below \eqn{10^{-16}} of its peak by \eqn{r = 10^6}; \eqn{z} is where
#'    it does. A power \eqn{r^{-p}} with length scale \eqn{\ell} needs
#'    \eqn{p > d + 16 / \log_{10}(10^6/\ell)}.
#' 2. "varies on scales too fine to resolve": 8192 Gauss-Legendre nodes on
#'    \eqn{[0, z]} must resolve `fun` (its integrals against \eqn{1, t^2, t^4}
#'    agree between two rules to \eqn{10^{-12}}).
#' 3. "is computed only up to radius": the transform reaches radii up to about
#'    \eqn{13500 / z}, and the density's mass beyond must be below `accuracy`
#'    times its total variation. A kernel decaying like a power of \eqn{r} has
#'    a large \eqn{z} and usually fails here or at 2: \eqn{(1 + r^2)^{-6}} in
#'    \eqn{d = 9} has \eqn{z \approx 7 \cdot 10^5}, so radii up to 0.02 only.
#' 4. "has a heavy tail" (the density still falls slowly where the transform
#'    ends: a cusp at 0 such as \eqn{e^{-r}}) or "sinks into the rounding
#'    error" (see below): the mass beyond the last radius resolved is above
#'    `accuracy`; raising `accuracy` can help.
#'
#' The measure is computed once per dimension and settings, and kept for the
#' session. The route's settings are given to [rff_map()] and
#' [spectral_measure()]: `route`, `accuracy` (in \eqn{(10^{-12}, 0.01]},
#' default \eqn{10^{-6}}) for `"density"`, and `tolerance` (default
#' \eqn{10^{-3}}, an absolute error in the units of `fun`, so a kernel far
#' from unit size is best written as a multiple of one, whose term takes the
#' settings through [with_settings()]) and `z_max` (required, in
#' \eqn{(10^{-100}, 10^{100}]}) for `"lp"`.
#'
#' The Hankel transform cancels: far out, and the more so the higher the
#' dimension, the density is many orders of magnitude below the terms of its
#' sum. Each value is computed with a bound on its rounding error (that of
#' \eqn{\Omega_d}, evaluated in extended precision, and that of `fun`'s own
#' values, taken as relative errors of about \eqn{10^{-16}(1 + |\log
#' |f/\max|f||)} as for `exp()`), and a value below its bound counts as 0. Where
#' the density sinks below that bound while mass beyond still exceeds
#' `accuracy`, the route says so and refuses (raise `accuracy`, or use the LP
#' route). A kernel that equals a Gaussian \eqn{a e^{-r^2/(2s^2)}} to within
#' \eqn{10^{-8}} of its largest value takes that Gaussian's density in closed
#' form, plus the quadrature's for the rest where it resolves it (the bias
#' then includes the rest's size), so the Gaussian profile works in every
#' dimension (checked to \eqn{d = 128}). The transform takes one Bessel
#' function per node and radius; the first measure of a kernel takes about a
#' second even at \eqn{d = 128}.
#'
#' **Code travels with the kernel.** The kernel object holds `fun` itself, so
#' a radial kernel (or a map or fit made with one) that you load with
#' [readRDS()] runs its author's code whenever askrff evaluates it: load such
#' objects only from people you trust. Every other kernel holds numbers only,
#' which askrff checks as numbers and never evaluates.
#'
#' @param fun A vectorized function of the distance \eqn{r \ge 0}, returning
#'   finite numbers, with \eqn{f(0)} finite. The density route needs it to
#'   decay fast (Details: a power \eqn{r^{-p}} rarely suffices); the LP route
#'   takes any such function.
#' @return A kernel object of class `c("radial_kernel", "askrff_kernel")`.
#' @template ref-liu2021
#' @family kernels
#' @examples
#' k <- radial_kernel(function(r) exp(-r^2 / 2))
#' k
#' spectral_measure(k, d = 3)
#' # an indefinite kernel: a difference of Gaussians
#' dog <- radial_kernel(function(r) exp(-r^2 / 2) - exp(-r^2 / 8))
#' spectral_measure(dog, d = 3)
#' @export
radial_kernel <- function(fun) {
  if (!is.function(fun)) fail("`fun` must be a function of the distance, such as function(r) exp(-r^2 / 2).")
  evaluate_profile(fun, c(0, 0.5, 1, 2))
  new_kernel("radial", list(fun = fun), "radial", "fun(||x - y||)")
}

# fun at the distances r, checked: what it returns must be numeric, one
# finite value per distance.
evaluate_profile <- function(fun, r) {
  value <- tryCatch(fun(r), error = function(e) {
    fail("`fun` failed at distances in [%s, %s]: %s", format(min(r), digits = 3), format(max(r), digits = 3),
         conditionMessage(e))
  })
  if (!is.numeric(value) || is.object(value) || length(value) != length(r)) {
    fail("`fun` must return a numeric vector as long as its argument (it is called on vectors of distances); it returned %s.",
         if (is.numeric(value)) sprintf("%d values for %d distances", length(value), length(r)) else class(value)[1L])
  }
  bad <- which(!is.finite(value))
  if (length(bad) > 0L) {
    fail("`fun` must return finite values, but fun(%s) is %s.", format(r[bad[1L]], digits = 4), format(value[bad[1L]]))
  }
  as.double(value)
}

# The distance z beyond which |k(r)| r^d is below 1e-16 of its largest value,
# found on a grid of 8 points per octave over [1e-6, 1e6]: the range of the
# Hankel transform in dimension d. (A finite spectral density needs only
# decay faster than r^-d; the route needs this.)
profile_range <- function(fun, d) {
  z <- 2^(seq(-160, 160) / 8)
  value <- abs(evaluate_profile(fun, z))
  if (all(value == 0)) fail("`fun` is zero at every distance in [1e-6, 1e6]; a kernel needs f(r) != 0 somewhere.")
  log_mass <- log(value) + d * log(z)
  significant <- which(log_mass >= max(log_mass) - 37)
  last <- max(significant)
  if (last == length(z)) {
    fail("`fun` decays too slowly for the density route in dimension %d: it needs |f(r)| r^%d to fall below 1e-16 of its peak by r = 1e6, but it is still %s of it there (a power r^-p needs p above about %d + 16 / log10(1e6 / its length scale), and still larger to be resolved). Use route = \"lp\" with z_max, the largest distance your data have.",
         d, d, format(exp(log_mass[last] - max(log_mass)), digits = 2), d)
  }
  z[last + 1L]
}

# The radial kernel in dimension d as the core reads it: its profile at the
# rules' nodes, and the tabulated density (route "density") or the LP atoms
# (route "lp"), with what the route costs in accuracy under `numeric`.
#' @export
kernel_with_settings.radial_kernel <- function(kernel, settings, d) {
  kernel$settings <- settings
  fun <- kernel$params$fun
  if (identical(settings$route, "lp")) {
    if (is.null(settings$z_max) || settings$z_max == 0) {
      fail("route = \"lp\" needs `z_max`, the largest distance ||x - y|| the features must serve (the range of your data).")
    }
    return(with_lp_atoms(kernel, settings, d, radius_max = lp_radius_max(d) * 8 / settings$z_max))
  }
  z_range <- profile_range(fun, d)
  kernel$settings$z_range <- z_range
  kernel$settings$profile <- evaluate_profile(fun, core(.cpp_profile_nodes(z_range)))
  table <- radial_table(kernel, d, settings$accuracy, evaluate_profile(fun, 0),
                        note = sprintf(" (`fun` is taken on distances [0, z = %s], where |f(r)| r^%d falls below 1e-16 of its peak; the radii the transform reaches shrink like 1 / z, so a kernel that decays only like a power of r may not be resolved.)",
                                       format(z_range, digits = 3), d))
  with_radial_table(kernel, table)
}

# The kernel with its tabulated density for the core: the table, the mass
# below which a Jordan part is dropped and the bias bound (both the table's
# bias), and what it costs in accuracy under `numeric` for printing.
with_radial_table <- function(kernel, table) {
  kernel$settings$table_radius <- table$radius
  kernel$settings$table_density <- table$density
  kernel$settings$table_negligible <- table$bias
  kernel$settings$bias_bound <- table$bias
  kernel$numeric <- table[c("radius_min", "radius_max", "tail", "interpolation", "rounding", "mass_error", "bias")]
  kernel
}

radial_cache <- new.env(parent = emptyenv())

# The tabulated density, kept for the session under the values it was
# computed from; `k0` is k(0), which the density must integrate to. `note`
# follows the core's reason when that is the profile's range.
radial_table <- function(spec, d, accuracy, k0, note = "") {
  without_code <- rapply(list(spec$params, spec$terms), function(f) NULL, classes = "function", how = "replace")
  key <- object_digest(list("radial-v1", d, accuracy, spec$name, spec$settings$z_range, spec$settings$profile,
                            without_code))
  if (!is.null(radial_cache[[key]])) return(radial_cache[[key]])
  table <- tryCatch(core(.cpp_radial_table(spec, d, accuracy)), askrff_error = function(e) {
    if (!grepl("computed only up to radius|too fine to resolve", conditionMessage(e))) note <- ""
    fail("The %s has no spectral measure askrff can tabulate in dimension %d: %s.%s The LP route serves any kernel: route = \"lp\" with z_max, the largest distance your data have, for the L1-minimal discrete measure.",
         kernel_label(spec), d, conditionMessage(e), note)
  })
  r <- table$radius
  integral <- sum(diff(r) * (utils::head(table$density, -1L) + utils::tail(table$density, -1L)) / 2)
  table$radius_min <- min(r)
  table$radius_max <- max(r)
  table$mass_error <- abs(integral - k0)
  table$bias <- table$tail + table$interpolation + table$rounding + table$mass_error
  assign(key, table, envir = radial_cache)
  table
}

# An md5 digest of any R object, for the session's caches.
object_digest <- function(object) {
  file <- tempfile()
  on.exit(unlink(file))
  saveRDS(object, file, compress = FALSE)
  unname(tools::md5sum(file))
}

numeric_measure_line <- function(numeric) {
  sprintf("density tabulated on radii [%s, %s]: mass outside ~%s, interpolation error ~%s, rounding error <= %s, |integral - k(0)| = %s; bias at most ~%s",
          format(numeric$radius_min, digits = 4), format(numeric$radius_max, digits = 4),
          formatC(numeric$tail, format = "e", digits = 1),
          formatC(numeric$interpolation, format = "e", digits = 1), formatC(numeric$rounding, format = "e", digits = 1),
          formatC(numeric$mass_error, format = "e", digits = 1), formatC(numeric$bias, format = "e", digits = 1))
}

# The kernel matrix of fun at the distances.
#' @export
gram_matrix.radial_kernel <- function(kernel, x, y, n_threads) {
  distance <- sqrt(squared_distances(x, y))
  matrix(evaluate_profile(kernel$params$fun, as.vector(distance)), nrow(x), nrow(y))
}

# ||x_i - y_j||^2 over the pairs, on data centred on their midrange (as the
# core does) so large offsets cost no accuracy.
squared_distances <- function(x, y) {
  centre <- (apply(rbind(x, y), 2L, min) + apply(rbind(x, y), 2L, max)) / 2
  x <- sweep(x, 2L, centre)
  y <- sweep(y, 2L, centre)
  pmax(outer(rowSums(x^2), rowSums(y^2), "+") - 2 * tcrossprod(x, y), 0)
}

# The linear program of route "lp" fits the function itself.
#' @export
lp_target.radial_kernel <- function(kernel, z) evaluate_profile(kernel$params$fun, z)
