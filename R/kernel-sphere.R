# Kernels on the unit sphere, functions of z = ||x - y|| in [0, 2]: the
# polynomial kernel, the arc-cosine kernels and the two-layer ReLU NTK.
# Their stationary measures have infinite total mass in most dimensions
# (vignette "mathematics", "Infinite total masses on the sphere"), so askrff samples an L1-minimal discrete radial measure
# (lp-measure.R) or, for the arc-cosine kernels and the NTK, step and ReLU
# features of Gaussian projections, which are exact.

#' Polynomial kernel on the unit sphere
#'
#' \eqn{k(x, y) = (1 - \|x - y\|^2 / a^2)^p} for unit vectors \eqn{x, y}
#' (Pennington et al. 2015), an indefinite kernel. Its Fourier transform (with
#' \eqn{k = 0} beyond distance 2) is
#' \deqn{\mu(\rho) = (2\pi)^{-d/2} \sum_{i=0}^p \frac{p!}{(p-i)!}
#'   (1 - 4/a^2)^{p-i} (2/a^2)^i (2/\rho)^{d/2+i} J_{d/2+i}(2\rho)}
#' (Liu et al. (2021), eq. 4, and Luo et al. (2021), eq. 18, omit the
#' \eqn{(2\pi)^{-d/2}}; see the section "The constant of the spectral
#' densities" in `vignette("mathematics", package = "askrff")`), whose total
#' mass is infinite unless \eqn{a = 2} and \eqn{d \le 2p}: the papers' claim
#' of a finite mass drops the Jacobian \eqn{r^{d-1}} (the vignette's section
#' "Infinite total masses on the sphere"). Truncating the measure does not
#' work either (same section).
#'
#' askrff therefore samples an L1-minimal discrete radial measure (the
#' vignette's section "An L1-minimal discrete measure"):
#' atoms \eqn{c_j} at radii \eqn{r_j} chosen by a linear program (HiGHS, through the highs package) so
#' that \eqn{|\sum_j c_j \Omega_d(r_j z) - k(z)| \le} `tolerance` for every
#' distance \eqn{z \le} `z_max`, where \eqn{\Omega_d(t) = E\cos(t u_1)} for a
#' uniform direction \eqn{u}. The positive atoms form the part `pos`, the
#' negative ones `neg`; each part's frequencies are allocated to its atoms in
#' proportion to their weights (systematic sampling), and
#' `method = "orthogonal"` gives orthogonal directions within each atom. The
#' estimator is unbiased for the LP's kernel, whose distance from \eqn{k} is
#' at most the bias bound that [spectral_measure()] prints, for pairs at
#' distance at most `z_max`. The LP is solved once per kernel, dimension,
#' `tolerance` and `z_max` in an R session (about 2 s).
#'
#' Settings of [rff_map()] and [spectral_measure()]: `tolerance` (default
#' `1e-4`) and `z_max` (default 2, every pair on the sphere; use `sqrt(2)`
#' when the data lie in the nonnegative orthant, which lowers the masses
#' several-fold).
#'
#' @param a Scale, a single number \eqn{a \ge 2}.
#' @param p Degree, a single positive whole number.
#' @return A kernel object of class `c("poly_sphere_kernel", "askrff_kernel")`.
#'   Data must have rows of unit norm; see [normalize_rows()].
#' @references Pennington, J., Yu, F. X. and Kumar, S. (2015). Spherical
#'   random features for polynomial kernels. Advances in Neural Information
#'   Processing Systems 28 (NIPS 2015).
#' @template ref-liu2021
#' @template ref-luo2021
#' @family kernels
#' @family indefinite kernels
#' @examples
#' k <- poly_sphere_kernel(a = 2, p = 1)
#' m <- spectral_measure(k, d = 16)
#' m
#' x <- normalize_rows(matrix(runif(40), 10))
#' map <- rff_map(k, d = 4, n_features = 200, method = "orthogonal", seed = 1)
#' relative_error(kernel_matrix(k, x), rff_kernel_matrix(map, x))
#' @export
poly_sphere_kernel <- function(a = 2, p = 1) {
  if (!is_single_number(a) || !is.finite(a) || a < 2) fail("`a` must be a single number of at least 2.")
  p <- check_count(p, "p", max = 100)
  new_kernel("poly_sphere", list(a = as.double(a), p = as.double(p)), "polynomial-on-sphere",
             "(1 - ||x - y||^2 / a^2)^p, ||x|| = ||y|| = 1")
}

