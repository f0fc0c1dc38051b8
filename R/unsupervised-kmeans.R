#' Kernel k-means on random features
#'
#' k-means in the space of the rows' random features: kernel k-means
#' (Schölkopf, Smola and Müller 1998; Dhillon, Guan and Kulis 2004) without
#' the n x n kernel matrix. The features z(x) of a map approximate the
#' kernel, z(x)'z(y) ~ k(x, y), so squared distances between features
#' approximate the kernel's, k(x, x) - 2 k(x, y) + k(y, y), and the clusters
#' of Lloyd's algorithm on the features are those of kernel k-means. Each
#' Lloyd step is one pass over the rows: their features are computed a
#' block at a time and never stored, each row goes to its nearest centre,
#' and the centres become the weighted means of their rows. The cost is n D
#' (k + the map's cost per feature) per step, whatever n.
#'
#' **The result is a [stats::kmeans()] object** of the features: `cluster`,
#' `centers` (k x D, in the features' space), `totss`, `withinss`,
#' `tot.withinss`, `betweenss`, `size`, `iter` and `ifault` as kmeans
#' gives them (sums of squares weighted by `weights`), so `fitted()` and
#' broom's tidiers take it. With `map` drawn for D features and starting
#' points `s`, `rff_kmeans(x, s, map = map)` gives the clusters of
#' `kmeans(rff_features(map, x), rff_features(map, s), algorithm = "Lloyd")`.
#'
#' **Starts.** `centers` may be the starting points themselves (rows with
#' `x`'s columns, whose features are the first centres), or the number of
#' clusters k: then k-means++ (Arthur and Vassilvitskii 2007) on the
#' features picks k of the rows, with probability proportional to each
#' row's weight times its squared distance to the rows already picked, from
#' a uniform sample of at most `max(10000, 20 k)` distinct rows (for a chunk
#' source, of the first chunk's rows). `n_starts` such starts run together
#' (one pass serves them all) and the one with the smallest `tot.withinss`
#' is kept. A cluster that loses all its rows keeps its centre.
#'
#' **Convergence.** The steps stop when no centre moves, which is when no
#' row changes cluster, or after `iter_max` steps, with a warning and
#' `ifault` 2 as kmeans gives; the sums of squares are then those of the
#' last centres.
#'
#' **The kernel, its scale and chunks** are as for [rff_pca()]: with no
#' `kernel` and no `map`, a Gaussian kernel on the standardized columns at
#' the median distance between rows ([kernel_scale]); `x` may be a chunk
#' source, whose rows are read once per step (the clusters of chunked rows
#' come from `predict()`).
#'
#' @param x A numeric matrix or data frame of numeric columns (rows are
#'   observations), or a chunk source as for [rff_pca()]; for the methods, a
#'   fit of `rff_kmeans()`.
#' @param centers The number of clusters k (a whole number, at least 1), or
#'   a numeric matrix or data frame of k distinct starting points with the
#'   columns of `x` (standardized as `x` is).
#' @param map,kernel,n_features,weights,seed,standardize,fun,n_threads As
#'   for [rff_pca()]; `seed` also fixes the k-means++ starts.
#' @param n_starts The number of k-means++ starts when `centers` is a number
#'   (default 1).
#' @param iter_max The largest number of Lloyd steps (passes; default 100).
#' @param object,newdata For `predict()`: a fit of `rff_kmeans()` and a
#'   numeric matrix or data frame of new rows with the fit's columns.
#' @param method For `rff_kmeans()`, how the map's frequencies are drawn, as
#'   for [rff_pca()]; for `fitted()`, `"centers"` (each row's centre) or
#'   `"classes"` (its cluster), as for kmeans.
#' @param ... Unused; an error if given.
#' @return An object of class `c("askrff_kmeans", "kmeans")`: the fields of
#'   kmeans above (`cluster` `NULL` for chunks), `converged`, the `map` and
#'   its `fun`, the columns' `scaling` (`NULL` for none), `n` (rows of
#'   positive weight), `weight` (their total) and the `call`. `predict()`
#'   gives the cluster of each row of `newdata` (NA for a row with a missing
#'   value); `fitted()` the clusters or centres of the rows fitted.
#' @references Arthur, D. and Vassilvitskii, S. (2007). k-means++: the
#'   advantages of careful seeding. *Proceedings of the 18th Annual ACM-SIAM
#'   Symposium on Discrete Algorithms*, 1027-1035.
#'
#'   Dhillon, I. S., Guan, Y. and Kulis, B. (2004). Kernel k-means, spectral
#'   clustering and normalized cuts. *Proceedings of the 10th ACM SIGKDD
#'   Conference on Knowledge Discovery and Data Mining*, 551-556.
#'
#'   Lloyd, S. P. (1982). Least squares quantization in PCM. *IEEE
#'   Transactions on Information Theory* 28, 129-137.
#' @seealso [stats::kmeans()], [rff_pca()], `kernlab::kkmeans()` (exact,
#'   with an n x n matrix).
#' @examples
#' # two concentric circles, which k-means on the coordinates cuts in halves
#' set.seed(1)
#' angle <- runif(400, 0, 2 * pi)
#' radius <- rep(c(1, 3), each = 200) + rnorm(400, sd = 0.1)
#' x <- cbind(radius * cos(angle), radius * sin(angle))
#' fit <- rff_kmeans(x, 2, kernel = gaussian_kernel(0.5), n_features = 512, n_starts = 5, seed = 1)
#' fit
#' table(fit$cluster, rep(c("inner", "outer"), each = 200))
#' predict(fit, rbind(c(0, 1), c(3, 0)))
#' @order 1
#' @export
rff_kmeans <- function(x, centers, map = NULL, kernel = NULL, n_features = NULL, n_starts = 1, iter_max = 100,
                       weights = NULL, method = "iid", seed = NULL, standardize = NULL, fun = NULL, n_threads = NULL,
                       ...) {
  check_no_dots(...)
  n_starts <- check_count(n_starts, "n_starts", max = 1000)
  iter_max <- check_count(iter_max, "iter_max", max = 1e6)
  if (missing(centers)) fail("`centers` must be given: the number of clusters, or their starting points.")
  starts <- kmeans_starts(centers, n_starts)
  streamed <- is_chunk_source(x)
  data <- model_data(x, NULL, weights, NULL, streamed)
  data$fields <- "x"
  standardize <- resolve_standardize(standardize, map, kernel, streamed)
  start_words <- kmeans_start_words(seed)
  fit <- fit_kmeans(data, model_map(map, kernel, n_features, method, seed), standardize, starts, iter_max, fun,
                    n_threads, start_words)
  fit$call <- match.call()
  fit
}

