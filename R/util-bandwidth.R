#' Median heuristic for the bandwidth
#'
#' The median Euclidean distance between pairs of rows of `x` (of a random
#' sample of `max_points` rows when there are more), the usual default for
#' `sigma` of [gaussian_kernel()] and the other kernels of the Gaussian family.
#'
#' kernlab's `sigest()` answers in the other convention, an inverse squared
#' width \eqn{s} of \eqn{\exp(-s\|x - y\|^2)}: the matching `sigma` is
#' \eqn{1/\sqrt{2s}}, and passing \eqn{s} itself as `sigma` gives a very
#' different kernel.
#'
#' @param x Numeric matrix or data frame, one row per point.
#' @param max_points Largest number of rows used; the pairs grow as its square.
#' @param seed `NULL` (sample with R's random number generator, so
#'   [set.seed()] makes it reproducible) or a whole number, which picks the
#'   same rows on every call, as the `seed` of [rff_map()] does.
#' @return A single positive number.
#' @family kernels
#' @examples
#' x <- as.matrix(datasets::quakes[, 1:4])
#' sigma <- median_bandwidth(scale(x), seed = 1)
#' gaussian_kernel(sigma)
#' @export
median_bandwidth <- function(x, max_points = 2000, seed = NULL) {
  x <- check_data(x, "x")
  max_points <- check_count(max_points, "max_points", max = 20000)
  if (max_points < 2L) fail("`max_points` must be at least 2.")
  if (nrow(x) < 2L) fail("`x` must have at least 2 rows: a bandwidth needs pairs of points.")
  seed_words <- resolve_seed(seed)
  if (nrow(x) > max_points) {
    # The rows of the max_points smallest of n uniforms: a uniform sample.
    uniforms <- seed_uniforms(seed_words, nrow(x))
    x <- x[order(uniforms)[seq_len(max_points)], , drop = FALSE]
  }
  # Scaled by the largest entry so that the distances cannot overflow.
  scale <- max(abs(x))
  if (scale == 0) fail("`x` has all entries zero, so every distance is 0 and no bandwidth fits.")
  bandwidth <- scale * median_of_finite(as.vector(stats::dist(x / scale)))
  if (bandwidth == 0) {
    fail("`x` has more than half of its pairs of rows equal, so the median distance is 0; remove duplicates or give sigma yourself.")
  }
  bandwidth
}

# The median of finite numbers by one partial sort: stats::median() of the
# two million pairs of 2,000 rows would first look for NAs, and of a "dist"
# object it orders them all (half a second).
median_of_finite <- function(v) {
  n <- length(v)
  middle <- unique(c((n + 1L) %/% 2L, n %/% 2L + 1L))
  mean(sort.int(v, partial = middle)[middle])
}
