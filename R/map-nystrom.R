# Nyström maps: features from the kernel's values at landmarks, for every
# kernel with a Gram matrix, positive definite, indefinite or asymmetric.

#' Nyström map of any kernel
#'
#' The Nyström approximation \eqn{K(x, Z) K_{ZZ}^+ K(Z, y)} of a kernel
#' from its values at \eqn{m} landmarks \eqn{Z}, written as left and right
#' features \eqn{L(x) R(y)'} so that it works wherever a map of [rff_map()]
#' does: [rff_features()], [rff_kernel_matrix()], `predict()`, [rff_ridge()]
#' and [approximation_study()].
#'
#' \eqn{K_{ZZ}} is decomposed once. When it is symmetric (to rounding), by
#' an eigendecomposition \eqn{K_{ZZ} = V \Lambda V'} whose eigenvalues may
#' have either sign (an indefinite kernel): \eqn{L(x) = K(x, Z) V
#' |\Lambda|^{-1/2}} and \eqn{R(y) = K(Z, y)' V\, \mathrm{sign}(\Lambda)
#' |\Lambda|^{-1/2}}, so that a positive definite kernel has \eqn{L = R}.
#' Otherwise (an asymmetric kernel) by the singular value decomposition
#' \eqn{K_{ZZ} = U S W'}, whose pseudo-inverse is \eqn{W S^{-1} U'}:
#' \eqn{L(x) = K(x, Z) W S^{-1/2}} and \eqn{R(y) = K(Z, y)' U S^{-1/2}}.
#' Eigen- or singular values below `tolerance` times the largest (in absolute
#' value) are dropped, and at most `rank` are kept, the largest first; the
#' features' rounding error grows like the machine epsilon over the smallest
#' kept relative value, so `tolerance` also bounds it.
#'
#' The eigendecomposition costs \eqn{O(m^3)} for \eqn{m} landmarks (about
#' 10 s for 4,000 on one core of an AMD EPYC server); it stops within a
#' fraction of a second on a user interrupt (Ctrl-C) and, from 512 landmarks
#' on, reports its progress through progressr ([progressr::with_progress()]).
#' The singular value decomposition of an asymmetric \eqn{K_{ZZ}} is R's
#' [svd()], which runs to its end.
#'
#' The features of \eqn{n} points cost \eqn{O(n m (d + r))} for rank
#' \eqn{r}: the C++ core computes \eqn{K(x, Z)} and its product with the
#' weights a block of rows at a time, on `n_threads` threads, and stops on a
#' user interrupt. A radial kernel given as an R function (and an expression
#' holding one) is evaluated in R, \eqn{K(x, Z)} for all rows at once, and
#' the core does the rest.
#'
#' Unlike random features, the approximation is exact at the landmarks and is
#' not unbiased elsewhere; it adapts to the data, which is why it is usually
#' far more accurate at equal size on data with a decaying spectrum.
#'
#' @param kernel A kernel object: any kernel [kernel_matrix()] takes,
#'   including indefinite and asymmetric ones, sums and products, and the
#'   expected kernels of random periodic features.
#' @param landmarks Numeric matrix (or data frame) of the landmark points, one
#'   per row, such as the rows [nystrom_landmarks()] picks from the data.
#' @param rank `NULL` (keep every eigen- or singular value above the
#'   tolerance) or the largest number of feature columns to keep.
#' @param tolerance Relative size below which eigen- or singular values of
#'   \eqn{K_{ZZ}} are dropped, in `[0, 1)`.
#' @inheritParams kernel_matrix
#' @return A map of class `c("nystrom_map", "askrff_map")`: a list holding the
#'   `kernel`, `d`, the `landmarks`, the `decomposition` (`"eigen"` or
#'   `"svd"`), the kept `values` (signed eigenvalues, or singular values), the
#'   `left_weights` and `right_weights` (landmarks by feature columns), the
#'   `rank` and the `tolerance`.
#' @references Williams, C. K. I. and Seeger, M. (2001). Using the Nyström
#'   method to speed up kernel machines. Advances in Neural Information
#'   Processing Systems 13.
#' @family maps
#' @examples
#' x <- as.matrix(scale(datasets::quakes[, 1:3]))
#' k <- delta_gaussian_kernel(1, 2)
#' map <- nystrom_map(k, nystrom_landmarks(x, 50, seed = 1))
#' map
#' relative_error(kernel_matrix(k, x[1:200, ]), rff_kernel_matrix(map, x[1:200, ]))
#' @export
nystrom_map <- function(kernel, landmarks, rank = NULL, tolerance = 1e-8, n_threads = NULL) {
  kernel <- validate_kernel(kernel)
  landmarks <- check_data(landmarks, "landmarks")
  if (!is.null(rank)) rank <- check_count(rank, "rank")
  check_tolerance(tolerance, "tolerance")
  n_threads <- resolve_threads(n_threads)
  K <- kernel_matrix(kernel, landmarks, n_threads = n_threads)
  scale <- max(abs(K))
  if (scale == 0) fail("The kernel is zero at every pair of `landmarks`, so they span no features; choose other landmarks.")
  symmetric <- max(abs(K - t(K))) <= 64 * .Machine$double.eps * scale
  decomposition <- if (symmetric) eigen_weights(K) else svd_weights(K)
  keep <- which(abs(decomposition$values) > tolerance * max(abs(decomposition$values)))
  if (!is.null(rank)) keep <- utils::head(keep, rank)
  structure(list(kernel = kernel, d = ncol(landmarks), landmarks = unname(landmarks),
                 decomposition = if (symmetric) "eigen" else "svd", values = decomposition$values[keep],
                 left_weights = decomposition$left[, keep, drop = FALSE],
                 right_weights = decomposition$right[, keep, drop = FALSE],
                 rank = length(keep), tolerance = as.double(tolerance), format_version = format_version),
            class = map_class("nystrom_map"))
}

