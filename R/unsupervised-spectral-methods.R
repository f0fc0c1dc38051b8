# The methods of rff_spectral()'s fits: the clusters of new rows by the
# eigenvectors' extension, the fitted clusters, a summary print, and the
# checks of a fit a user may have saved and edited.

#' @rdname rff_spectral
#' @export
predict.askrff_spectral <- function(object, newdata, n_threads = NULL, ...) {
  check_no_dots(...)
  object <- validate_spectral(object, "object")
  if (missing(newdata) || is.null(newdata)) return(object$cluster)
  rows <- unsupervised_newdata(object, newdata)
  cluster <- stats::setNames(rep(NA_integer_, length(rows$complete)), rows$names)
  if (!any(rows$complete)) return(cluster)
  n_threads <- resolve_threads(n_threads)
  input <- core_input(object$map, rows$x, "left", n_threads)
  products <- core(.cpp_feature_products(input$map, object$fun, input$x, t(cbind(object$degree_sum, object$projection)),
                                         n_threads))
  degrees <- products[, 1L]
  connected <- degrees > 0
  if (!all(connected)) {
    warn("%d row%s of `newdata` have no positive affinity to the rows fitted: their cluster is NA.",
         sum(!connected), if (sum(!connected) == 1L) "" else "s")
  }
  embedding <- spectral_embedding(products[connected, -1L, drop = FALSE], degrees[connected])
  distances <- outer(rowSums(embedding^2), rowSums(object$centers^2), "+") - 2 * embedding %*% t(object$centers)
  assigned <- rep(NA_integer_, nrow(products))
  assigned[connected] <- max.col(-distances, ties.method = "first")
  cluster[rows$complete] <- assigned
  cluster
}

#' @rdname rff_spectral
#' @export
fitted.askrff_spectral <- function(object, ...) {
  check_no_dots(...)
  validate_spectral(object, "object")$cluster
}

#' @export
print.askrff_spectral <- function(x, ...) {
  x <- validate_spectral(x, "x")
  k <- nrow(x$centers)
  cat(sprintf("Spectral clustering of %s rows on %d feature columns of the %s: %d cluster%s of sizes %s\n",
              format_count(x$n), nrow(x$projection), kernel_label(x$map$kernel), k, if (k == 1L) "" else "s",
              paste(x$size, collapse = ", ")))
  cat(sprintf("Eigenvalues of the normalized affinity: %s\n", paste(signif(x$eigenvalues, 4), collapse = ", ")))
  cat(sprintf("Within-cluster sums of squares of the embeddings: %s\n", paste(signif(x$withinss, 4), collapse = ", ")))
  invisible(x)
}

# A fit of rff_spectral() as a saved and perhaps edited list may hold it:
# its map valid, its projection and degree sum finite and of the map's
# feature columns, its centres and embeddings in the eigenvectors'
# coordinates, its partition consistent with them.
validate_spectral <- function(fit, arg) as_condition_class("invalid_object", {
  if (!is.list(fit) || !inherits(fit, "askrff_spectral")) fail("`%s` must be a fit of rff_spectral().", arg)
  model <- validate_fit_map(fit, arg)
  projection <- fit$projection
  if (!is_matrix(projection) || !is.double(projection) || nrow(projection) != model$columns ||
        ncol(projection) < 1L || any(!is.finite(projection))) {
    fail("`%s` must be a finite matrix with one row per feature column (%d) and one column per cluster.",
         field(arg, "projection"), model$columns)
  }
  k <- ncol(projection)
  s <- fit$degree_sum
  if (!is.double(s) || length(s) != model$columns || any(!is.finite(s))) {
    fail("`%s` must be one finite number per feature column (%d).", field(arg, "degree_sum"), model$columns)
  }
  centers <- fit$centers
  if (!is_matrix(centers) || !is.double(centers) || nrow(centers) != k || ncol(centers) != k ||
        any(!is.finite(centers))) {
    fail("`%s` must be a finite %d x %d matrix: a row per cluster in the embedding's coordinates.",
         field(arg, "centers"), k, k)
  }
  values <- fit$eigenvalues
  if (!is.double(values) || length(values) != k || any(!is.finite(values)) || any(values <= 0)) {
    fail("`%s` must be %d positive finite numbers.", field(arg, "eigenvalues"), k)
  }
  e <- fit$embedding
  if (!is_matrix(e) || !is.double(e) || ncol(e) != k || any(!is.finite(e))) {
    fail("`%s` must be a finite matrix with one column per cluster (%d).", field(arg, "embedding"), k)
  }
  validate_partition(fit, arg, k)
  if (is.null(fit$cluster) || length(fit$cluster) != nrow(e)) {
    fail("`%s` must give a cluster for each row of the embedding (%d).", field(arg, "cluster"), nrow(e))
  }
  if (!is.null(fit$scaling)) fit$scaling <- validate_fit_scaling(fit$scaling, model$d, arg)
  fit$map <- model$map
  fit$fun <- model$fun
  fit
})
