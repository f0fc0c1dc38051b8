# Isotropic kernels of statistics and Gaussian processes that are Gaussian
# scale mixtures (src/core/isotropic_kernels.cpp): Matérn, exponential,
# rational quadratic and generalized Gaussian, each with one length scale or
# one per coordinate.

isotropic_formula <- function(sigma, profile) {
  r <- if (length(sigma) == 1L) "||x - y|| / sigma" else "||(x - y) / sigma||"
  sprintf(profile, r)
}

#' Matérn kernel
#'
#' \deqn{k(x, y) = \frac{2^{1-\nu}}{\Gamma(\nu)} \left(\sqrt{2\nu}\, r\right)^{\nu}
#'   K_\nu\!\left(\sqrt{2\nu}\, r\right), \quad r = \|x - y\| / \sigma,}
#' the parametrization of Rasmussen and Williams (2006, eq. 4.14), in which
#' \eqn{\nu \to \infty} gives the Gaussian kernel of the same \eqn{\sigma}.
#' \eqn{\nu = 1/2} is the exponential kernel \eqn{e^{-r}}; \eqn{\nu = 3/2}
#' and \eqn{5/2} are \eqn{(1 + t)e^{-t}} and \eqn{(1 + t + t^2/3)e^{-t}} with
#' \eqn{t = \sqrt{2\nu}\, r}, which [kernel_matrix()] uses for those orders.
#' Other orders below 50 use the Bessel function \eqn{K_\nu} (Boost.Math's,
#' and its leading expansions where \eqn{K_\nu} over- or underflows); from 50 on,
#' Debye's uniform expansion of \eqn{K_\nu} combined with Stirling's series
#' of \eqn{\Gamma(\nu)} (relative error below \eqn{10^{-13}}), so every
#' order costs the same and large orders approach the Gaussian kernel without
#' overflow.
#'
#' Its spectral measure is the multivariate Student t law with \eqn{2\nu}
#' degrees of freedom and scale \eqn{\sigma^{-1}}: \eqn{\omega = Z
#' \sqrt{\nu / G} / \sigma} with \eqn{Z \sim N(0, I_d)} and \eqn{G \sim
#' \mathrm{Gamma}(\nu, 1)}, sampled exactly. It is rotation invariant, so
#' every frequency source of [rff_map()] applies (quasi-Monte Carlo takes
#' \eqn{G} by its inverse CDF). Its tails are heavy for small \eqn{\nu}: the
#' frequencies have finite variance only for \eqn{\nu > 1}.
#'
#' @param sigma Length scale: a positive number, or one per coordinate
#'   (\eqn{r = \|D^{-1}(x - y)\|} with \eqn{D = \mathrm{diag}(\sigma)}, as
#'   for [gaussian_kernel()]).
#' @param nu Smoothness \eqn{\nu}: any positive finite number.
#' @return A kernel object of class `c("matern_kernel", "askrff_kernel")`.
#' @family kernels
#' @examples
#' k <- matern_kernel(sigma = 1, nu = 1.5)
#' k
#' x <- matrix(rnorm(20), 10)
#' map <- rff_map(k, d = 2, n_features = 2000, seed = 1)
#' max(abs(rff_kernel_matrix(map, x) - kernel_matrix(k, x)))
#' @export
matern_kernel <- function(sigma, nu) {
  sigma <- check_scales(sigma, "sigma")
  nu <- check_positive_number(nu, "nu")
  new_kernel("matern", list(sigma = sigma, nu = nu),
             "Mat\u00e9rn", isotropic_formula(sigma, "2^(1 - nu) / Gamma(nu) t^nu K_nu(t), t = sqrt(2 nu) %s"))
}