# K = V diag(values) V' with the values ordered by magnitude: the left
# weights V |values|^(-1/2), the right ones with the values' signs.
eigen_weights <- function(K) {
  e <- symmetric_eigen((K + t(K)) / 2)
  order <- order(abs(e$values), decreasing = TRUE)
  values <- e$values[order]
  left <- scale_columns(e$vectors[, order, drop = FALSE], 1 / sqrt(pmax(abs(values), .Machine$double.xmin)))
  list(values = values, left = left, right = scale_columns(left, sign(values)))
}

# K = U diag(s) W', pinv(K) = W diag(1/s) U': left weights W s^(-1/2),
# right ones U s^(-1/2).
svd_weights <- function(K) {
  s <- svd(K)
  inverse_root <- 1 / sqrt(pmax(s$d, .Machine$double.xmin))
  list(values = s$d, left = scale_columns(s$v, inverse_root), right = scale_columns(s$u, inverse_root))
}

# A diag(v), without the product by a diagonal matrix.
scale_columns <- function(A, v) A * rep(v, each = nrow(A))

#' Landmarks for a Nyström map
#'
#' Picks `n` distinct rows of `x`: uniformly at random, or by k-means++
#' seeding (each next row drawn with probability proportional to its squared
#' distance from the rows already picked), which spreads the landmarks over
#' the data and usually lowers the Nyström error at the same size.
#'
#' @param x Numeric matrix or data frame of the data.
#' @param n Number of landmarks, at most the number of distinct rows of `x`.
#' @param method `"uniform"` or `"kmeans++"`.
#' @param seed `NULL` (use R's random number generator, so [set.seed()]
#'   makes the choice reproducible) or a whole number, as for [rff_map()].
#' @return The chosen rows of `x`, a matrix with `n` rows.
#' @references Arthur, D. and Vassilvitskii, S. (2007). k-means++: the
#'   advantages of careful seeding. Proceedings of the 18th Annual ACM-SIAM
#'   Symposium on Discrete Algorithms (SODA 2007).
#' @family maps
#' @examples
#' x <- as.matrix(datasets::trees)
#' nystrom_landmarks(x, 3, method = "kmeans++", seed = 1)
#' @export
nystrom_landmarks <- function(x, n, method = c("uniform", "kmeans++"), seed = NULL) {
  x <- check_data(x, "x")
  n <- check_count(n, "n")
  method <- check_choice(method, c("uniform", "kmeans++"), "method")
  seed_words <- resolve_seed(seed)
  distinct <- which(!duplicated(x))
  if (n > length(distinct)) fail("`n` must be at most the %d distinct rows of `x`, not %d.", length(distinct), n)
  uniforms <- seed_uniforms(seed_words, max(n, length(distinct)))
  chosen <- if (method == "uniform") order(uniforms[seq_along(distinct)])[seq_len(n)] else
    kmeans_pp_rows(x[distinct, , drop = FALSE], n, uniforms)
  x[distinct[chosen], , drop = FALSE]
}

# k-means++ seeding driven by the given uniforms: the first row with
# probability proportional to its weight, each next one by inverting the
# cumulative weighted squared distances to the rows picked.
kmeans_pp_rows <- function(x, n, uniforms, weights = rep(1, nrow(x))) {
  pick <- function(weights, u) min(length(weights), 1L + sum(cumsum(weights) < u * sum(weights)))
  # in units of the largest entry, whose squares cannot overflow; the picks do not change
  largest <- max(abs(x))
  if (largest > 0) x <- x / largest
  norms <- rowSums(x^2)
  # |x_i - x_r|^2 by one product with x, not an n-by-columns difference
  distances <- function(r) pmax(norms - 2 * drop(x %*% x[r, ]) + norms[r], 0)
  rows <- pick(weights, uniforms[1L])
  squared <- distances(rows)
  for (i in seq_len(n - 1L) + 1L) {
    # distinct rows keep every unpicked weight positive; rounding alone could zero them
    chances <- replace(weights * squared, rows, 0)
    if (sum(chances) == 0) chances <- replace(weights, rows, 0)
    rows[i] <- pick(chances, uniforms[i])
    squared <- pmin(squared, distances(rows[i]))
  }
  rows
}

