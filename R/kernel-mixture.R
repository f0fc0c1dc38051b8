# Signed mixtures of Gaussian kernels: the simplest indefinite kernels, whose
# spectral measure is a signed mixture of normal laws.

#' Delta-Gaussian kernel: a signed mixture of Gaussian kernels
#'
#' \eqn{k(x, y) = \sum_i w_i \exp(-\|x - y\|^2 / (2\sigma_i^2))} with weights of
#' any sign. The defaults give the Delta-Gaussian kernel of the papers,
#' \eqn{\exp(-\|\Delta\|^2/2) - \exp(-\|\Delta\|^2/200)}, which is indefinite.
#' Its spectral measure is the signed radial density
#' \deqn{\mu(\omega) = \sum_i w_i (\sigma_i/\sqrt{2\pi})^d e^{-\sigma_i^2\|\omega\|^2/2}}
#' (Luo et al. (2021), eq. 20, omit the \eqn{(2\pi)^{-d/2}}; see the section
#' "The constant of the spectral densities" in
#' `vignette("mathematics", package = "askrff")`), split into the positive
#' parts `pos` and `neg`, \eqn{\mu = \mu^+ - \mu^-}.
#'
#' [rff_map()] takes `decomposition = "jordan"` (default), the minimal Jordan
#' decomposition \eqn{\mu^\pm = \max(0, \pm\mu)}, with exact masses from
#' chi-square probabilities between the radii where \eqn{\mu} changes sign
#' and an exact rejection sampler; or `decomposition = "components"`, the
#' split of Liu et al. (2021) that puts each component in the part of its
#' sign (masses \eqn{\sum_i \max(0, \pm w_i)}). The minimal parts have the
#' smaller masses, which lowers the variance noticeably only for
#' \eqn{d \le 3} (the vignette's section "The minimal decomposition of the
#' Delta-Gaussian").
#' Both parts are rotation invariant, so `method = "orthogonal"` applies (GORF, Luo et al.
#' 2021).
#'
#' @param weights Nonzero weights \eqn{w_i}, a numeric vector.
#' @param sigmas Bandwidths \eqn{\sigma_i}: distinct positive numbers, one per weight.
#' @return A kernel object of class `c("delta_gaussian_kernel", "askrff_kernel")`.
#' @template ref-liu2021
#' @template ref-luo2021
#' @family kernels
#' @family indefinite kernels
#' @examples
#' k <- delta_gaussian_kernel()
#' k
#' spectral_measure(k, d = 2)
#' spectral_measure(k, d = 2, decomposition = "components")
#' @export
delta_gaussian_kernel <- function(weights = c(1, -1), sigmas = c(1, 10)) {
  if (!is.numeric(weights) || length(weights) < 1L || anyNA(weights) || any(!is.finite(weights)) || any(weights == 0)) {
    fail("`weights` must be a numeric vector of finite, nonzero values.")
  }
  if (!is.numeric(sigmas) || anyNA(sigmas) || any(!is.finite(sigmas)) || any(sigmas <= 0)) {
    fail("`sigmas` must be a numeric vector of finite positive values.")
  }
  if (length(sigmas) != length(weights)) {
    fail("`sigmas` must have one value per weight: %d weights, %d sigmas.", length(weights), length(sigmas))
  }
  if (anyDuplicated(sigmas)) fail("`sigmas` must be distinct; add up the weights of equal bandwidths.")
  check_weight_scale(sum(abs(weights)), "weights")
  new_kernel("delta_gaussian", list(weights = as.double(weights), sigmas = as.double(sigmas)),
             "Delta-Gaussian", "sum_i weights_i exp(-||x - y||^2 / (2 sigmas_i^2))")
}
