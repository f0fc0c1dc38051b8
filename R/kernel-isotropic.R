# Isotropic kernels of statistics and Gaussian processes that are Gaussian
# scale mixtures (src/core/kernels/isotropic_kernels.cpp): Matérn, exponential,
# rational quadratic and generalized Gaussian, each with one length scale or
# one per coordinate.

isotropic_formula <- function(sigma, profile) {
  r <- if (length(sigma) == 1L) "||x - y|| / sigma" else "||(x - y) / sigma||"
  sprintf(profile, r)
}

# The smallest Matérn order whose frequencies are finite for every uniform
# in [2^-54, 1 - 2^-53] the sources use: the i.i.d. Gamma(nu) draw
# G' U^(1 / nu) (G' ~ Gamma(nu + 1) is at least exp(-58) there) stays above
# 2^-1075 from nu = 0.0545 on, the inverse CDF at 2^-54 from nu = 0.0504.
matern_min_nu <- 0.055

# The smallest generalized Gaussian power whose frequencies are finite for
# every pair of uniforms in [2^-54, 1 - 2^-53]: Kanter's S of index p / 2 is
# largest where its angle nears pi and its exponential nears 0 (both uniforms
# 1 - 2^-53), about exp(2 (72 + log(sin(pi p / 2))) / p - 37) there, and
# overflows from p = 0.189 down.
generalized_gaussian_min_power <- 0.19

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
#' frequencies have finite variance only for \eqn{\nu > 1}; for very small
#' \eqn{\nu} the largest draws leave the doubles. The frequency sources reach
#' tail probabilities down to \eqn{2^{-54}}, where \eqn{G \approx
#' (2^{-54})^{1/\nu}} falls below the smallest double (\eqn{2^{-1074}}) once
#' \eqn{\nu < 54/1074 \approx 0.05} and the frequency becomes infinite; with
#' the samplers' other factors the bound is 0.055, so smaller \eqn{\nu} are
#' refused.
#'
#' @param sigma Length scale: a positive number, or one per coordinate
#'   (\eqn{r = \|D^{-1}(x - y)\|} with \eqn{D = \mathrm{diag}(\sigma)}, as
#'   for [gaussian_kernel()]).
#' @param nu Smoothness \eqn{\nu}: a finite number of at least 0.055.
#' @return A kernel object of class `c("matern_kernel", "askrff_kernel")`.
#' @template ref-rahimi2007
#' @references Rasmussen, C. E. and Williams, C. K. I. (2006). Gaussian
#'   Processes for Machine Learning. MIT Press.
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
  if (nu < matern_min_nu) {
    fail("`nu` must be at least %s: below it the Gamma(nu) scales G of the frequencies Z sqrt(nu / G) / sigma underflow to 0 at the smallest uniforms (2^-54) the frequency sources use, and the frequencies would be infinite.",
         matern_min_nu)
  }
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
#' @template ref-rahimi2007
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
#' @template ref-rahimi2007
#' @references Rasmussen, C. E. and Williams, C. K. I. (2006). Gaussian
#'   Processes for Machine Learning. MIT Press.
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
#' [rff_map()] can drive. Its tails are heavy for small \eqn{p}: at the
#' uniforms nearest 0 and 1 that the sources use, \eqn{S} overflows the
#' doubles for \eqn{p < 0.19}, so those powers are refused.
#'
#' @inheritParams matern_kernel
#' @param power The power \eqn{p}, in \eqn{[0.19, 2]}.
#' @return A kernel object of class `c("generalized_gaussian_kernel", "askrff_kernel")`.
#' @template ref-rahimi2007
#' @references Kanter, M. (1975). Stable densities under change of scale and
#'   total variation inequalities. The Annals of Probability 3.
#' @family kernels
#' @examples
#' generalized_gaussian_kernel(sigma = 1, power = 1.5)
#' @export
generalized_gaussian_kernel <- function(sigma, power) {
  sigma <- check_scales(sigma, "sigma")
  if (!is_single_number(power) || !is.finite(power) || power <= 0 || power > 2) {
    fail("`power` must be a single number in (0, 2]: exp(-r^power) is positive definite for no other power.")
  }
  if (power < generalized_gaussian_min_power) {
    fail("`power` must be at least %s: below it the positive stable scales of index power / 2 behind the frequencies overflow at the extreme uniforms (2^-54 and 1 - 2^-53) the frequency sources use, and the frequencies would be infinite.",
         generalized_gaussian_min_power)
  }
  new_kernel("generalized_gaussian", list(sigma = sigma, power = as.double(power)),
             "generalized Gaussian", isotropic_formula(sigma, "exp(-(%s)^power)"))
}
