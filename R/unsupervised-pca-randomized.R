# The top principal components of the features by the randomized range
# finder of Halko, Martinsson and Tropp (2011), for rff_pca(): passes that
# multiply the rows' features by a matrix, or take their transposed product
# with one, each n D l for l = rank + 10 columns, in place of the D x D
# covariance (n D^2) and its eigendecomposition (D^3).

# The components of A = diag(sqrt(w)) (Z - 1 c'), c the features' weighted
# mean (or 0 uncentred): a range Q of A's top columns space from A times a
# uniform test matrix, refined by `power` iterations (A' Q, then A times
# its orthonormal basis), and the singular value decomposition of A' Q,
# whose left vectors are the principal directions and squared values over
# the divisor their variances. Sums are about the first row's features s,
# as the eigendecomposition's are.
randomized_components <- function(setup, rank, center, seed, power = 4L, oversampling = 10L) {
  model <- setup$model
  rows <- setup$start
  n_threads <- setup$n_threads
  input <- core_input(model$map, rows$x, "left", n_threads)
  columns <- model$columns
  shift <- model_shifts(model, rows, n_threads)$z
  # the features' weighted sum and sum of squares about s: the k-means pass
  # with one centre, at s
  sums <- core(.cpp_kmeans_pass(input$map, model$fun, input$x, rows$w, matrix(shift, 1L), 1L, shift, FALSE, n_threads))
  w <- rows$w
  check_pca_rows(sum(w > 0))
  total <- sum(w)
  mean <- shift + sums$total / total
  centre <- if (center) mean else numeric(columns)
  divisor <- total - sum(w^2) / total
  total_variance <- (sums$squares - 2 * sum((centre - shift) * sums$total) + total * sum((centre - shift)^2)) / divisor
  root_w <- sqrt(w)
  times <- function(g) {
    zg <- core(.cpp_feature_products(input$map, model$fun, input$x, t(g), n_threads))
    root_w * sweep(zg, 2L, drop(crossprod(g, centre)), "-")
  }
  transposed_times <- function(q) {
    wq <- root_w * q
    core(.cpp_transposed_products(input$map, model$fun, input$x, wq, shift, n_threads)) +
      tcrossprod(shift - centre, colSums(wq))
  }
  basis <- function(m) qr.Q(qr(m, LAPACK = TRUE))
  width <- min(rank + oversampling, columns, nrow(rows$x))
  # the test matrix from a stream apart from the map's (the k-means starts')
  test <- matrix(2 * seed_uniforms(kmeans_start_words(seed), columns * width) - 1, columns, width)
  q <- basis(times(test))
  for (i in seq_len(power)) q <- basis(times(basis(transposed_times(q))))
  decomposition <- svd(transposed_times(q), nv = 0L)
  list(values = decomposition$d^2 / divisor, vectors = decomposition$u, total_variance = total_variance, mean = mean,
       n = sum(w > 0), weight = total)
}
