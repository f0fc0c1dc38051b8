#' Kernel canonical correlations on random features
#'
#' Regularized canonical correlation analysis of two sets of variables'
#' random features: kernel CCA (Bach and Jordan 2002) without the two n x n
#' kernel matrices, the randomized CCA of Lopez-Paz, Sra, Smola, Ghahramani
#' and Schölkopf (2014). The features \eqn{z_x(x)} and \eqn{z_y(y)} of the
#' two variables' maps are summed over the rows in one pass (the sums the
#' kernel tests take); their covariances \eqn{C_{xx}}, \eqn{C_{yy}} and
#' \eqn{C_{xy}} (divisor n - 1) give the canonical pairs: the directions
#' \eqn{a}, \eqn{b} of largest \eqn{a' C_{xy} b} under \eqn{a' (C_{xx} +
#' \lambda_x I) a = b' (C_{yy} + \lambda_y I) b = 1}. With \eqn{W_x} whitening
#' \eqn{C_{xx} + \lambda_x I} (its eigenvectors over the square roots of its
#' eigenvalues) and \eqn{W_y} likewise, the canonical correlations are the
#' singular values of \eqn{W_x' C_{xy} W_y}, and \eqn{a = W_x u}, \eqn{b =
#' W_y v} from its singular vectors. The cost is n D^2 for the pass and D^3
#' for the decompositions, D the two maps' feature columns together.
#'
#' **Regularization.** Without it, kernel CCA finds correlations near 1 for
#' any two variables once the features are many (their covariances are
#' nearly singular, and a direction of tiny variance can correlate with
#' anything). `lambda` is added to each side's covariance diagonal in units
#' of that side's mean feature variance, \eqn{\lambda_x = \lambda\,
#' \mathrm{tr}(C_{xx}) / D_x}, so that it does not depend on the kernel's
#' scale or the number of features. With `lambda = 0` the correlations are
#' those of [stats::cancor()] of the two feature matrices, and the
#' coefficients cancor's times \eqn{\sqrt{n - 1}}: askrff's canonical
#' variates have variance 1 (cancor's have sum of squares 1). Directions of
#' a side's features whose variance is below \eqn{10^{-10}} of the largest
#' are dropped there (the features' numerical rank), as cancor's QR
#' decomposition drops them.
#'
#' **Kernels.** As for [rff_independence_test()]: `NULL` or `"gaussian"`
#' gives a Gaussian kernel on the standardized columns at the median
#' heuristic; a kernel object with a positive spectral measure or a map of
#' [rff_map()] is used as given. The eigenvectors' signs are fixed: each
#' x coefficient's largest entry is positive.
#'
#' **Chunks.** `x` may be a chunk source (a list of chunks, or a function
#' returning the next chunk and `NULL` at the end), each chunk a list with
#' `x` and `y`; the maps are drawn for the first chunk's rows, which are not
#' standardized. The canonical variates of chunked rows come from
#' `predict()`.
#'
#' @param x,y The two variables: numeric vectors, matrices or data frames
#'   (factors, characters and logicals become indicator columns) with one
#'   row per observation; rows with a missing value in either are dropped.
#'   Or `x` a chunk source and `y` `NULL` (see "Chunks").
#' @param kernel_x,kernel_y `NULL` (a Gaussian kernel at the median
#'   heuristic), a kernel family's name, a kernel object with a positive
#'   spectral measure, or a map of [rff_map()].
#' @param n_features The number of frequencies of each variable's map
#'   (default 100, 200 feature columns).
#' @param rank The number of canonical pairs kept in `xcoef`, `ycoef` and
#'   the variates (default 10; larger is taken as all of them).
#' @param lambda The regularization, a nonnegative number in units of each
#'   side's mean feature variance (default 0.1, as the regularization `gamma` of `kernlab::kcca()`).
#' @param seed `NULL` (R's random number generator, so [set.seed()] makes
#'   the fit reproducible) or a whole number.
#' @param standardize `NULL` (standardize the columns for a kernel by name),
#'   `TRUE` or `FALSE`.
#' @param n_threads The number of threads (default: all but one).
#' @param ... Unused; an error if given.
#' @return An object of class `"askrff_cca"`: `cor` (all the canonical
#'   correlations, decreasing), `xcoef` and `ycoef` (each side's feature
#'   coefficients of the first `rank` pairs), `xcenter` and `ycenter` (the
#'   features' means), `variates` (a list of the rows' canonical variates
#'   `x` and `y`, n x `rank`; `NULL` for chunks), `map_x`, `map_y`,
#'   `scaling_x`, `scaling_y` (standardization; `NULL` for none),
#'   `columns_x` and `columns_y` (the variables' column names, after their
#'   encoding), `xlevels` (the levels of each variable's factors, with which
#'   `predict()` encodes new rows), `n`, `lambda` and the `call`.
#' @references Bach, F. R. and Jordan, M. I. (2002). Kernel independent
#'   component analysis. *Journal of Machine Learning Research* 3, 1-48.
#'
#'   Lopez-Paz, D., Sra, S., Smola, A., Ghahramani, Z. and Schölkopf, B.
#'   (2014). Randomized nonlinear component analysis. *Proceedings of the
#'   31st International Conference on Machine Learning*, 1359-1367.
#' @seealso [stats::cancor()], [rff_rdc()] (the largest canonical
#'   correlation of the variables' ranks, with a test), `kernlab::kcca()`
#'   (exact, with n x n matrices).
#' @examples
#' set.seed(1)
#' x <- runif(500, -1, 1)
#' y <- cbind(cos(3 * x), sin(3 * x)) + matrix(rnorm(1000, sd = 0.1), 500)
#' cancor(x, y)$cor                  # linear: little to see
#' fit <- rff_cca(x, y, n_features = 50, rank = 2, seed = 1)
#' fit
#' variates <- predict(fit, list(x = x[1:5], y = y[1:5, ]))
#' cbind(variates$x[, 1], variates$y[, 1])
#' @export
rff_cca <- function(x, y = NULL, kernel_x = NULL, kernel_y = NULL, n_features = 100, rank = 10, lambda = 0.1,
                    seed = NULL, standardize = NULL, n_threads = NULL, ...) {
  check_no_dots(...)
  n_features <- check_count(n_features, "n_features", max = 1e5)
  rank <- check_count(rank, "rank")
  if (!is_single_number(lambda) || !is.finite(lambda) || lambda < 0) {
    fail("`lambda` must be a single nonnegative finite number.")
  }
  n_threads <- resolve_threads(n_threads)
  seeds <- test_seeds(seed, 2L)
  streamed <- test_streams(x, y, "gamma")
  sums <- if (streamed) {
    streamed_independence_sums(x, kernel_x, kernel_y, n_features, seeds, standardize, n_threads)
  } else {
    independence_sums(x, y, kernel_x, kernel_y, n_features, seeds, standardize, n_threads)
  }
  fit <- cca_fit(sums, rank, lambda)
  if (!streamed) {
    fit$columns_x <- colnames(sums$x$x)
    fit$columns_y <- colnames(sums$y$x)
    fit$xlevels <- sums$xlevels
    fit$variates <- list(x = cca_variates(fit, "x", sums$x$x, n_threads),
                         y = cca_variates(fit, "y", sums$y$x, n_threads))
  }
  fit$call <- match.call()
  fit
}

