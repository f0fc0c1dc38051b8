#' Kernel principal components on random features
#'
#' The principal components of the rows' random features: kernel PCA
#' (Schölkopf, Smola and Müller 1998) without the n x n kernel matrix. The
#' features z(x) of a map approximate the kernel, z(x)'z(y) ~ k(x, y), so
#' the eigendecomposition of their D x D covariance gives the kernel's
#' principal directions in the features' space, and a row's scores are its
#' centred features times the top eigenvectors. The covariance streams over
#' the rows (one pass: weighted cross-products, as [rff_ridge()] sums them),
#' so the rows may be chunks that never sit in memory together; the cost is
#' n D^2 for the pass and D^3 for the eigendecomposition, whatever n.
#'
#' **The result is a [stats::prcomp()] object** of the features: `sdev`
#' holds the standard deviations of all D components (so that [summary()]
#' gives each one's share of the total variance), `rotation` the top `rank`
#' eigenvectors (D x `rank`, the features' loadings), `center` the features'
#' weighted means (or `FALSE`) and `x` the scores of the rows fitted (data in
#' memory). [summary()] and [stats::screeplot()] are prcomp's; `predict()`
#' maps new rows first. With `map` drawn for D features, `rff_pca(x, map =
#' map, rank = D)` equals `prcomp(rff_features(map, x), rank. = D)` up to
#' the eigenvectors' signs (here the largest loading of each is positive).
#'
#' **Solvers.** `solver = "eigen"` sums the D x D covariance in one pass
#' (n D^2) and decomposes it (D^3): every component, exactly.
#' `solver = "randomized"` is the randomized subspace iteration of Halko,
#' Martinsson and Tropp (2011) on the weighted, centred features: three
#' passes, each multiplying the covariance by a matrix of `rank` + 20
#' columns as it sums over the rows (the features times the matrix, then
#' their transposed product with the result: 4 n D (`rank` + 20) flops,
#' never D x D), the first by a uniform random test matrix drawn from the
#' seed and the next two by an orthonormal basis of the last product, and
#' the eigendecomposition of the covariance within the last basis (the
#' Rayleigh-Ritz step), whose last pass also gives the rows' scores: the
#' top `rank` components only, to the accuracy the iteration gives (in the
#' tests, on 3,000 rows of five normal columns, relative errors of the
#' variances below 1e-4 and principal angles below 0.005 rad; faster
#' falling spectra give smaller ones). `sdev` then holds the `rank`
#' components' standard deviations and `total_variance` the features'
#' total variance, so that [summary()] gives each one's share of it.
#' `"auto"` (the default) takes the randomized solver for data in memory
#' with more than 2,048 feature columns and `rank` at most a sixteenth of
#' them, the eigendecomposition otherwise.
#'
#' **Covariance.** The covariance divides by \eqn{W - \sum w_i^2 / W}
#' (\eqn{W = \sum w_i}), as `cov.wt(method = "unbiased")` does: n - 1
#' without weights, as prcomp, and unchanged when every weight is
#' multiplied by a constant. `center = FALSE` takes the features' second
#' moments about 0 instead (the uncentred kernel PCA), with the same
#' divisor.
#'
#' **The kernel and its scale.** As for [rff_ridge()]: with no `kernel` and
#' no `map`, a Gaussian kernel on the standardized columns whose length
#' scale is the median distance between rows ([kernel_scale]); a kernel by
#' name is scaled the same way; a kernel object or a map is used as given.
#' PCA has no criterion to choose a scale by: give `kernel` with its
#' `sigma` to choose another.
#'
#' **Chunks.** `x` may be a chunk source as for [rff_ridge()]: a list of
#' chunks, or a function returning the next chunk and `NULL` at the end,
#' each chunk a list with `x` and optionally `w` (weights); one pass reads
#' them, on the workers of a [future::plan()] when one is set. The scores of
#' chunked rows come from `predict()`.
#'
#' @param x A numeric matrix or data frame of numeric columns (rows are
#'   observations), or a chunk source (see "Chunks"); for `plot()` and
#'   `print()`, a fit of `rff_pca()`.
#' @param map A map from [rff_map()] (or another map of the package) for
#'   `ncol(x)` columns, or `NULL` to draw one for `kernel`.
#' @param kernel A kernel object, a kernel family's name (`"gaussian"`,
#'   `"laplace"`, `"matern"`, ...), or `NULL` (a Gaussian kernel); see "The
#'   kernel and its scale".
#' @param n_features The number of frequencies of a map drawn for `kernel`
#'   (default 256).
#' @param rank The number of components kept in `rotation` and `x`: a
#'   positive whole number, at most the map's feature columns (larger is
#'   taken as all of them, as prcomp's `rank.`). Default 10.
#' @param center `TRUE` (the default) to centre the features at their
#'   weighted means, `FALSE` for their second moments about 0.
#' @param weights `NULL` or one nonnegative weight per row of data in memory.
#' @param solver `"auto"`, `"eigen"` or `"randomized"`: see "Solvers".
#' @param method,seed,standardize,fun,n_threads As for [rff_ridge()]: how
#'   the map's frequencies are drawn and from which seed, whether the
#'   columns are standardized first (default: for a kernel whose scale comes
#'   from the data), the features of a random periodic map, and the threads.
#' @param object,newdata For `predict()`: a fit of `rff_pca()` and a numeric
#'   matrix or data frame of new rows with the fit's columns (omitted: the
#'   scores of the rows fitted).
#' @param y For `plot()`: unused.
#' @param ... Unused; an error if given (for the methods, passed on where
#'   R's generic needs them).
#' @return An object of class `c("askrff_pca", "prcomp")`: `sdev`
#'   (all D standard deviations, or the top `rank` for the randomized
#'   solver, with `total_variance`; `NULL` for the eigendecomposition),
#'   `rotation`, `center`, `scale` (`FALSE`) and `x` as above (`x` `NULL`
#'   for chunks), the `map` and its `fun`, the columns' `scaling`
#'   (standardization; `NULL` for none), `n` (rows of positive weight),
#'   `weight` (their total) and the `call`. `predict()` gives the scores of
#'   `newdata`, a matrix of `rank` columns (NA for a row with a missing
#'   value); `summary()` is prcomp's, of a fit checked first; `plot()` draws the variances of the first components and, for
#'   rows in memory, the first two scores.
#' @references Halko, N., Martinsson, P. G. and Tropp, J. A. (2011). Finding
#'   structure with randomness: probabilistic algorithms for constructing
#'   approximate matrix decompositions. *SIAM Review* 53, 217-288.
#'
#'   Schölkopf, B., Smola, A. and Müller, K.-R. (1998). Nonlinear
#'   component analysis as a kernel eigenvalue problem. *Neural Computation*
#'   10, 1299-1319.
#'
#'   Rahimi, A. and Recht, B. (2007). Random features for large-scale kernel
#'   machines. *Advances in Neural Information Processing Systems* 20.
#' @seealso [stats::prcomp()], [rff_features()], `kernlab::kpca()` (exact,
#'   with an n x n matrix).
#' @examples
#' # two concentric circles: no linear component separates them
#' set.seed(1)
#' angle <- runif(400, 0, 2 * pi)
#' radius <- rep(c(1, 3), each = 200) + rnorm(400, sd = 0.1)
#' x <- cbind(radius * cos(angle), radius * sin(angle))
#' pca <- rff_pca(x, kernel = gaussian_kernel(1), n_features = 256, rank = 2, seed = 1)
#' summary(pca)$importance[, 1:2]
#' # the first kernel component tells the circles apart
#' tapply(pca$x[, 1], rep(c("inner", "outer"), each = 200), range)
#' head(predict(pca, x[1:3, ]))
#' @export
rff_pca <- function(x, map = NULL, kernel = NULL, n_features = NULL, rank = 10, center = TRUE, weights = NULL,
                    solver = c("auto", "eigen", "randomized"), method = "iid", seed = NULL, standardize = NULL,
                    fun = NULL, n_threads = NULL, ...) {
  check_no_dots(...)
  rank <- check_count(rank, "rank")
  check_flag(center, "center")
  solver <- check_choice(solver, c("auto", "eigen", "randomized"), "solver")
  streamed <- is_chunk_source(x)
  data <- model_data(x, NULL, weights, NULL, streamed)
  data$fields <- "x"
  standardize <- resolve_standardize(standardize, map, kernel, streamed)
  fit <- fit_pca(data, model_map(map, kernel, n_features, method, seed), standardize, rank, center, solver, seed, fun,
                 n_threads)
  fit$call <- match.call()
  fit
}

