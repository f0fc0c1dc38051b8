# The top principal components of the features by a randomized subspace
# iteration (Halko, Martinsson and Tropp 2011), for rff_pca(): each pass
# multiplies the features' covariance by a matrix of l = rank + 20 columns
# as it sums over rows (the features' products with it and the transposed
# product with the result, 4 n D l flops, never D x D), in place of the
# D x D covariance (n D^2) and its eigendecomposition (D^3).

# The components of the covariance C = A'A / divisor, A = diag(sqrt(w))
# (Z - 1 c'), c the features' weighted mean (or 0 uncentred): C times a
# uniform test matrix, then `power` - 1 passes of C times the orthonormal
# basis of the last product, and a last pass that gives C Q for the last
# basis Q: the eigendecomposition of Q'CQ (l x l, the Rayleigh-Ritz step)
# gives the directions Q V and their variances, and the last pass keeps
# each row's (z_i - s)'Q, so the rows' scores need no pass of their own.
# Sums are about the first row's features s, as the eigendecomposition's
# are; the first pass also gives the features' weighted sum and squares
# (the mean and the total variance), and with them its own centring.
randomized_components <- function(setup, rank, center, seed, power = 2L, oversampling = 20L) {
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
  moments <- NULL  # the sums of w (z - s) and w |z - s|^2
  centre <- NULL  # c - s
  # C g, with the rows' (z_i - s)'g when kept: with u = z - s and e = c - s,
  # the sum of w (u - e)(u - e)'g from those of w u u'g and w u
  pass <- function(g, keep = FALSE) {
    sums <- core(.cpp_gram_products(input$map, model$fun, input$x, g, w, shift, keep, n_threads))
    if (is.null(moments)) {
      moments <<- sums[c("sum", "squares")]
      centre <<- if (center) moments$sum / total else -shift
    }
    e_g <- crossprod(g, centre)
    sums$products <- (sums$products - tcrossprod(centre, crossprod(g, moments$sum)) -
                        tcrossprod(moments$sum - total * centre, e_g)) / divisor
    sums
  }
  basis <- function(m) qr.Q(qr(m, LAPACK = TRUE))
  width <- min(rank + oversampling, columns, nrow(rows$x))
  # the test matrix from a stream apart from the map's (the k-means starts')
  test <- matrix(2 * seed_uniforms(kmeans_start_words(seed), columns * width) - 1, columns, width)
  q <- basis(pass(test)$products)
  for (i in seq_len(power - 1L)) q <- basis(pass(q)$products)
  last <- pass(q, keep = TRUE)
  projected <- crossprod(q, last$products)
  decomposition <- eigen((projected + t(projected)) / 2, symmetric = TRUE)
  scores <- sweep(last$projections, 2L, drop(crossprod(q, centre)), "-") %*% decomposition$vectors
  total_variance <- (moments$squares - 2 * sum(centre * moments$sum) + total * sum(centre^2)) / divisor
  list(values = decomposition$values, vectors = q %*% decomposition$vectors, scores = scores,
       total_variance = total_variance, mean = shift + moments$sum / total, n = sum(w > 0), weight = total)
}
