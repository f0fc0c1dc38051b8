#' Spectral clustering on kernel features
#'
#' The spectral clustering of Ng, Jordan and Weiss (2002) with the kernel's
#' affinity approximated by features, \eqn{A \approx Z Z'}, so that
#' no n x n matrix is formed. The degrees \eqn{d_i = z_i' \sum_j z_j} take
#' two passes over the rows (the features' sum, then each row's product
#' with it); the normalized affinity \eqn{D^{-1/2} Z Z' D^{-1/2}} has the
#' nonzero eigenvalues of the D x D matrix \eqn{M = \sum_i z_i z_i' / d_i},
#' summed in a third pass, and its eigenvectors are
#' \eqn{u = D^{-1/2} Z v / \sqrt{\lambda}} for each eigenpair \eqn{(\lambda,
#' v)} of \eqn{M}. A row's embedding is its entries in the top `centers`
#' eigenvectors (a fourth pass), scaled to unit length; k-means on the embeddings
#' ([stats::kmeans()], Hartigan and Wong, from `n_starts` k-means++ starts
#' drawn from the seed) gives the clusters. The cost is n D^2 for the
#' passes and D^3 for the eigendecomposition, whatever n.
#'
#' **Which features.** By default (`method = "nystrom"`) the features are
#' those of a Nyström map ([nystrom_map()], Fowlkes et al. 2004) on
#' `n_features` landmarks picked from the rows by k-means++ from the seed:
#' exact at the landmarks, it keeps the small affinities between distant
#' rows small, which spectral clustering reads. Random Fourier features
#' (`method = "iid"`, `"orthogonal"`, ... as for [rff_map()]) approximate
#' every affinity with the same absolute error, about
#' \eqn{1/\sqrt{D}}, which swamps the small ones: on two rings of 2,000
#' points that `kernlab::specc()` separates (adjusted Rand index 1), 1,024
#' random Fourier frequencies gave 0.13 and Nyström maps of 100 and 300
#' landmarks gave 1, as specc did, in 0.03 and 0.1 s against specc's 23 s.
#' `map` takes any map of the package.
#'
#' **Degrees.** The exact affinity of a positive kernel is positive, but an
#' approximation need not be: a kernel whose length scale is small against
#' the data's spread makes most affinities near 0, and a row's approximate
#' degree can fall to 0 or below. The fit then stops with an error: give
#' more `n_features`, a larger length scale, or the Nyström map.
#'
#' **New rows.** `predict()` embeds new rows as the eigenvectors extend to
#' them (the Nyström extension: \eqn{z(x)' V \Lambda^{-1/2} / \sqrt{d(x)}},
#' \eqn{d(x) = z(x)' \sum_j z_j}, scaled to unit length) and assigns each
#' to the nearest centre of the embeddings; a row with no positive affinity
#' to the rows fitted gets `NA`, with a warning. For the rows fitted this
#' gives their clusters.
#'
#' @inheritParams rff_pca
#' @param x A numeric matrix or data frame of numeric columns (rows are
#'   observations), in memory: the embedding holds n x `centers` numbers.
#' @param centers The number of clusters.
#' @param n_features The number of landmarks of the Nyström map (default
#'   300; at most the distinct rows), or of frequencies of a random Fourier
#'   map, drawn for `kernel`.
#' @param method `"nystrom"` (the default; see "Which features") or a
#'   method of [rff_map()] for random Fourier features.
#' @param seed,standardize,fun,n_threads As for [rff_ridge()]: the seed of
#'   the map, the landmarks and the k-means starts, whether the columns are
#'   standardized first (default: for a kernel whose scale comes from the
#'   data), the features of a random periodic map, and the threads.
#' @param n_starts The number of k-means++ starts of the k-means on the
#'   embeddings (default 10); the fit keeps the one of least within-cluster
#'   sum of squares.
#' @param iter_max The most k-means steps of each start (default 100).
#' @param object,newdata For `predict()`: a fit of `rff_spectral()` and a
#'   numeric matrix or data frame of new rows with the fit's columns
#'   (omitted: the clusters of the rows fitted).
#' @return An object of class `c("askrff_spectral", "kmeans")`: the fields
#'   of [stats::kmeans()] for the embeddings (`cluster`, `centers` in the
#'   embedding's `centers` coordinates, `totss`, `withinss`, `tot.withinss`,
#'   `betweenss`, `size`, `iter`, `ifault`), and `embedding` (the rows'
#'   unit-length embeddings), `eigenvalues` (the top `centers` eigenvalues
#'   of the normalized affinity; 1 is the largest when the approximate
#'   affinity is nonnegative, and larger ones point to too few features),
#'   `projection` (\eqn{V
#'   \Lambda^{-1/2}}, D x `centers`), `degree_sum` (\eqn{\sum_j z_j}), the
#'   `map` and its `fun`, the columns' `scaling`, `n` and the `call`.
#'   `predict()` gives the clusters of `newdata`.
#' @references Ng, A. Y., Jordan, M. I. and Weiss, Y. (2002). On spectral
#'   clustering: analysis and an algorithm. *Advances in Neural Information
#'   Processing Systems* 14.
#'
#'   Fowlkes, C., Belongie, S., Chung, F. and Malik, J. (2004). Spectral
#'   grouping using the Nyström method. *IEEE Transactions on Pattern
#'   Analysis and Machine Intelligence* 26, 214-225.
#' @seealso [rff_kmeans()] (kernel k-means), `kernlab::specc()` (exact, with
#'   an n x n matrix).
#' @examples
#' set.seed(1)
#' angle <- runif(600, 0, 2 * pi)
#' ring <- rep(1:2, each = 300)
#' radius <- c(1, 3)[ring]
#' x <- cbind(radius * cos(angle), radius * sin(angle)) + rnorm(1200, sd = 0.1)
#' fit <- rff_spectral(x, 2, kernel = gaussian_kernel(0.5), seed = 1)
#' table(fit$cluster, ring)
#' predict(fit, rbind(c(0, 1), c(3, 0)))
#' @export
rff_spectral <- function(x, centers, map = NULL, kernel = NULL, n_features = 300, n_starts = 10, iter_max = 100,
                         method = "nystrom", seed = NULL, standardize = NULL, fun = NULL, n_threads = NULL, ...) {
  check_no_dots(...)
  if (missing(centers)) fail("`centers` must be given: the number of clusters.")
  k <- check_count(centers, "centers", max = 1000)
  n_starts <- check_count(n_starts, "n_starts", max = 1000)
  iter_max <- check_count(iter_max, "iter_max", max = 1e6)
  if (is_chunk_source(x)) {
    fail("`x` must be a matrix or data frame in memory: spectral clustering keeps each row's embedding.")
  }
  data <- model_data(x, NULL, NULL, NULL, FALSE)
  data$fields <- "x"
  standardize <- resolve_standardize(standardize, map, kernel, FALSE)
  map_of <- if (is.null(map) && identical(method, "nystrom")) {
    nystrom_map_of(kernel, check_count(n_features, "n_features", max = 1e5), seed)
  } else {
    model_map(map, kernel, n_features, method, seed)
  }
  fit <- fit_spectral(data, map_of, standardize, k, n_starts, iter_max, fun, n_threads, kmeans_start_words(seed))
  fit$call <- match.call()
  fit
}