# The principal components of the features of `data`'s rows (see
# rff_pca()), by the eigendecomposition of their covariance or the
# randomized subspace iteration (R/unsupervised-pca-randomized.R).
fit_pca <- function(data, map_of, standardize, rank, center, solver, seed, fun, n_threads) {
  setup <- model_setup(data, map_of, standardize, fun, n_threads, memory = 3, encode = unlabelled_chunk)
  columns <- setup$model$columns
  if (solver == "auto") solver <- if (!setup$streamed && columns > 2048L && rank <= columns %/% 16L) "randomized" else "eigen"
  if (solver == "randomized" && setup$streamed) {
    fail("`solver = \"randomized\"` needs the rows in memory, not a chunk source: it reads them in several passes with a matrix per row.")
  }
  components <- if (solver == "randomized") randomized_components(setup, rank, center, seed) else eigen_components(setup, center)
  pca_result(setup, components, rank, center)
}

# The eigendecomposition of the features' covariance: one pass sums the
# weighted cross-products of the features less the first row's
# (ridge_chunk_work(), with no response) and the weights' squares.
eigen_components <- function(setup, center) {
  model <- setup$model
  shift <- model_shifts(model, setup$start, setup$n_threads)$z
  run_pass <- model_passes(setup, "rff_pca()")
  sums <- run_pass(pca_chunk_work(model, shift, setup$worker_threads), add_sums)
  check_pca_rows(sums$n)
  # the weights as the pass summed them, divided by a common unit: the
  # covariance does not depend on it
  total <- sums$weight
  z <- sums$zz
  z[upper.tri(z)] <- t(z)[upper.tri(z)]
  mean_shifted <- sums$z_sum / total
  second <- if (center) {
    z - total * tcrossprod(mean_shifted)
  } else {
    z + tcrossprod(shift, sums$z_sum) + tcrossprod(sums$z_sum, shift) + total * tcrossprod(shift)
  }
  decomposition <- symmetric_eigen(second / (total - sums$w_squares / total))
  list(values = decomposition$values, vectors = decomposition$vectors, total_variance = NULL,
       mean = shift + mean_shifted, n = sums$n, weight = total)
}

