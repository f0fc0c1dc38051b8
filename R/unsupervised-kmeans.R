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
#' points `s`, `rff_kmeans(x, s, map = map, tol = 0)` gives the clusters of
#' `kmeans(rff_features(map, x), rff_features(map, s), algorithm = "Lloyd")`.
#'
#' **Starts.** `centers` may be the starting points themselves (rows with
#' `x`'s columns, whose features are the first centres), or the number of
#' clusters k: then k-means++ (Arthur and Vassilvitskii 2007) on the
#' features picks k of the rows, with probability proportional to each
#' row's weight times its squared distance to the rows already picked, from
#' a uniform sample of the distinct rows (for a chunk source, of the first
#' chunk's rows): 10,000 of them, fewer when their features would pass 128
#' MB, and at least 20 k. Lloyd's steps run on that sample first, which
#' needs no pass over the data, and the passes over all rows start from
#' where they end. `n_starts` such starts run together (one pass serves
#' them all) and the one with the smallest `tot.withinss` is kept. A
#' cluster that loses all its rows keeps its centre.
#'
#' **Convergence.** The steps stop when the centres of a step move by at
#' most `tol` times the features' total variance (their squared distances
#' to the last ones summed, against `totss` over the total weight: the sum
#' of the columns' variances, where scikit-learn's KMeans takes their mean,
#' which would shrink with the number of columns D); with `tol = 0`, when
#' no centre moves, which is when no row changes cluster, as
#' `kmeans()` stops. After `iter_max` steps they stop with a warning and
#' `ifault` 2 as kmeans gives. The centres are the means of the last
#' step's clusters and the sums of squares are about them. `iter` counts
#' the steps over all rows.
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
#' @param tol The largest move of the centres that stops the steps, in units
#'   of the features' total variance (default 1e-4); 0 for none.
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
                       tol = 1e-4, weights = NULL, method = "iid", seed = NULL, standardize = NULL, fun = NULL, n_threads = NULL,
                       ...) {
  check_no_dots(...)
  n_starts <- check_count(n_starts, "n_starts", max = 1000)
  iter_max <- check_count(iter_max, "iter_max", max = 1e6)
  if (!is_single_number(tol) || !is.finite(tol) || tol < 0) fail("`tol` must be a finite number, at least 0.")
  if (missing(centers)) fail("`centers` must be given: the number of clusters, or their starting points.")
  starts <- kmeans_starts(centers, n_starts)
  streamed <- is_chunk_source(x)
  data <- model_data(x, NULL, weights, NULL, streamed)
  data$fields <- "x"
  standardize <- resolve_standardize(standardize, map, kernel, streamed)
  start_words <- kmeans_start_words(seed)
  fit <- fit_kmeans(data, model_map(map, kernel, n_features, method, seed), standardize, starts,
                    list(iter_max = iter_max, tol = tol), fun, n_threads, start_words)
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
# then Lloyd's steps, each a pass of kmeans_chunk_work() over the chunks for
# every start at once. k-means++ starts take their steps on the rows they
# were picked from first, which costs no pass, so that the passes over all
# rows begin near their end.
fit_kmeans <- function(data, map_of, standardize, starts, stopping, fun, n_threads, seed_words) {
  setup <- model_setup(data, map_of, standardize, fun, n_threads, memory = 0, encode = unlabelled_chunk)
  model <- setup$model
  k <- starts$k
  shift <- model_shifts(model, setup$start, setup$n_threads)$z
  group <- rep(seq_len(starts$n_starts), each = k)
  steps <- function(pass, centers) lloyd_steps(function(centers) {
    pass(kmeans_chunk_work(model, centers, k, shift, !setup$streamed, setup$worker_threads))
  }, centers, shift, group, stopping)
  first <- kmeans_initial_centers(setup, starts, seed_words)
  centers <- if (is.null(first$sample)) first$centers else steps(function(work) work(first$sample), first$centers)$centers
  run_pass <- model_passes(setup, "rff_kmeans()")
  kmeans_result(setup, steps(function(work) run_pass(work, add_sums), centers), group, k, stopping$iter_max)
}

# Lloyd's steps from `centers` (groups of k rows, one group per start), each
# summed by pass(centers), until no group's centres move by more than
# `stopping$tol` times the features' total variance (squared distance summed
# over a group's centres; with tol 0, until no row changes cluster) or
# `stopping$iter_max` steps: the last sums, the centres they give, each
# cluster's sum of squares about them (the sums' own, about the centres
# they were taken for, less the shift of the mean) and the step at which
# each group stopped (NA if it did not).
lloyd_steps <- function(pass, centers, shift, group, stopping) {
  iter <- rep(NA_integer_, max(group))
  for (step in seq_len(stopping$iter_max)) {
    sums <- pass(centers)
    if (!(sums$weight_total > 0)) fail("The rows of `x` have no positive weight.", class = "data")
    if (step == 1L) {
      variance <- (sums$squares - sum(sums$total^2) / sums$weight_total) / sums$weight_total
      threshold <- stopping$tol * max(variance, 0)
    }
    # a cluster without rows keeps its centre
    filled <- sums$weight > 0
    moved <- centers
    moved[filled, ] <- sweep(sums$sums[filled, , drop = FALSE] / sums$weight[filled], 2L, shift, "+")
    still <- tapply(rowSums((moved - centers)^2), group, sum) <= threshold
    iter[is.na(iter) & still] <- step
    if (all(!is.na(iter)) || step == stopping$iter_max) break
    centers <- moved
  }
  withinss <- pmax(sums$withinss - sums$weight * rowSums((moved - centers)^2), 0)
  list(sums = sums, centers = moved, withinss = withinss, iter = iter)
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
# chunk's distinct rows of positive weight (at most 10,000, fewer when
# their features would pass 128 MB, and at least 20 k), with that `sample`
# as a chunk.
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
    return(list(centers = features(points), sample = NULL))
  }
  x <- setup$start$x
  w <- setup$start$w
  distinct <- which(w > 0 & !duplicated(x))
  if (length(distinct) < k) {
    fail("`centers` asks for %d clusters, but %s %d distinct row%s of positive weight.", k,
         if (setup$streamed) "the first chunk of `x` has" else "`x` has", length(distinct),
         if (length(distinct) == 1L) "" else "s", class = "data")
  }
  check_output_size(starts$n_starts * k, model$columns, "the centres of the starts (`n_starts` x `centers`)")
  uniforms <- seed_uniforms(seed_words, length(distinct) + starts$n_starts * k)
  size <- max(min(10000L, 2^24 %/% model$columns), 20L * k)
  sampled <- distinct[order(uniforms[seq_along(distinct)])[seq_len(min(length(distinct), size))]]
  sample <- list(x = x[sampled, , drop = FALSE], w = w[sampled])
  z <- features(sample$x)
  picks <- lapply(seq_len(starts$n_starts), function(s) {
    kmeans_pp_rows(z, k, uniforms[length(distinct) + (s - 1L) * k + seq_len(k)], sample$w)
  })
  list(centers = z[unlist(picks), , drop = FALSE], sample = sample)
}

# The fit of the start with the least within-cluster sum of squares.
kmeans_result <- function(setup, steps, group, k, iter_max) {
  sums <- steps$sums
  centers <- steps$centers
  withinss <- steps$withinss
  iter <- steps$iter
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