# The seed words of the k-means++ starts: a stream apart from the map's
# under the same seed.
kmeans_start_words <- function(seed) {
  words <- resolve_seed(seed)
  words[2L] <- (words[2L] + 2654435769) %% 2^32
  words
}

# `centers` checked: list(k, points = the starting points or NULL, n_starts).
kmeans_starts <- function(centers, n_starts) {
  if (is_single_number(centers)) {
    return(list(k = check_count(centers, "centers", max = 1e5), points = NULL, n_starts = n_starts))
  }
  if (!is.data.frame(centers) && !is_matrix(centers)) {
    fail("`centers` must be the number of clusters (a positive whole number) or a numeric matrix of starting points.")
  }
  points <- check_data(centers, "centers")
  if (anyDuplicated(points) > 0L) fail("`centers` must hold distinct starting points; row %d repeats an earlier one.",
                                       anyDuplicated(points))
  if (n_starts > 1L) fail("`n_starts` must be 1 when `centers` gives the starting points.")
  list(k = nrow(points), points = points, n_starts = 1L)
}

# k-means of the features of `data`'s rows (see rff_kmeans()): the starts,
# then Lloyd steps, each a pass of kmeans_chunk_work() over the chunks for
# every start at once, until no start's centres move.
fit_kmeans <- function(data, map_of, standardize, starts, iter_max, fun, n_threads, seed_words) {
  setup <- model_setup(data, map_of, standardize, fun, n_threads, memory = 0, encode = unlabelled_chunk)
  model <- setup$model
  k <- starts$k
  shift <- model_shifts(model, setup$start, setup$n_threads)$z
  centers <- kmeans_initial_centers(setup, starts, seed_words)
  run_pass <- model_passes(setup, "rff_kmeans()")
  group <- rep(seq_len(starts$n_starts), each = k)
  iter <- rep(NA_integer_, starts$n_starts)
  for (pass in seq_len(iter_max)) {
    sums <- run_pass(kmeans_chunk_work(model, centers, k, shift, !setup$streamed, setup$worker_threads), add_sums)
    if (pass == 1L && sums$weight_total <= 0) fail("The rows of `x` have no positive weight.", class = "data")
    # a cluster without rows keeps its centre
    filled <- sums$weight > 0
    moved <- centers
    moved[filled, ] <- sweep(sums$sums[filled, , drop = FALSE] / sums$weight[filled], 2L, shift, "+")
    still <- tapply(rowSums(moved != centers) == 0, group, all)
    iter[is.na(iter) & still] <- pass
    if (all(!is.na(iter)) || pass == iter_max) break
    centers <- moved
  }
  # the sums of squares about the new centres, the means of their rows
  withinss <- pmax(sums$withinss - sums$weight * rowSums((moved - centers)^2), 0)
  kmeans_result(setup, sums, moved, withinss, group, k, iter, iter_max)
}