check_pca_rows <- function(n) {
  if (n < 2) fail("Principal components need at least two rows of positive weight; the data have %d.", as.integer(n),
                  class = "data")
}

# The fit from the components' variances (decreasing) and directions: the
# top `rank` kept, each direction's largest loading positive, and the
# scores of rows in memory (from the components' own when they have them).
pca_result <- function(setup, components, rank, center) {
  model <- setup$model
  variance <- if (is.null(components$total_variance)) sum(pmax(components$values, 0)) else components$total_variance
  if (!(variance > 0)) {
    fail("The rows of `x` (of positive weight) all have the same features (the same point, or points the map cannot tell apart): they have no principal components.",
         class = "data")
  }
  kept <- seq_len(min(rank, ncol(components$vectors)))
  rotation <- components$vectors[, kept, drop = FALSE]
  largest <- rotation[cbind(apply(abs(rotation), 2L, which.max), kept)]
  signs <- ifelse(largest < 0, -1, 1)
  rotation <- sweep(rotation, 2L, signs, "*")
  dimnames(rotation) <- list(NULL, paste0("PC", kept))
  sdev <- sqrt(pmax(components$values, 0))
  if (!is.null(components$total_variance)) sdev <- sdev[kept]
  fit <- structure(list(sdev = sdev, rotation = rotation, center = if (center) components$mean else FALSE,
                        scale = FALSE, x = NULL, map = model$map, fun = model$fun, scaling = model$scaling,
                        n = components$n, weight = components$weight * setup$weight_unit,
                        total_variance = components$total_variance),
                   class = c("askrff_pca", "prcomp"))
  if (!setup$streamed) {
    fit$x <- if (is.null(components$scores)) {
      pca_scores(fit, setup$start$x, setup$n_threads)
    } else {
      structure(sweep(components$scores[, kept, drop = FALSE], 2L, signs, "*"),
                dimnames = list(rownames(setup$start$x), colnames(rotation)))
    }
  }
  fit
}

# One chunk's sums for the covariance: the features' cross-products less
# `shift` and the squares of the weights.
pca_chunk_work <- function(model, shift, n_threads) {
  cross_products <- ridge_chunk_work(model, list(z = shift, y = 0), n_threads)
  function(chunk) {
    sums <- cross_products(chunk)
    sums$w_squares <- sum(chunk$w^2)
    sums
  }
}

# The scores of standardized rows x: their features less the centre, times
# the rotation.
pca_scores <- function(fit, x, n_threads) {
  input <- core_input(fit$map, x, "left", n_threads)
  scores <- core(.cpp_feature_products(input$map, fit$fun, input$x, t(fit$rotation), n_threads))
  if (!isFALSE(fit$center)) scores <- sweep(scores, 2L, drop(crossprod(fit$rotation, fit$center)), "-")
  dimnames(scores) <- list(rownames(x), colnames(fit$rotation))
  scores
}
