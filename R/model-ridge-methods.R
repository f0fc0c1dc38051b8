# Methods of rff_ridge() fits. A fit is a plain list that users save and
# share, so each method checks it first.

validate_ridge <- function(fit, arg) {
  if (!is.list(fit) || !inherits(fit, "askrff_ridge")) fail("`%s` must be a fit of rff_ridge().", arg)
  model <- tryCatch(ridge_map(fit$map, if (identical(fit$fun, "")) NULL else fit$fun), askrff_error = function(e) {
    fail("`%s` has an invalid map: %s", field(arg, "map"), conditionMessage(e))
  })
  response <- fit$response
  if (!is.list(response) || !is.character(response$kind) || length(response$kind) != 1L ||
      !response$kind %in% c("numeric", "matrix", "factor") || !is.character(response$names) ||
      length(response$names) < 1L || anyNA(response$names) ||
      (response$kind == "numeric" && length(response$names) != 1L) ||
      (response$kind == "factor" && (length(response$names) < 2L || anyDuplicated(response$names) > 0L))) {
    fail("`%s` must describe the response kind and names as rff_ridge() does (a factor's levels: two or more, distinct).",
         field(arg, "response"))
  }
  b <- fit$coefficients
  if (!is_matrix(b) || !is.double(b) || nrow(b) != model$columns || ncol(b) != length(response$names) ||
      any(!is.finite(b))) {
    fail("`%s` must be a finite matrix with one row per feature column (%d) and one column per response (%d).",
         field(arg, "coefficients"), model$columns, length(response$names))
  }
  b0 <- fit$intercept
  if (!is.double(b0) || length(b0) != ncol(b) || any(!is.finite(b0))) {
    fail("`%s` must hold one finite number per response.", field(arg, "intercept"))
  }
  path <- fit$path
  if (!is.data.frame(path) || !all(c("lambda", "df", "gcv") %in% names(path)) || nrow(path) < 1L ||
      !is.double(path$lambda) || any(!is.finite(path$lambda)) || any(path$lambda <= 0) || !is.double(path$gcv) ||
      anyNA(path$gcv) || !is.double(path$df) || any(!is.finite(path$df))) {
    fail("`%s` must be a data frame of positive `lambda`, finite `df` and `gcv`, as rff_ridge() makes.", field(arg, "path"))
  }
  if (!is_single_number(fit$lambda) || !is.finite(fit$lambda) || !fit$lambda %in% path$lambda) {
    fail("`%s` must be one of the path's lambda values.", field(arg, "lambda"))
  }
  if (!is_single_number(fit$n) || !is.finite(fit$n) || fit$n < 2 || fit$n != round(fit$n)) {
    fail("`%s` must be the number of rows fitted, at least 2.", field(arg, "n"))
  }
  if (!is.double(fit$rss) || length(fit$rss) != ncol(b) || any(!is.finite(fit$rss)) || any(fit$rss < 0)) {
    fail("`%s` must hold one finite nonnegative residual sum of squares per response.", field(arg, "rss"))
  }
  for (name in c("fitted", "residuals")) {
    value <- fit[[name]]
    if (!is.null(value) && (!is_matrix(value) || !is.double(value) || nrow(value) != fit$n || ncol(value) != ncol(b) ||
                            any(!is.finite(value)))) {
      fail("`%s` must be NULL (streamed data) or a finite matrix of n rows and one column per response.", field(arg, name))
    }
  }
  fit$fun <- model$fun
  fit$map <- model$map
  fit
}

#' @export
print.askrff_ridge <- function(x, ...) {
  x <- validate_ridge(x, "x")
  kernel <- if (x$fun == "") kernel_label(x$map$kernel) else sprintf("%s (%s features)", kernel_label(x$map$kernel), x$fun)
  cat(sprintf("<askrff ridge> %s, %d feature columns, n = %s\n", kernel, nrow(x$coefficients), format(x$n, big.mark = ",")))
  chosen <- which(x$path$lambda == x$lambda)[1L]
  how <- if (nrow(x$path) > 1L) sprintf("chosen by GCV among %d values", nrow(x$path)) else "given"
  edge <- if (nrow(x$path) > 1L && chosen %in% c(1L, nrow(x$path))) " (at the end of the grid)" else ""
  cat(sprintf("  lambda = %s, %s%s; df = %.1f, GCV = %s\n", format(x$lambda, digits = 3), how, edge,
              x$path$df[chosen], format(x$path$gcv[chosen], digits = 4)))
  rmse <- sqrt(sum(x$rss) / (x$n * length(x$rss)))
  response <- switch(x$response$kind, numeric = "numeric", matrix = sprintf("%d numeric columns", length(x$response$names)),
                     factor = sprintf("factor with %d levels (one against the rest)", length(x$response$names)))
  cat(sprintf("  response: %s; training RMSE %s\n", response, format(rmse, digits = 4)))
  invisible(x)
}

