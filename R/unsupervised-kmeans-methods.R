# The methods of rff_kmeans()'s fits: the clusters of new rows, the fitted
# clusters or centres, a summary print, and the checks of a fit a user may
# have saved and edited.

#' @rdname rff_kmeans
#' @order 2
#' @export
predict.askrff_kmeans <- function(object, newdata, n_threads = NULL, ...) {
  check_no_dots(...)
  object <- validate_kmeans(object, "object")
  if (missing(newdata) || is.null(newdata)) {
    if (is.null(object$cluster)) fail("The fit of chunks keeps no clusters: give `newdata`.")
    return(object$cluster)
  }
  rows <- unsupervised_newdata(object, newdata)
  cluster <- stats::setNames(rep(NA_integer_, length(rows$complete)), rows$names)
  if (any(rows$complete)) {
    n_threads <- resolve_threads(n_threads)
    input <- core_input(object$map, rows$x, "left", n_threads)
    nearest <- core(.cpp_kmeans_pass(input$map, object$fun, input$x, rep(1, nrow(rows$x)), object$centers,
                                     nrow(object$centers), object$centers[1L, ], TRUE, n_threads))
    cluster[rows$complete] <- nearest$cluster[, 1L]
  }
  cluster
}

#' @rdname rff_kmeans
#' @order 3
#' @export
fitted.askrff_kmeans <- function(object, method = c("centers", "classes"), ...) {
  check_no_dots(...)
  object <- validate_kmeans(object, "object")
  method <- check_choice(method, c("centers", "classes"), "method")
  if (is.null(object$cluster)) fail("The fit of chunks keeps no clusters: use `predict()` with the rows.")
  if (method == "classes") object$cluster else object$centers[object$cluster, , drop = FALSE]
}

#' @export
print.askrff_kmeans <- function(x, ...) {
  x <- validate_kmeans(x, "x")
  k <- nrow(x$centers)
  cat(sprintf("Kernel k-means of %s rows on %d feature columns of the %s: %d cluster%s of sizes %s\n",
              format_count(x$n), ncol(x$centers), kernel_label(x$map$kernel), k, if (k == 1L) "" else "s",
              paste(x$size, collapse = ", ")))
  cat(sprintf("Within-cluster sums of squares: %s\n", paste(signif(x$withinss, 4), collapse = ", ")))
  cat(sprintf(" (between_SS / total_SS = %5.1f %%)\n", 100 * x$betweenss / x$totss))
  cat(sprintf("%s after %s Lloyd step%s\n", if (x$converged) "Converged" else "Not converged", format_count(x$iter),
              if (x$iter == 1L) "" else "s"))
  invisible(x)
}

# A fit of rff_kmeans() as a saved and perhaps edited list may hold it: its
# map valid, its centres finite with one column per feature column, its
# sizes, sums of squares and clusters consistent with them, its scaling
# one of the map's columns.
validate_kmeans <- function(fit, arg) as_condition_class("invalid_object", {
  if (!is.list(fit) || !inherits(fit, "askrff_kmeans")) fail("`%s` must be a fit of rff_kmeans().", arg)
  model <- validate_fit_map(fit, arg)
  centers <- fit$centers
  if (!is_matrix(centers) || !is.double(centers) || ncol(centers) != model$columns || nrow(centers) < 1L ||
      any(!is.finite(centers))) {
    fail("`%s` must be a finite matrix with one column per feature column (%d) and a row per cluster.",
         field(arg, "centers"), model$columns)
  }
  validate_partition(fit, arg, nrow(centers))
  if (!isTRUE(fit$converged) && !isFALSE(fit$converged)) fail("`%s` must be TRUE or FALSE.", field(arg, "converged"))
  if (!is.null(fit$scaling)) fit$scaling <- validate_fit_scaling(fit$scaling, model$d, arg)
  fit$map <- model$map
  fit$fun <- model$fun
  fit
})

# The fields of a kmeans object that describe the partition of the rows
# fitted into k clusters: sizes, sums of squares, clusters, steps.
validate_partition <- function(fit, arg, k) {
  if (!is.numeric(fit$size) || length(fit$size) != k || anyNA(fit$size) || any(fit$size < 0)) {
    fail("`%s` must be one nonnegative count per cluster (%d).", field(arg, "size"), k)
  }
  for (name in c("withinss", "totss", "tot.withinss", "betweenss")) {
    value <- fit[[name]]
    if (!is.double(value) || length(value) != (if (name == "withinss") k else 1L) || any(!is.finite(value))) {
      fail("`%s` must be %s.", field(arg, name), if (name == "withinss") sprintf("one finite number per cluster (%d)", k) else "a finite number")
    }
  }
  cluster <- fit$cluster
  if (!is.null(cluster) && (!is.integer(cluster) || anyNA(cluster) || any(cluster < 1L | cluster > k))) {
    fail("`%s` must be NULL or a cluster between 1 and %d for each row fitted.", field(arg, "cluster"), k)
  }
  if (!is_single_number(fit$n) || !is.finite(fit$n) || fit$n < 1) {
    fail("`%s` must be the number of rows fitted, at least 1.", field(arg, "n"))
  }
  iter <- fit$iter
  if (!is_single_number(iter) || !is.finite(iter) || iter < 1 || iter > 1e6 || iter != round(iter)) {
    fail("`%s` must be the number of k-means steps taken, a whole number from 1 to 1e6.", field(arg, "iter"))
  }
}
