# The kernel a pair of periodic maps approximates in expectation: a kernel
# object whose Gram matrix the core sums as a series.

#' The kernel a pair of periodic maps approximates
#'
#' The expectation of [rpf_kernel_matrix()] with maps `left` and `right`
#' (Schellekens and Jacques 2020, Prop. 3, rescaled by
#' \eqn{1/\langle f, g\rangle} as the estimator is):
#' \deqn{k_{f,g}(u) = \frac{1}{\langle f, g\rangle}\sum_{k \ne 0} F_k G_k\, k(ku)
#'   = \sum_{k \ge 1} \frac{2 F_k G_k}{\langle f, g\rangle}\, k(ku).}
#' With a cosine on either side only \eqn{k = 1} remains, and \eqn{k_{f,g} = k}.
#' Two square waves give the distorted kernel
#' \eqn{\frac{8}{\pi^2}\sum_{k \text{ odd}} k(ku)/k^2}; for the Gaussian kernel
#' it falls linearly at the origin, \eqn{1 - \frac{2\sqrt 2}{\pi^{3/2}}\|u\|/\sigma}
#' (Schellekens and Jacques (2020), eq. 16, have \eqn{\sqrt 2} for
#' \eqn{2\sqrt 2}; see the section "The distorted kernel of one-bit
#' products" in `vignette("mathematics", package = "askrff")`).
#'
#' The series is summed until the rest is provably below `tolerance` times
#' \eqn{k(0)}: \eqn{|F_k| \le 4/(2\pi k)} (total variation 4 over a period)
#' bounds the weights after term \eqn{K} by \eqn{8/(\pi^2 K \langle f, g\rangle)},
#' and \eqn{k(tu)} does not increase in \eqn{t}. Equal points give
#' \eqn{k(0)} exactly.
#'
#' Close points would need many terms (about \eqn{14\sigma/\|u\|_1} for the
#' Laplace kernel), so for two step functions (square waves and quantizers)
#' the kernel there is computed from \eqn{E\,h(T)/\langle f, g\rangle}, with
#' \eqn{h} their cross-correlation (piecewise linear, \eqn{h(0) + s|t|}
#' near 0) and \eqn{T = \omega^\top u}: for a Gaussian component \eqn{T} is
#' normal and \eqn{E\,h(T) = h(0) + s\,E|T|} while \eqn{T} stays within the
#' linear part; for the Laplace kernel \eqn{T} is Cauchy with scale
#' \eqn{\|u\|_1/\sigma}, and \eqn{E\,h(T)} over its law wrapped to
#' \eqn{[-\pi, \pi]} is a closed form plus a tabulated correction for the
#' kinks of \eqn{h} away from 0. Every entry then takes a bounded number of
#' operations (for 8-bit quantizers, at most about 900 terms per component
#' for the Laplace kernel and 14000 for a Gaussian one).
#'
#' @param kernel A positive definite kernel, as for [rpf_map()].
#' @param left,right The periodic maps: `"cos"`, `"square"` or a quantizer
#'   from [rpf_quantizer()].
#' @param tolerance Absolute accuracy relative to \eqn{k(0)}, between 1e-6
#'   and 0.1.
#' @return A kernel object of class `c("rpf_expected_kernel", "askrff_kernel")`
#'   for [kernel_matrix()].
#' @template ref-schellekens2020
#' @family random periodic features
#' @examples
#' k_qq <- rpf_expected_kernel(gaussian_kernel(1.5), "square", "square")
#' k_qq
#' u <- cbind(seq(0, 5, by = 0.5), 0)
#' cbind(distance = u[, 1], gaussian = kernel_matrix(gaussian_kernel(1.5), u, matrix(0, 1, 2)),
#'       distorted = kernel_matrix(k_qq, u, matrix(0, 1, 2)))
#' @export
rpf_expected_kernel <- function(kernel, left = "square", right = "cos", tolerance = 1e-6) {
  kernel <- check_periodic_kernel(validate_kernel(kernel))
  left <- as_periodic_function(left, "left")
  right <- as_periodic_function(right, "right")
  if (!is_single_number(tolerance) || !is.finite(tolerance) || tolerance < 1e-6 || tolerance > 0.1) {
    fail("`tolerance` must be a single number between 1e-6 and 0.1.")
  }
  expected <- new_kernel("rpf_expected", c(kernel$params, list(tolerance = as.double(tolerance))),
                         "expected", sprintf("sum_{k >= 1} (2 F_k G_k / <f, g>) k0(k (x - y)) with k0 the %s, f = %s, g = %s (to %s k0(0))",
                                             kernel_label(kernel), left$name, right$name, format(tolerance)))
  expected$settings <- list(base = kernel$name, left = left$name, right = right$name)
  expected$base <- kernel
  expected
}
