# Ridge regression's data: a chunk checked, standardized and its response
# encoded as a matrix of numeric columns (a factor's levels as indicators).

# A chunk's data, checked and standardized, with its response as a matrix (a
# factor becomes its levels' indicator columns) less its offset, and its
# weights. `response` is NULL for the first chunk, which sets the kind the
# others must match and whether they carry an offset (`response$offset`).
ridge_chunk <- function(chunk, index, arg, model, response) as_condition_class("data", {
  if (is.null(arg)) {
    x <- check_data(chunk$x, "x", model$d)
    y <- chunk$y
    where <- "`y`"
    w_where <- "`weights`"
    o_where <- "`offset`"
  } else {
    checked <- check_chunk(chunk, index, arg, model$d)
    x <- checked$x
    y <- checked$y
    where <- sprintf("`y` of %s", checked$where)
    w_where <- sprintf("`w` of %s", checked$where)
    o_where <- sprintf("`offset` of %s", checked$where)
  }
  x <- apply_scaling(x, model$scaling)
  check_map_data(model$map, x, if (is.null(arg)) "x" else sprintf("`x` of chunk %d", index))
  offset <- check_offset(chunk$offset, nrow(x), 1L, o_where)
  encoded <- encode_response(y, nrow(x), where, response)
  encoded$response$offset <- check_offset_presence(offset, response$offset, o_where)
  # the fit is of y - offset (every response column's), whose predictions
  # get the offset back
  list(x = x, y = if (is.null(offset)) encoded$y else encoded$y - drop(offset), offset = offset,
       w = check_weights(chunk$w, nrow(x), w_where), response = encoded$response,
       where = if (is.null(arg)) "the data" else sprintf("chunk %d", index))
})

response_text <- function(response) {
  switch(response$kind, numeric = "numeric vector", factor = "factor with the levels",
         matrix = sprintf("numeric matrix of %d columns", length(response$names)))
}

encode_response <- function(y, n, where, response) {
  if (!is.null(response) && is.factor(y) != identical(response$kind, "factor")) {
    fail("%s must be a %s like the first chunk's.", where, response_text(response))
  }
  if (is.factor(y)) {
    if (length(y) != n) fail("%s must have one entry per row of x (%d), not %d.", where, n, length(y))
    if (anyNA(y)) fail("%s must not contain NA.", where)
    if (is.null(response)) {
      if (nlevels(y) < 2L) fail("%s must be a factor with at least two levels.", where)
      response <- list(kind = "factor", names = levels(y))
    }
    if (!identical(levels(y), response$names)) fail("%s must be a %s of the first chunk's.", where, response_text(response))
    return(list(y = outer(as.integer(y), seq_along(response$names), "==") + 0, response = response))
  }
  if (!is.numeric(y) || is.object(y) || !(is.null(dim(y)) || is_matrix(y))) {
    fail("%s must be a numeric vector, a numeric matrix or a factor.", where)
  }
  matrix_y <- is_matrix(y)
  if ((if (matrix_y) nrow(y) else length(y)) != n) {
    fail("%s must have one %s per row of x (%d), not %d.", where, if (matrix_y) "row" else "entry", n,
         if (matrix_y) nrow(y) else length(y))
  }
  if (anyNA(y) || any(!is.finite(y))) fail("%s must not contain NA, NaN or infinite values.", where)
  # the fit sums squares and cross-products of y over every row
  if (any(abs(y) > 1e100)) {
    fail("%s has values up to %s; responses must be at most 1e100 in absolute value, so that the sums of their squares stay finite. Rescale y.",
         where, format(max(abs(y)), digits = 3))
  }
  # ... and squares that do not all underflow to zero
  largest <- if (length(y) > 0L) max(abs(y)) else 0
  if (largest > 0 && largest < 1e-100) {
    fail("%s has values only up to %s; responses must reach 1e-100 in absolute value (or be all zero), so that their squares do not underflow. Rescale y.",
         where, format(largest, digits = 3))
  }
  if (matrix_y && ncol(y) < 1L) fail("%s must have at least one column.", where)
  kind <- if (matrix_y) "matrix" else "numeric"
  names <- if (matrix_y) (if (is.null(colnames(y))) paste0("y", seq_len(ncol(y))) else colnames(y)) else "y"
  if (is.null(response)) response <- list(kind = kind, names = names)
  if (!identical(response$kind, kind) || length(response$names) != length(names)) {
    fail("%s must be a %s like the first chunk's.", where, response_text(response))
  }
  storage.mode(y) <- "double"
  list(y = if (matrix_y) unname(y) else matrix(y), response = response)
}
