# The top principal components of the features by the randomized range
# finder of Halko, Martinsson and Tropp (2011), for rff_pca(): passes that
# multiply the rows' features by a matrix, or take their transposed product
# with one, each n D l for l = rank + 10 columns, in place of the D x D
# covariance (n D^2) and its eigendecomposition (D^3).

# The components of A = diag(sqrt(w)) (Z - 1 c'), c the features' weighted
# mean (or 0 uncentred): a range Q of A's column space from A times a
# uniform test matrix, refined by `power` iterations (A' Q, then A times
# its orthonormal basis), and the singular value decomposition of A' Q,
# whose left vectors are the principal directions and squared values over
# the divisor their variances. Products are about the first row's features
# s, as the eigendecomposition's sums are; the first transposed pass also
# gives the features' weighted sum and squares (the mean and the total
# variance), and until then the mean's products come from A's own.
randomized_components <- function(setup, rank, center, seed, power = 2L, oversampling = 10L) {
  model <- setup$model
  rows <- setup$start
  n_threads <- setup$n_threads
  input <- core_input(model$map, rows$x, "left", n_threads)
  columns <- model$columns
  shift <- model_shifts(model, rows, n_threads)$z
  w <- rows$w
  check_pca_rows(sum(w > 0))
  total <- sum(w)
  divisor <- total - sum(w^2) / total
  root_w <- sqrt(w)
  centre <- if (center) NULL else -shift  # c - s, once known
  moments <- NULL
  times <- function(g) {
    shifted <- sweep(core(.cpp_feature_products(input$map, model$fun, input$x, t(g), n_threads)), 2L,
                     drop(crossprod(g, shift)), "-")
    offset <- if (is.null(centre)) colSums(w * shifted) / total else drop(crossprod(g, centre))
    root_w * sweep(shifted, 2L, offset, "-")
  }
  transposed_times <- function(q) {
    wq <- root_w * q
    sums <- core(.cpp_transposed_products(input$map, model$fun, input$x, cbind(wq, w), w, shift, n_threads))
    weighted_sum <- sums$products[, ncol(sums$products)]
    if (is.null(centre)) centre <<- weighted_sum / total
    if (is.null(moments)) moments <<- list(sum = weighted_sum, squares = sums$squares)
    sums$products[, seq_len(ncol(q)), drop = FALSE] - tcrossprod(centre, colSums(wq))
  }
  basis <- function(m) qr.Q(qr(m, LAPACK = TRUE))
  width <- min(rank + oversampling, columns, nrow(rows$x))
  # the test matrix from a stream apart from the map's (the k-means starts')
  test <- matrix(2 * seed_uniforms(kmeans_start_words(seed), columns * width) - 1, columns, width)
  q <- basis(times(test))
  for (i in seq_len(power)) q <- basis(times(basis(transposed_times(q))))
  decomposition <- svd(transposed_times(q), nv = 0L)
  total_variance <- (moments$squares - 2 * sum(centre * moments$sum) + total * sum(centre^2)) / divisor
  list(values = decomposition$d^2 / divisor, vectors = decomposition$u, total_variance = total_variance,
       mean = shift + moments$sum / total, n = sum(w > 0), weight = total)
}