# The Nyström map of `kernel` (a name: its scale from the rows, as
# model_map() draws) on landmarks picked by k-means++ from the rows.
nystrom_map_of <- function(kernel, n_landmarks, seed) {
  tidy_kernel(kernel)  # checked before any data are read
  function(x, what = NULL) {
    chosen <- kernel_for_data(kernel, 1, x, seed)
    landmarks <- nystrom_landmarks(x, min(n_landmarks, sum(!duplicated(x))), method = "kmeans++", seed = seed)
    nystrom_map(chosen, landmarks)
  }
}

# The embedding of the rows (see rff_spectral()) and k-means on it.
fit_spectral <- function(data, map_of, standardize, k, n_starts, iter_max, fun, n_threads, seed_words) {
  setup <- model_setup(data, map_of, standardize, fun, n_threads, memory = 3, encode = unlabelled_chunk)
  model <- setup$model
  rows <- setup$start
  if (nrow(rows$x) <= k) fail("`x` must have more rows than `centers` (%d).", k, class = "data")
  input <- core_input(model$map, rows$x, "left", setup$n_threads)
  # the features' sum: the sum of the Gram pass with no columns
  zero <- numeric(model$columns)
  degree_sum <- core(.cpp_gram_products(input$map, model$fun, input$x, matrix(0, model$columns, 0L),
                                        rep(1, nrow(rows$x)), zero, FALSE, setup$n_threads))$sum
  degrees <- drop(spectral_products(model, input, matrix(degree_sum, 1L), setup$n_threads))
  if (!all(degrees > 0)) {
    fail("The features give %d of the %d rows of `x` a degree (summed affinity) of 0 or less: the kernel's length scale is small for them. Give more `n_features`, a larger length scale, or a Nystr\u00f6m map.",
         sum(!(degrees > 0)), length(degrees), class = "data")
  }
  normalized <- core(.cpp_cross_products(input$map, model$fun, input$x, rows$y, 1 / degrees, zero, 0,
                                         setup$n_threads))$zz
  normalized[upper.tri(normalized)] <- t(normalized)[upper.tri(normalized)]
  decomposition <- symmetric_eigen(normalized)
  values <- decomposition$values[seq_len(k)]
  if (length(values) < k || !all(values > 1e-10 * values[1L])) {
    fail("The normalized affinity of the rows of `x` has fewer than %d eigenvalues above 0: the map's %d feature columns cannot separate %d clusters.",
         k, model$columns, k, class = "data")
  }
  projection <- sweep(decomposition$vectors[, seq_len(k), drop = FALSE], 2L, sqrt(values), "/")
  embedding <- spectral_embedding(spectral_products(model, input, t(projection), setup$n_threads), degrees)
  clusters <- embedding_kmeans(embedding, k, n_starts, iter_max, seed_words)
  structure(c(clusters, list(embedding = embedding, eigenvalues = values, projection = projection,
                             degree_sum = degree_sum, map = model$map, fun = model$fun, scaling = model$scaling,
                             n = nrow(rows$x))),
            class = c("askrff_spectral", "kmeans"))
}

