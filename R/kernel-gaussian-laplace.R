# The Gaussian and Laplace kernels: one scale parameter each, their measures
# sampled by the core (src/core/kernels/gaussian_kernel.cpp, laplace_kernel.cpp).

#' Gaussian kernel
#'
#' \eqn{k(x, y) = \exp(-\|x - y\|^2 / (2\sigma^2))}. Its spectral measure is the
#' normal law \eqn{N(0, \sigma^{-2} I)}, which is rotation invariant, so
#' every frequency source of [rff_map()] applies.
#'
#' With one `sigma` per coordinate (automatic relevance determination, "ARD")
#' the kernel is \eqn{\exp(-\|D^{-1}(x - y)\|^2 / 2)} with
#' \eqn{D = \mathrm{diag}(\sigma)}, and its measure \eqn{N(0, D^{-2})}.
#' Frequencies are drawn for the unit scale and divided coordinatewise by
#' \eqn{\sigma}, so orthogonal, structured and quasi-Monte Carlo frequencies
#' are orthogonal (or low-discrepancy) in the scaled space. Random periodic
#' features need one `sigma`.
#'
#' Other packages write the same kernel with an inverse width:
#' kernlab's `rbfdot(sigma = s)` is \eqn{\exp(-s\|x - y\|^2)} and
#' scikit-learn's `RBFSampler(gamma = g)` is \eqn{\exp(-g\|x - y\|^2)}, so
#' \eqn{s = g = 1/(2\sigma^2)} and \eqn{\sigma = 1/\sqrt{2s}}. A common
#' default for \eqn{\sigma} is the median distance between points,
#' [median_bandwidth()].
#'
#' @param sigma Bandwidth: a positive number, or one per coordinate.
#' @return A kernel object of class `c("gaussian_kernel", "askrff_kernel")`.
#' @template ref-rahimi2007
#' @family kernels
#' @examples
#' k <- gaussian_kernel(sigma = 2)
#' k
#' kernel_matrix(k, matrix(c(0, 1, 0, 0), 2))
#' # one length scale per coordinate
#' kernel_matrix(gaussian_kernel(c(1, 10)), matrix(c(0, 1, 0, 1), 2))
#' @export
gaussian_kernel <- function(sigma) {
  new_kernel("gaussian", list(sigma = check_scales(sigma, "sigma")),
             "Gaussian", if (length(sigma) == 1L) "exp(-||x - y||^2 / (2 sigma^2))" else "exp(-||(x - y) / sigma||^2 / 2)")
}

#' Laplace kernel
#'
#' \eqn{k(x, y) = \exp(-\|x - y\|_1 / \sigma)}, with the L1 distance. Its
#' spectral measure is the product of independent Cauchy laws with scale
#' \eqn{1/\sigma}. That measure is not rotation invariant, so it takes
#' independent or quasi-Monte Carlo frequencies (`method = "iid"` or `"qmc"`
#' in [rff_map()]), not orthogonal or structured ones.
#'
#' @param sigma Scale, a single positive number.
#' @return A kernel object of class `c("laplace_kernel", "askrff_kernel")`.
#' @template ref-rahimi2007
#' @family kernels
#' @examples
#' laplace_kernel(sigma = 1)
#' @export
laplace_kernel <- function(sigma) {
  new_kernel("laplace", list(sigma = check_positive_number(sigma, "sigma")),
             "Laplace", "exp(-||x - y||_1 / sigma)")
}
