# Feature matrices and approximate Gram matrices from a sampled map.

#' Random Fourier feature matrix
#'
#' The left or right feature matrix of a map: one row per row of `x`, the
#' cosine block of every frequency followed by the sine block, each column
#' weighted by its part's mass, so that
#' `rff_features(map, x, "left") %*% t(rff_features(map, y, "right"))`
#' approximates `kernel_matrix(map$kernel, x, y)`. For a positive definite
#' kernel both sides are the same; use the left one as a design matrix.
#'
#' Maps of the arc-cosine and NTK kernels on their default route
#' (`route = "dot_product"`) have projection features instead: with
#' \eqn{F} = `ncol(map$omega)` frequencies \eqn{w_f \sim N(0, I)}, the
#' columns \eqn{\sqrt{2/F}\,1\{w_f'x \ge 0\}} (arc-cosine order 0),
#' \eqn{\sqrt{2/F}\max(w_f'x, 0)} (order 1), or for the NTK the \eqn{F} ReLU
#' columns followed by \eqn{d} blocks \eqn{\sqrt{2/F}\,x_k 1\{w_f'x \ge 0\}},
#' \eqn{k = 1, \dots, d} (see the section "Arc-cosine kernels and the NTK" in
#' `vignette("mathematics", package = "askrff")`).
#'
#' A map of [nystrom_map()] has `map$rank` columns on each side:
#' \eqn{K(x, Z)} times its left or right weights; maps of [maclaurin_map()]
#' and [tensor_sketch_map()] have `map$n_features`. The C++ core computes the
#' features of every kind of map, a block of rows at a time on `n_threads`
#' threads, and stops on a user interrupt. A map of [rpf_map()] has the
#' features of a periodic function: see [rpf_features()].
#'
#' @param map A map from [rff_map()], [nystrom_map()], [maclaurin_map()] or
#'   [tensor_sketch_map()].
#' @param x Numeric matrix or data frame with `map$d` columns.
#' @param side `"left"` (features of the first kernel argument) or `"right"`.
#' @inheritParams kernel_matrix
#' @return A `nrow(x)` by `2 * ncol(map$omega)` matrix (`ncol(map$omega)` for
#'   the arc-cosine features, `(d + 1) * ncol(map$omega)` for the NTK,
#'   `map$rank` for a Nyström map, `map$n_features` for Random Maclaurin and
#'   Tensor Sketch maps).
#' @template ref-rahimi2007
#' @template ref-he2022
#' @references Cho, Y. and Saul, L. K. (2009). Kernel methods for deep
#'   learning. Advances in Neural Information Processing Systems 22 (NIPS
#'   2009).
#'
#'   Jacot, A., Gabriel, F. and Hongler, C. (2018). Neural tangent kernel:
#'   convergence and generalization in neural networks. Advances in Neural
#'   Information Processing Systems 31 (NeurIPS 2018).
#' @family maps
#' @examples
#' map <- rff_map(gaussian_kernel(1), d = 2, n_features = 100, seed = 1)
#' z <- rff_features(map, matrix(rnorm(10), 5))
#' dim(z)
#' @export
rff_features <- function(map, x, side = c("left", "right"), n_threads = NULL) {
  map <- validate_map(map)
  x <- map_data(map, x, "x")
  side <- check_choice(side, c("left", "right"), "side")
  map_side(map, x, side, resolve_threads(n_threads))
}

#' Approximate kernel matrix from random features
#'
#' `L(x) %*% t(R(y))`, computed in blocks of rows without storing `L(x)`.
#' For a map of [rpf_map()], `rpf_kernel_matrix(map, x, y)`: the square wave
#' against the cosine, which estimates the kernel without bias.
#'
#' @param map A map from [rff_map()], [rpf_map()], [nystrom_map()],
#'   [maclaurin_map()] or [tensor_sketch_map()].
#' @inheritParams rff_features
#' @param y Second set of points; defaults to `x`.
#' @return The `nrow(x)` by `nrow(y)` approximation of
#'   `kernel_matrix(map$kernel, x, y)`.
#' @template ref-rahimi2007
#' @template ref-he2022
#' @family maps
#' @export
rff_kernel_matrix <- function(map, x, y = x, n_threads = NULL) {
  map <- validate_map(map)
  map_gram(map, map_data(map, x, "x"), map_data(map, y, "y"), resolve_threads(n_threads))
}