# The rows' features times the columns of t(coefficients_t).
spectral_products <- function(model, input, coefficients_t, n_threads) {
  core(.cpp_feature_products(input$map, model$fun, input$x, coefficients_t, n_threads))
}

# Rows' coordinates in the eigenvectors, over the root of their degrees
# and then to unit length (the degree's factor cancels in the second step
# but keeps the coordinates those of the eigenvectors until then).
spectral_embedding <- function(coordinates, degrees) {
  coordinates <- coordinates / sqrt(degrees)
  lengths <- sqrt(rowSums(coordinates^2))
  coordinates / ifelse(lengths > 0, lengths, 1)
}

# k-means of the embeddings from n_starts k-means++ starts on their
# distinct rows: the fit of least within-cluster sum of squares, as a list
# of kmeans' fields. A start that does not converge in iter_max steps
# warns, naming `iter_max`.
embedding_kmeans <- function(embedding, k, n_starts, iter_max, seed_words) {
  distinct <- which(!duplicated(round(embedding, 12)))
  if (length(distinct) < k) {
    fail("The embeddings of the rows of `x` take %d distinct values, fewer than `centers` (%d).", length(distinct), k,
         class = "data")
  }
  uniforms <- seed_uniforms(seed_words, n_starts * k)
  best <- NULL
  for (s in seq_len(n_starts)) {
    starts <- distinct[kmeans_pp_rows(embedding[distinct, , drop = FALSE], k, uniforms[(s - 1L) * k + seq_len(k)])]
    fit <- withCallingHandlers(stats::kmeans(embedding, embedding[starts, , drop = FALSE], iter.max = iter_max),
                               warning = function(w) {
                                 warn("k-means of the embeddings did not converge in `iter_max` = %d steps.", iter_max)
                                 invokeRestart("muffleWarning")
                               })
    if (is.null(best) || fit$tot.withinss < best$tot.withinss) best <- fit
  }
  best <- unclass(best)
  dimnames(best$centers) <- list(seq_len(k), paste0("E", seq_len(k)))
  best$cluster <- unname(best$cluster)
  best
}