check_tolerance <- function(tolerance, name) {
  if (!is_single_number(tolerance) || tolerance < 0 || tolerance >= 1) fail("`%s` must be a single number in [0, 1).", name)
}

#' @export
map_columns.nystrom_map <- function(map) map$rank

# The core's copies of the landmarks and weights, and K(x, Z) where R
# computes it.
#' @export
map_memory.nystrom_map <- function(map, rows) {
  8 * (length(map$landmarks) + length(map$left_weights) + if (gram_in_core(map$kernel)) 0 else rows * nrow(map$landmarks))
}

# The core evaluates the kernel itself unless it is given as an R function;
# then R computes K(x, Z), or K(Z, y)' for the right side of an SVD, and
# the core multiplies it by the weights. A symmetric kernel's K(Z, y)' is
# K(y, Z), so both sides of an eigendecomposition read the same values.
#' @export
core_input.nystrom_map <- function(map, x, side, n_threads) {
  if (gram_in_core(map$kernel)) return(NextMethod())
  check_output_size(nrow(x), nrow(map$landmarks), "the kernel's values at the landmarks")
  gram <- if (side == "left" || map$decomposition == "eigen") gram_matrix(map$kernel, x, map$landmarks, n_threads) else
    t(gram_matrix(map$kernel, map$landmarks, x, n_threads))
  map$kernel <- NULL
  list(map = map, x = gram)
}

#' @export
validate_fields.nystrom_map <- function(map, arg) {
  check_object(map, arg, "nystrom_map", "a map made by nystrom_map()")
  kernel <- validate_kernel(map$kernel, field(arg, "kernel"))
  d <- check_count(map$d, field(arg, "d"))
  check_kernel_dimension(kernel, d)
  landmarks <- check_data(map$landmarks, field(arg, "landmarks"), d)
  check_on_sphere(kernel, landmarks, field(arg, "landmarks"))
  rank <- check_count(map$rank, field(arg, "rank"))
  for (name in c("left_weights", "right_weights")) {
    weights <- map[[name]]
    if (!is_matrix(weights) || !is.double(weights) || is.object(weights) || nrow(weights) != nrow(landmarks) ||
        ncol(weights) != rank || any(!is.finite(weights))) {
      fail("`%s` must be a finite numeric matrix of one row per landmark (%d) and `rank` = %d columns; make the map again with nystrom_map().",
           field(arg, name), nrow(landmarks), rank)
    }
  }
  decomposition <- map$decomposition
  if (!is.character(decomposition) || length(decomposition) != 1L || !decomposition %in% c("eigen", "svd")) {
    fail("`%s` must be \"eigen\" or \"svd\".", field(arg, "decomposition"))
  }
  check_tolerance(map$tolerance, field(arg, "tolerance"))
  values <- map$values
  if (!is.double(values) || is.object(values) || length(values) != rank || any(!is.finite(values))) {
    fail("`%s` must hold the %d kept eigen- or singular values.", field(arg, "values"), rank)
  }
  map$kernel <- kernel
  map$d <- d
  map$landmarks <- landmarks
  map$rank <- rank
  map
}

#' @export
print.nystrom_map <- function(x, ...) {
  x <- validate_map(x, "x")
  cat("<askrff Nystr\u00f6m map> ", kernel_label(x$kernel), ", d = ", x$d, "\n", sep = "")
  cat("  ", format_count(nrow(x$landmarks)), " landmarks, rank ", format_count(x$rank), " (",
      if (x$decomposition == "eigen") "eigendecomposition" else "singular value decomposition",
      ", tolerance ", format(x$tolerance), ")\n", sep = "")
  if (x$decomposition == "eigen" && any(x$values < 0)) {
    negative <- sum(x$values < 0)
    cat("  ", negative, if (negative == 1L) " negative eigenvalue" else " negative eigenvalues",
        ": the kernel is indefinite on the landmarks\n", sep = "")
  }
  invisible(x)
}

#' @export
study_gram.nystrom_map <- function(method, kernel, x, y, n, seed, n_threads) {
  args <- method$args
  map <- nystrom_map(kernel, nystrom_landmarks(x, n, args$landmarks, seed = seed), args$rank, args$tolerance, n_threads)
  list(K_hat = rff_kernel_matrix(map, x, y, n_threads), columns = map$rank)
}