#' @export
coef.askrff_ridge <- function(object, ...) {
  object <- validate_ridge(object, "object")
  b <- rbind(`(Intercept)` = object$intercept, object$coefficients)
  if (object$response$kind == "numeric") b[, 1L] else b
}

#' Predictions of a ridge fit on random features
#'
#' The fit's scores \eqn{b_0 + z(x)'b} for new data, computed a block of rows
#' at a time without storing the features, or for a factor response the
#' level whose indicator has the largest score.
#'
#' @param object A fit of [rff_ridge()].
#' @param newdata Numeric matrix or data frame with `map$d` columns.
#' @param type `"response"` for the fitted scores (a vector for a numeric
#'   response, else a matrix with one column per response or level), or
#'   `"class"` (factor responses) for the level of largest score.
#' @param ... Not used.
#' @inheritParams kernel_matrix
#' @return The predictions, one per row of `newdata`.
#' @family models
#' @export
predict.askrff_ridge <- function(object, newdata, type = c("response", "class"), n_threads = NULL, ...) {
  object <- validate_ridge(object, "object")
  type <- check_choice(type, c("response", "class"), "type")
  x <- map_data(object$map, newdata, "newdata")
  scores <- ridge_scores(object, x, resolve_threads(n_threads))
  if (type == "class") {
    if (object$response$kind != "factor") fail("`type = \"class\"` needs a fit to a factor response.")
    return(factor(object$response$names[max.col(scores, ties.method = "first")], levels = object$response$names))
  }
  simplify_response(object, scores)
}

simplify_response <- function(fit, values) {
  if (fit$response$kind == "numeric") stats::setNames(values[, 1L], rownames(values)) else values
}

in_memory_only <- function(fit, what) {
  if (is.null(fit[[what]])) {
    fail("This fit streamed its data, so it keeps no %s; use predict(fit, newdata) on the data instead.",
         if (what == "fitted") "fitted values" else "residuals")
  }
}

#' @export
fitted.askrff_ridge <- function(object, ...) {
  object <- validate_ridge(object, "object")
  in_memory_only(object, "fitted")
  simplify_response(object, object$fitted)
}

#' @export
residuals.askrff_ridge <- function(object, ...) {
  object <- validate_ridge(object, "object")
  in_memory_only(object, "residuals")
  simplify_response(object, object$residuals)
}

#' Plot the generalized cross-validation curve of a ridge fit
#'
#' GCV against \eqn{\lambda} (log scale) over the fit's path, with the
#' chosen \eqn{\lambda} marked.
#'
#' @param x A fit of [rff_ridge()].
#' @param ... Passed to [graphics::plot()].
#' @return `x`, invisibly.
#' @family models
#' @export
plot.askrff_ridge <- function(x, ...) {
  x <- validate_ridge(x, "x")
  path <- x$path[is.finite(x$path$gcv), ]
  if (nrow(path) == 0L) fail("No lambda of this fit has a finite GCV (the degrees of freedom reach n).")
  draw_with_defaults(graphics::plot, list(x = path$lambda, y = path$gcv, log = if (all(path$gcv > 0)) "xy" else "x",
                                          type = if (nrow(path) > 1L) "l" else "p", xlab = "lambda", ylab = "GCV",
                                          main = "Generalized cross-validation"), list(...))
  graphics::abline(v = x$lambda, lty = 2)
  graphics::mtext(sprintf("lambda = %s, df = %.1f", format(x$lambda, digits = 3), x$path$df[x$path$lambda == x$lambda][1L]),
                  side = 3, line = 0.3, cex = 0.8)
  invisible(x)
}