# One chunk's sums of a Lloyd step (.cpp_kmeans_pass), with each row's
# cluster for data in memory. Made here so that what travels to a worker is
# the model and the centres, not the caller's data.
kmeans_chunk_work <- function(model, centers, k, shift, keep, n_threads) {
  force(model)
  force(centers)
  force(shift)
  function(chunk) {
    input <- core_input(model$map, chunk$x, "left", n_threads)
    sums <- core(.cpp_kmeans_pass(input$map, model$fun, input$x, chunk$w, centers, k, shift, keep, n_threads))
    sums$weight_total <- sum(chunk$w)
    sums
  }
}

# The first centres of every start, groups of k rows: the starting points'
# features, or k-means++ on the features of a uniform sample of the first
# chunk's distinct rows of positive weight.
kmeans_initial_centers <- function(setup, starts, seed_words) {
  model <- setup$model
  features <- function(x) {
    check_output_size(nrow(x), model$columns, "the features of the k-means starts")
    input <- core_input(model$map, x, "left", setup$n_threads)
    core(.cpp_map_features(input$map, input$x, "left", model$fun, setup$n_threads))
  }
  k <- starts$k
  if (!is.null(starts$points)) {
    if (ncol(starts$points) != model$d) fail("`centers` must have the %d columns of `x`.", model$d)
    points <- apply_scaling(starts$points, model$scaling)
    check_map_data(model$map, points, "centers")
    return(features(points))
  }
  x <- setup$start$x
  w <- setup$start$w
  distinct <- which(w > 0 & !duplicated(x))
  if (length(distinct) < k) {
    fail("`centers` asks for %d clusters, but %s %d distinct row%s of positive weight.", k,
         if (setup$streamed) "the first chunk of `x` has" else "`x` has", length(distinct),
         if (length(distinct) == 1L) "" else "s", class = "data")
  }
  uniforms <- seed_uniforms(seed_words, length(distinct) + starts$n_starts * k)
  sampled <- distinct[order(uniforms[seq_along(distinct)])[seq_len(min(length(distinct), max(10000L, 20L * k)))]]
  z <- features(x[sampled, , drop = FALSE])
  picks <- lapply(seq_len(starts$n_starts), function(s) {
    kmeans_pp_rows(z, k, uniforms[length(distinct) + (s - 1L) * k + seq_len(k)], w[sampled])
  })
  z[unlist(picks), , drop = FALSE]
}

# The fit of the start with the least within-cluster sum of squares.
kmeans_result <- function(setup, sums, centers, withinss, group, k, iter, iter_max) {
  unit <- setup$weight_unit
  tot <- vapply(split(withinss, group), sum, 1)
  best <- which.min(tot)
  rows <- which(group == best)
  totss <- max(sums$squares - sum(sums$total^2) / sums$weight_total, 0) * unit
  converged <- !is.na(iter[best])
  if (!converged) {
    warn("rff_kmeans() did not converge in %d steps (`iter_max`); the clusters are those of the last step.", iter_max)
  }
  fit <- structure(list(
    cluster = if (!setup$streamed) stats::setNames(sums$cluster[, best], rownames(setup$start$x)),
    centers = unname(centers[rows, , drop = FALSE]), totss = totss, withinss = withinss[rows] * unit,
    tot.withinss = tot[[best]] * unit, betweenss = totss - tot[[best]] * unit, size = as.integer(sums$size[rows]),
    iter = if (converged) iter[best] else iter_max, ifault = if (converged) 0L else 2L, converged = converged,
    map = setup$model$map, fun = setup$model$fun, scaling = setup$model$scaling, n = sum(sums$size[rows]),
    weight = sums$weight_total * unit
  ), class = c("askrff_kmeans", "kmeans"))
  dimnames(fit$centers) <- list(seq_len(k), NULL)
  fit
}
