# The methods of rff_cca()'s fits: the canonical variates of new rows, a
# summary print, and the checks of a fit a user may have saved and edited.

#' @rdname rff_cca
#' @param object A fit of `rff_cca()`.
#' @param newdata A list with elements `x`, `y` or both: new rows of either
#'   variable, as `x` and `y` were given (omitted: the variates of the rows
#'   fitted).
#' @return `predict()` gives a list with the canonical variates of each
#'   side given (a matrix of `rank` columns; NA for a row with a missing
#'   value).
#' @export
predict.askrff_cca <- function(object, newdata, n_threads = NULL, ...) {
  check_no_dots(...)
  object <- validate_cca(object, "object")
  if (missing(newdata) || is.null(newdata)) {
    if (is.null(object$variates)) fail("The fit of chunks keeps no variates: give `newdata`.")
    return(object$variates)
  }
  sides <- names(newdata)
  if (!is.list(newdata) || is.data.frame(newdata) || length(newdata) == 0L || is.null(sides) ||
        !all(sides %in% c("x", "y")) || anyDuplicated(sides)) {
    fail("`newdata` must be a list with elements `x`, `y` or both: new rows of either variable.")
  }
  n_threads <- resolve_threads(n_threads)
  lapply(stats::setNames(nm = sides), function(side) cca_new_variates(object, side, newdata[[side]], n_threads))
}

# The canonical variates of one side's new rows: encoded as the fit's
# variable was (the same columns, by name when the fit knows them) and
# standardized as it was; NA for an incomplete row.
cca_new_variates <- function(object, side, value, n_threads) {
  arg <- sprintf("newdata$%s", side)
  map <- object[[paste0("map_", side)]]
  columns <- object[[paste0("columns_", side)]]
  frame <- within_argument(test_frame(value, side), arg)
  complete <- stats::complete.cases(frame)
  variates <- matrix(NA_real_, length(complete), ncol(object$xcoef),
                     dimnames = list(rownames(frame), colnames(object$xcoef)))
  if (!any(complete)) return(variates)
  x <- within_argument(test_design(frame[complete, , drop = FALSE], side, object$xlevels[[side]]), arg)
  if (ncol(x) != map$d || (!is.null(columns) && !identical(colnames(x), columns))) {
    fail("`%s` must have the columns of the fit's `%s` (%s); it has %s.", arg,
         side, if (is.null(columns)) sprintf("%d", map$d) else paste(columns, collapse = ", "),
         if (is.null(colnames(x))) sprintf("%d", ncol(x)) else paste(colnames(x), collapse = ", "),
         class = "data")
  }
  x <- apply_scaling(x, object[[paste0("scaling_", side)]])
  check_map_data(map, x, arg)
  variates[complete, ] <- cca_variates(object, side, x, n_threads)
  variates
}

# An error of `expr` restated for the argument `arg`.
within_argument <- function(expr, arg) {
  tryCatch(expr, askrff_error = function(e) fail("`%s`: %s", arg, conditionMessage(e), class = "data"))
}

#' @export
print.askrff_cca <- function(x, ...) {
  x <- validate_cca(x, "x")
  cat(sprintf("Kernel canonical correlations of %s rows (lambda = %s)\n", format_count(x$n), format(x$lambda)))
  cat(sprintf("  x: %d feature columns of the %s\n", nrow(x$xcoef), kernel_label(x$map_x$kernel)))
  cat(sprintf("  y: %d feature columns of the %s\n", nrow(x$ycoef), kernel_label(x$map_y$kernel)))
  shown <- seq_len(min(length(x$cor), 8L))
  cat("Canonical correlations:\n")
  print(stats::setNames(signif(x$cor[shown], 4), paste0("CV", shown)))
  invisible(x)
}

# A fit of rff_cca() as a saved and perhaps edited list may hold it: its
# maps valid, each side's coefficients finite with one row per feature
# column and the same pairs, its centres and scalings those of the maps,
# its correlations in [0, 1] and decreasing.
validate_cca <- function(fit, arg) as_condition_class("invalid_object", {
  if (!is.list(fit) || !inherits(fit, "askrff_cca")) fail("`%s` must be a fit of rff_cca().", arg)
  rank <- NULL
  for (side in c("x", "y")) {
    map <- validate_map(fit[[paste0("map_", side)]], field(arg, paste0("map_", side)), kinds = "rff_map")
    fit[[paste0("map_", side)]] <- map
    columns <- map_columns(map)
    coef <- fit[[paste0(side, "coef")]]
    if (!is_matrix(coef) || !is.double(coef) || nrow(coef) != columns || ncol(coef) < 1L || any(!is.finite(coef)) ||
          (!is.null(rank) && ncol(coef) != rank)) {
      fail("`%s` must be a finite matrix with one row per feature column (%d) and one column per canonical pair%s.",
           field(arg, paste0(side, "coef")), columns, if (is.null(rank)) "" else sprintf(" (%d)", rank))
    }
    rank <- ncol(coef)
    center <- fit[[paste0(side, "center")]]
    if (!is.double(center) || length(center) != columns || any(!is.finite(center))) {
      fail("`%s` must be one finite number per feature column (%d).", field(arg, paste0(side, "center")), columns)
    }
    name <- paste0("scaling_", side)
    if (!is.null(fit[[name]])) fit[[name]] <- validate_fit_scaling(fit[[name]], map$d, arg, name)
    names <- fit[[paste0("columns_", side)]]
    if (!is.null(names) && (!is.character(names) || length(names) != map$d || anyNA(names))) {
      fail("`%s` must be NULL or the names of the map's %d columns.", field(arg, paste0("columns_", side)), map$d)
    }
  }
  levels_ok <- function(l) is.null(l) || (is.list(l) && all(vapply(l, function(v) is.character(v) && !anyNA(v), TRUE)))
  if (!is.null(fit$xlevels) && (!is.list(fit$xlevels) || !all(vapply(fit$xlevels, levels_ok, TRUE)))) {
    fail("`%s` must be NULL or a list of each variable's factor levels (character vectors).", field(arg, "xlevels"))
  }
  r <- fit$cor
  if (!is.double(r) || length(r) < rank || any(!is.finite(r)) || any(r < 0 | r > 1) || is.unsorted(rev(r))) {
    fail("`%s` must be at least %d decreasing numbers in [0, 1].", field(arg, "cor"), rank)
  }
  v <- fit$variates
  if (!is.null(v) && (!is.list(v) || !identical(names(v), c("x", "y")) ||
                        !all(vapply(v, function(m) is_matrix(m) && is.double(m) && ncol(m) == rank &&
                                                     all(is.finite(m)), logical(1))) || nrow(v$x) != nrow(v$y))) {
    fail("`%s` must be NULL or a list of two finite matrices `x` and `y` with one column per canonical pair (%d) and the same rows.",
         field(arg, "variates"), rank)
  }
  if (!is_single_number(fit$n) || !is.finite(fit$n) || fit$n < 3) {
    fail("`%s` must be the number of rows fitted, at least 3.", field(arg, "n"))
  }
  if (!is_single_number(fit$lambda) || !is.finite(fit$lambda) || fit$lambda < 0) {
    fail("`%s` must be a nonnegative finite number.", field(arg, "lambda"))
  }
  fit
})
