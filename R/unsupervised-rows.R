# The rows the unsupervised methods (rff_pca(), rff_kmeans()) read: the
# chunks of their fits, and new rows for their predictions.

# A chunk of an unsupervised method's data (rff_pca(), rff_kmeans()),
# checked and standardized, with its weights and the one zero response the
# cross-products need.
unlabelled_chunk <- function(chunk, index, arg, model, response) as_condition_class("data", {
  if (is.null(arg)) {
    x <- check_data(chunk$x, "x", model$d)
    w_where <- "`weights`"
  } else {
    checked <- check_chunk(chunk, index, arg, model$d, "x")
    x <- checked$x
    w_where <- sprintf("`w` of %s", checked$where)
  }
  x <- apply_scaling(x, model$scaling)
  check_map_data(model$map, x, if (is.null(arg)) "x" else sprintf("`x` of chunk %d", index))
  list(x = x, y = matrix(0, nrow(x), 1L), w = check_weights(chunk$w, nrow(x), w_where), response = list())
})

# The rows of `newdata` for a fit of an unsupervised method: which are
# complete, and those rows checked for the fit's map and standardized as the
# rows fitted were (NULL when none is complete).
unsupervised_newdata <- function(object, newdata) {
  if (isS4(newdata) && methods::is(newdata, "Matrix")) newdata <- as.matrix(newdata)
  if (!is.data.frame(newdata) && !is_matrix(newdata)) fail("`newdata` must be a numeric matrix or data frame.")
  complete <- stats::complete.cases(newdata)
  x <- NULL
  if (any(complete)) {
    x <- apply_scaling(check_data(newdata[complete, , drop = FALSE], "newdata", object$map$d), object$scaling)
    check_map_data(object$map, x, "newdata")
  }
  list(complete = complete, x = x, names = rownames(newdata))
}
