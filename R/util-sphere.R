# Data on the unit sphere, for the dot-product kernels that live there.

#' Scale each row to unit Euclidean norm
#'
#' Kernels on the sphere (such as the polynomial, arc-cosine and NTK kernels of
#' the indefinite-kernel papers) need rows of unit norm; this puts data there.
#'
#' @param x Numeric matrix or data frame of numeric columns, one row per point.
#' @return `x` as a numeric matrix with every row divided by its Euclidean
#'   norm; dimnames are kept.
#' @family data
#' @examples
#' x <- normalize_rows(matrix(c(3, 0, 4, 2), 2))
#' rowSums(x^2)
#' @export
normalize_rows <- function(x) {
  x <- check_data(x, "x")
  # Scale by the largest entry first, so norms of huge or tiny rows neither
  # overflow nor underflow.
  scale <- apply(abs(x), 1L, max)
  if (any(scale == 0)) {
    fail("`x` has a row of zeros (row %d), which has no direction to normalize.", which(scale == 0)[1L])
  }
  scaled <- x / scale
  scaled / sqrt(rowSums(scaled^2))
}