#' Arc-cosine kernel on the unit sphere
#'
#' The arc-cosine kernels of Cho and Saul (2009) for unit vectors, as functions of
#' \eqn{u = x'y} or of the distance \eqn{z = \|x - y\|}, \eqn{u = 1 - z^2/2}:
#' \deqn{\kappa_0 = 1 - \arccos(u)/\pi, \quad
#'   \kappa_1 = (u(\pi - \arccos u) + \sqrt{1 - u^2})/\pi.}
#' Both are stationary on the sphere but indefinite (Liu et al. 2021,
#' Corollary 4.1).
#'
#' The default route, `route = "dot_product"`, is exact in expectation:
#' \eqn{\kappa_0(x, y) = 2E[1\{w'x \ge 0\} 1\{w'y \ge 0\}]} and
#' \eqn{\kappa_1(x, y) = 2E[\max(w'x, 0)\max(w'y, 0)]} with \eqn{w \sim N(0, I)},
#' so [rff_features()] returns step or ReLU features (the functions of Liu
#' et al. (2021), remark (ii), are half of these; see the section "Arc-cosine
#' kernels and the NTK" in `vignette("mathematics", package = "askrff")`).
#' `method = "orthogonal"` draws the \eqn{w} as orthogonal Gaussian blocks.
#'
#' `route = "stationary"` samples the spectral measure instead. Its mass is
#' infinite (Liu et al. (2021), App. E, state a finite one; the vignette's
#' section "Infinite total masses on the sphere"), so for order 0 the
#' cusp at \eqn{z = 0} is split off as the positive definite kernel
#' \eqn{e^{-z/\pi}} (multivariate Cauchy frequencies) and the rest is an LP
#' measure exact to `tolerance` on \eqn{[0,} `z_max`\eqn{]}, `z_max < 2`; see
#' [poly_sphere_kernel()]. Defaults: `tolerance = 1e-3`, `z_max = 1.9` for
#' order 0 (which must stay below 2, where \eqn{\kappa_0} has a square-root
#' singularity) and 2 for order 1.
#'
#' @param order 0 or 1.
#' @return A kernel object of class `c("arccos_kernel", "askrff_kernel")`.
#'   Data must have rows of unit norm; see [normalize_rows()].
#' @references Cho, Y. and Saul, L. K. (2009). Kernel methods for deep
#'   learning. Advances in Neural Information Processing Systems 22 (NIPS
#'   2009).
#' @template ref-liu2021
#' @family kernels
#' @family indefinite kernels
#' @examples
#' k <- arccos_kernel(1)
#' x <- normalize_rows(matrix(rnorm(30), 10))
#' map <- rff_map(k, d = 3, n_features = 500, seed = 1)
#' relative_error(kernel_matrix(k, x), rff_kernel_matrix(map, x))
#' @export
arccos_kernel <- function(order = 0) {
  if (!is_single_number(order) || !order %in% c(0, 1)) fail("`order` must be 0 or 1.")
  new_kernel("arccos", list(order = as.double(order)), "arc-cosine",
             if (order == 0) "1 - arccos(x'y) / pi, ||x|| = ||y|| = 1"
             else "(x'y (pi - arccos(x'y)) + sqrt(1 - (x'y)^2)) / pi, ||x|| = ||y|| = 1")
}

#' Neural tangent kernel of a two-layer ReLU network on the unit sphere
#'
#' \eqn{k(x, y) = u\,\kappa_0(u) + \kappa_1(u)} with \eqn{u = x'y} and the
#' arc-cosine kernels of [arccos_kernel()]; as a function of \eqn{z = \|x - y\|},
#' \eqn{k = (2 - z^2)/\pi \arccos(z^2/2 - 1) + z\sqrt{4 - z^2}/(2\pi)}
#' (Liu et al. 2021, Theorem 4), with \eqn{k(0) = 2}. Indefinite on the
#' sphere.
#'
#' The default route gives its exact random features, the gradient features
#' of the network at a Gaussian initialisation: for each \eqn{w_f \sim N(0, I)}
#' a ReLU feature \eqn{\sqrt{2/F}\max(w_f'x, 0)} and the \eqn{d} features
#' \eqn{\sqrt{2/F}\,x_k 1\{w_f'x \ge 0\}}, so a map with \eqn{F} frequencies
#' has \eqn{(d + 1)F} features. `route = "stationary"` splits off the cusp and
#' uses an LP measure as for [arccos_kernel()] order 0 (`z_max < 2`).
#'
#' @return A kernel object of class `c("ntk_kernel", "askrff_kernel")`.
#'   Data must have rows of unit norm; see [normalize_rows()].
#' @references Jacot, A., Gabriel, F. and Hongler, C. (2018). Neural tangent
#'   kernel: convergence and generalization in neural networks. Advances in
#'   Neural Information Processing Systems 31 (NeurIPS 2018).
#'
#'   Bietti, A. and Mairal, J. (2019). On the inductive bias of neural tangent
#'   kernels. Advances in Neural Information Processing Systems 32 (NeurIPS
#'   2019).
#' @template ref-liu2021
#' @family kernels
#' @family indefinite kernels
#' @examples
#' k <- ntk_kernel()
#' x <- normalize_rows(matrix(rnorm(30), 10))
#' kernel_matrix(k, x)[1:3, 1:3]
#' @export
ntk_kernel <- function() {
  new_kernel("ntk", list(), "two-layer ReLU NTK",
             "(x'y) kappa_0(x'y) + kappa_1(x'y), ||x|| = ||y|| = 1")
}

# Kernels on the sphere take unit vectors only: say which row is not one and
# how to fix it, rather than return values of a kernel that is not defined there.
check_on_sphere <- function(kernel, x, name) {
  if (!kernel_traits(kernel)$on_sphere) return(invisible(x))
  norm2 <- rowSums(x^2)
  off <- which(abs(norm2 - 1) > 1e-6)
  if (length(off) > 0L) {
    fail("`%s` must have rows of unit norm for the %s; row %d has norm %s. Use normalize_rows(%s).",
         name, kernel_label(kernel), off[1L], format(sqrt(norm2[off[1L]]), digits = 12), name)
  }
  invisible(x)
}

# k(0): the kernel at a point and itself; a unit vector serves every kernel.
kernel_at_zero <- function(kernel, d) {
  e1 <- matrix(c(1, rep(0, d - 1L)), 1L)
  kernel_matrix(kernel, e1, e1)[1L, 1L]
}