#' Exponential kernel
#'
#' \eqn{k(x, y) = \exp(-\|x - y\| / \sigma)}, with the Euclidean distance:
#' the Matérn kernel with \eqn{\nu = 1/2}, and not the [laplace_kernel()],
#' which uses the L1 distance. Its spectral measure is the multivariate Cauchy
#' law with scale \eqn{1/\sigma}, rotation invariant, so every frequency
#' source of [rff_map()] applies.
#'
#' @inheritParams matern_kernel
#' @return A kernel object of class `c("exponential_kernel", "askrff_kernel")`.
#' @family kernels
#' @examples
#' exponential_kernel(sigma = 2)
#' @export
exponential_kernel <- function(sigma) {
  sigma <- check_scales(sigma, "sigma")
  new_kernel("exponential", list(sigma = sigma), "exponential", isotropic_formula(sigma, "exp(-%s)"))
}

#' Rational quadratic kernel
#'
#' \eqn{k(x, y) = (1 + r^2 / (2\alpha))^{-\alpha}} with \eqn{r = \|x - y\| / \sigma}:
#' a mixture of Gaussian kernels over their inverse squared widths,
#' \eqn{k = E \exp(-\lambda r^2 / 2)} with \eqn{\lambda \sim
#' \mathrm{Gamma}(\alpha, \mathrm{rate} = \alpha)}; \eqn{\alpha \to \infty}
#' gives the Gaussian kernel. Its spectral measure is that mixture of normal
#' laws, \eqn{\omega = Z\sqrt{\lambda} / \sigma}, sampled exactly by every
#' frequency source of [rff_map()].
#'
#' @inheritParams matern_kernel
#' @param alpha Shape \eqn{\alpha}: any positive finite number.
#' @return A kernel object of class `c("rational_quadratic_kernel", "askrff_kernel")`.
#' @family kernels
#' @examples
#' rational_quadratic_kernel(sigma = 1, alpha = 2)
#' @export
rational_quadratic_kernel <- function(sigma, alpha) {
  sigma <- check_scales(sigma, "sigma")
  alpha <- check_positive_number(alpha, "alpha")
  new_kernel("rational_quadratic", list(sigma = sigma, alpha = alpha),
             "rational quadratic", isotropic_formula(sigma, "(1 + r^2 / (2 alpha))^(-alpha), r = %s"))
}

#' Generalized Gaussian (stable) kernel
#'
#' \eqn{k(x, y) = \exp(-r^p)} with \eqn{r = \|x - y\| / \sigma} and power
#' \eqn{p \in (0, 2]}: \eqn{p = 2} is a Gaussian kernel (of width
#' \eqn{\sigma/\sqrt 2}), \eqn{p = 1} the [exponential_kernel()]. It is
#' positive definite exactly for these powers: \eqn{e^{-s^{p/2}} = E e^{-sS}}
#' for a positive stable \eqn{S} of index \eqn{p/2}, so \eqn{k = E
#' \exp(-S r^2)} is a mixture of Gaussian kernels, and its spectral measure
#' the law of \eqn{\omega = Z\sqrt{2S}/\sigma}. \eqn{S} is drawn exactly by
#' Kanter's representation from two uniforms, which every frequency source of
#' [rff_map()] can drive.
#'
#' @inheritParams matern_kernel
#' @param power The power \eqn{p}, in \eqn{(0, 2]}.
#' @return A kernel object of class `c("generalized_gaussian_kernel", "askrff_kernel")`.
#' @family kernels
#' @examples
#' generalized_gaussian_kernel(sigma = 1, power = 1.5)
#' @export
generalized_gaussian_kernel <- function(sigma, power) {
  sigma <- check_scales(sigma, "sigma")
  if (!is_single_number(power) || !is.finite(power) || power <= 0 || power > 2) {
    fail("`power` must be a single number in (0, 2]: exp(-r^power) is positive definite for no other power.")
  }
  new_kernel("generalized_gaussian", list(sigma = sigma, power = as.double(power)),
             "generalized Gaussian", isotropic_formula(sigma, "exp(-(%s)^power)"))
}
