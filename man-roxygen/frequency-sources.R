#' @section Frequency sources:
#' The sources of frequencies (`method`) of [rff_map()] and [rpf_map()]. A
#' kernel takes those that the laws of all its parts can be sampled by.
#' * `"iid"` draws independent frequencies.
#' * `"orthogonal"` stacks independent Haar-distributed orthogonal
#'   \eqn{d \times d} blocks (QR of a Gaussian matrix with the sign
#'   correction) and pairs each direction with an independent radius from the
#'   part's radial law (Yu et al. 2016). It stays unbiased for any
#'   `n_features`, and has lower variance. For the asymmetric kernels the
#'   orthogonal directions feed the Gaussian component of each part's exact
#'   lift of a one-dimensional law (see the section "Exact total masses of
#'   the asymmetric kernels" in `vignette("mathematics", package = "askrff")`),
#'   so every frequency keeps its law.
#' * `"structured"` (structured orthogonal random features, SORF, Yu et al.
#'   2016) takes the directions from the rows of
#'   \eqn{H D_1 H D_2 H D_3}, with \eqn{H} the normalized Walsh-Hadamard
#'   matrix (the dimension padded to a power of two) and \eqn{D_i} random sign
#'   diagonals: \eqn{O(d \log d)} per direction instead of \eqn{O(d^2)},
#'   orthogonal within a block when \eqn{d} is a power of two, and each
#'   with an independent radius. A row's law is close to, not exactly, the
#'   uniform one on the sphere, so the estimator has a small bias that
#'   vanishes as \eqn{d} grows.
#' * `"qmc"` (randomized quasi-Monte Carlo, Yang et al. 2014) maps Halton
#'   points (Halton 1960) with randomly permuted digits, shifted by a random
#'   vector modulo 1 (Cranley and Patterson 1976), through each part's
#'   inverse CDFs (normal quantiles for the Gaussian directions, the radius's
#'   or projection's tabulated quantile), so each frequency has exactly the
#'   part's law and the estimator stays unbiased; the points cover the space
#'   more evenly than independent draws, which lowers the error in low
#'   dimensions.
#'
#' The Laplace kernel's product measure takes `"iid"` and `"qmc"` only; a
#' method a measure cannot take is refused with the reason.
