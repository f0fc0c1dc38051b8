# The asymmetric kernels of AsK-RFF (He et al. 2022, eqs 9-11), k(x, y) = k(x - y).
# Their spectral measures are complex; see spectral_measure() and the
# vignette "mathematics".

#' Shift-Gaussian kernel
#'
#' \eqn{k(x, y) = \exp(-\|x - y + r\|^2 / (2\sigma^2))}: a Gaussian kernel
#' whose peak is moved to \eqn{x - y = -r}, so \eqn{k(x, y) \ne k(y, x)}. Its
#' Fourier transform is the complex measure \eqn{\mu_g(\omega) e^{i r'\omega}},
#' with \eqn{\mu_g} the density of \eqn{N(0, \sigma^{-2} I)}, and
#' \eqn{k(0) = \exp(-\|r\|^2 / (2\sigma^2))}.
#'
#' The measure's parts (`real_pos`, `real_neg`, `imag_pos`) have exact total
#' masses from closed-form series and exact samplers, which lift a
#' one-dimensional law to \eqn{d} dimensions (see the section "Exact total
#' masses of the asymmetric kernels" in
#' `vignette("mathematics", package = "askrff")`);
#' [rff_map()] also takes `decomposition = "phase"`, which samples
#' \eqn{|\mu|} once and carries the phase on the left features (section
#' "Sampling the modulus: the phase form").
#'
#' @param sigma Bandwidth, a single positive number.
#' @param shift The shift \eqn{r}: a numeric vector with one entry per
#'   coordinate, or a single number meaning that value in every coordinate.
#' @return A kernel object of class `c("shift_gaussian_kernel", "askrff_kernel")`.
#' @template ref-he2022
#' @family kernels
#' @family asymmetric kernels
#' @examples
#' k <- shift_gaussian_kernel(sigma = 2, shift = 0.5)
#' x <- matrix(c(0, 1), 2, 1)
#' kernel_matrix(k, x) # not symmetric
#' @export
shift_gaussian_kernel <- function(sigma, shift) {
  new_kernel("shift_gaussian",
             list(sigma = check_positive_number(sigma, "sigma"), shift = check_coordinates(shift, "shift")),
             "Shift-Gaussian", "exp(-||x - y + shift||^2 / (2 sigma^2))")
}

#' Sinh-Gaussian kernel
#'
#' \eqn{k(x, y) = \exp(-\|\Delta\|^2 / (2\sigma^2)) (1 + \sinh(\beta'\Delta))}
#' with \eqn{\Delta = x - y}. Its Fourier transform is
#' \eqn{\mu_g(\omega)[1 - i e^{\sigma^2\|\beta\|^2/2} \sin(\sigma^2\beta'\omega)]}:
#' the real part is the Gaussian measure, so the measure has no `real_neg`
#' part, and the imaginary part's mass grows like
#' \eqn{e^{\sigma^2\|\beta\|^2/2}}.
#'
#' @inheritParams shift_gaussian_kernel
#' @param beta The skew direction \eqn{\beta}: a numeric vector with one entry
#'   per coordinate, or a single number meaning that value in every coordinate.
#'   \eqn{\sigma\|\beta\|} must be at most 37, beyond which the total masses
#'   overflow double precision. The masses, and with them the error of the
#'   random features, grow like \eqn{e^{\sigma^2\|\beta\|^2/2}}: a map prints
#'   the bound on each entry's standard deviation. With 256 frequencies per
#'   part (`n_features = 768, allocation = "equal"`) it is about 0.06 at \eqn{\sigma\|\beta\| = 1}, 14 at 3 and
#'   1.3e4 at 5, against \eqn{k(0) = 1}; the features are of use only
#'   for small \eqn{\sigma\|\beta\|}.
#' @return A kernel object of class `c("sinh_gaussian_kernel", "askrff_kernel")`.
#' @template ref-he2022
#' @family kernels
#' @family asymmetric kernels
#' @examples
#' sinh_gaussian_kernel(sigma = 2, beta = 0.1)
#' @export
sinh_gaussian_kernel <- function(sigma, beta) {
  new_kernel("sinh_gaussian",
             list(sigma = check_positive_number(sigma, "sigma"), beta = check_coordinates(beta, "beta")),
             "Sinh-Gaussian", "exp(-||x - y||^2 / (2 sigma^2)) (1 + sinh(beta'(x - y)))")
}

#' Cosh-Gaussian kernel
#'
#' \eqn{k(x, y) = \exp(-\|\Delta\|^2 / (2\sigma^2)) \exp(\beta'\Delta)} with
#' \eqn{\Delta = x - y} (the paper's name; there is no cosh in it). Its Fourier
#' transform is \eqn{e^{\sigma^2\|\beta\|^2/2} \mu_g(\omega) e^{-i\sigma^2\beta'\omega}},
#' so it is \eqn{e^{\sigma^2\|\beta\|^2/2}} times a Shift-Gaussian kernel with
#' \eqn{r = -\sigma^2\beta}.
#'
#' @inheritParams sinh_gaussian_kernel
#' @return A kernel object of class `c("cosh_gaussian_kernel", "askrff_kernel")`.
#' @template ref-he2022
#' @family kernels
#' @family asymmetric kernels
#' @examples
#' cosh_gaussian_kernel(sigma = 2, beta = 0.1)
#' @export
cosh_gaussian_kernel <- function(sigma, beta) {
  new_kernel("cosh_gaussian",
             list(sigma = check_positive_number(sigma, "sigma"), beta = check_coordinates(beta, "beta")),
             "Cosh-Gaussian", "exp(-||x - y||^2 / (2 sigma^2)) exp(beta'(x - y))")
}