# The canonical pairs of the two variables' summed features (see rff_cca()).
cca_fit <- function(sums, rank, lambda) {
  moments <- feature_moments(sums$sums, sums$shift)
  n <- moments$n
  if (n < 3) fail("Canonical correlations need at least three rows; the data have %d.", as.integer(n), class = "data")
  parts <- list(sums$x$map, sums$y$map)
  ix <- feature_block(parts, 1L)
  iy <- feature_block(parts, 2L)
  covariance <- moments$covariance * n / (n - 1)
  wx <- whitening(covariance[ix, ix, drop = FALSE], lambda, "x")
  wy <- whitening(covariance[iy, iy, drop = FALSE], lambda, "y")
  pairs <- svd(crossprod(wx, covariance[ix, iy, drop = FALSE]) %*% wy)
  kept <- seq_len(min(rank, length(pairs$d)))
  xcoef <- wx %*% pairs$u[, kept, drop = FALSE]
  ycoef <- wy %*% pairs$v[, kept, drop = FALSE]
  # each pair's sign: the largest x coefficient positive (y's follows, so
  # that the correlation stays positive)
  largest <- xcoef[cbind(apply(abs(xcoef), 2L, which.max), kept)]
  signs <- ifelse(largest < 0, -1, 1)
  names <- paste0("CV", kept)
  structure(list(cor = pmin(pairs$d, 1), xcoef = `colnames<-`(sweep(xcoef, 2L, signs, "*"), names),
                 ycoef = `colnames<-`(sweep(ycoef, 2L, signs, "*"), names),
                 xcenter = moments$mean[ix], ycenter = moments$mean[iy], variates = NULL,
                 map_x = sums$x$map, map_y = sums$y$map, scaling_x = sums$x$scaling, scaling_y = sums$y$scaling,
                 columns_x = NULL, columns_y = NULL, xlevels = NULL, n = n, lambda = lambda),
            class = "askrff_cca")
}

# The whitening of one side's features: the eigenvectors of C + lambda_x I
# over the square roots of its eigenvalues, less the directions of no
# variance (below 1e-10 of the largest: the features' numerical rank).
whitening <- function(covariance, lambda, side) {
  ridge <- lambda * mean(diag(covariance))
  decomposition <- symmetric_eigen(covariance)
  values <- decomposition$values + ridge
  kept <- values > 1e-10 * values[1L]
  if (!(values[1L] > 0) || !any(kept)) {
    fail("The features of `%s` do not vary over the rows: `%s` has one value, or values its map cannot tell apart.",
         side, side, class = "data")
  }
  sweep(decomposition$vectors[, kept, drop = FALSE], 2L, sqrt(values[kept]), "/")
}

# The canonical variates of one side's rows (checked, standardized):
# their features less the centre, times the coefficients.
cca_variates <- function(fit, side, x, n_threads) {
  map <- fit[[paste0("map_", side)]]
  coef <- fit[[paste0(side, "coef")]]
  input <- core_input(map, x, "left", n_threads)
  variates <- core(.cpp_feature_products(input$map, "", input$x, t(coef), n_threads))
  variates <- sweep(variates, 2L, drop(crossprod(coef, fit[[paste0(side, "center")]])), "-")
  dimnames(variates) <- list(rownames(x), colnames(coef))
  variates
}
