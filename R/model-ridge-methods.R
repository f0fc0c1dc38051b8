# Methods of rff_ridge() fits. A fit is a plain list that users save and
# share, so each method checks it first.

#' @export
print.askrff_ridge <- function(x, ...) {
  x <- validate_ridge(x, "x")
  kernel <- if (x$fun == "") kernel_label(x$map$kernel) else sprintf("%s (%s features)", kernel_label(x$map$kernel), x$fun)
  cat(sprintf("<askrff ridge> %s, %d feature columns, n = %s\n", kernel, nrow(x$coefficients), format(x$n, big.mark = ",")))
  rows <- ridge_chosen_rows(x)
  scores <- function(row) {
    loo <- if (is.null(x$path$loo)) "" else sprintf(", leave-one-out = %s", format(x$path$loo[row], digits = 4))
    sprintf("df = %.1f, GCV = %s, log evidence = %s%s", x$path$df[row], format(x$path$gcv[row], digits = 4),
            format(x$path$evidence[row], digits = 6), loo)
  }
  if (!per_response_lambda(x)) {
    cat(sprintf("  lambda = %s, %s; %s\n", format(x$lambda, digits = 3), ridge_lambda_choice(x), scores(rows)))
  } else {
    cat(sprintf("  one lambda per response, %s:\n", ridge_lambda_choice(x)))
    shown <- utils::head(seq_along(rows), 8L)
    for (j in shown) {
      cat(sprintf("    %s: lambda = %s; %s\n", x$response$names[j], format(x$lambda[[j]], digits = 3), scores(rows[j])))
    }
    if (length(rows) > length(shown)) cat(sprintf("    ... and %d more (fit$lambda)\n", length(rows) - length(shown)))
  }
  if (!is.null(x$selection)) cat(sprintf("  %s\n", selection_text(x$selection)))
  rmse <- sqrt(sum(x$rss) / (x$n * length(x$rss)))
  response <- switch(x$response$kind, numeric = "numeric", matrix = sprintf("%d numeric columns", length(x$response$names)),
                     factor = sprintf("factor with %d levels (one against the rest)", length(x$response$names)))
  cat(sprintf("  response: %s; training RMSE %s\n", response, format(rmse, digits = 4)))
  invisible(x)
}

criterion_label <- function(criterion) {
  c(gcv = "GCV", evidence = "evidence", loo = "leave-one-out", cv = "cross-validated deviance")[[criterion]]
}

# How a ridge fit's lambda was chosen (each response's, with one each), for
# print() and summary().
ridge_lambda_choice <- function(fit) {
  path <- fit$path
  chosen <- ridge_chosen_rows(fit)
  paths <- if (per_response_lambda(fit)) lapply(fit$response$names, function(r) which(path$response == r)) else {
    list(seq_len(nrow(path)))
  }
  lengths <- lengths(paths)
  if (all(lengths == 1L)) return(if (length(paths) == 1L) "given" else "given for all")
  at_end <- mapply(function(rows, row) row %in% rows[c(1L, length(rows))], paths, chosen)
  if (length(paths) == 1L) {
    return(sprintf("chosen by %s among %d values%s", criterion_label(fit$criterion), lengths,
                   if (at_end) " (at the end of the grid)" else ""))
  }
  counts <- if (min(lengths) == max(lengths)) lengths[1L] else sprintf("%d to %d", min(lengths), max(lengths))
  sprintf("each chosen by %s among %s values%s", criterion_label(fit$criterion), counts,
          if (any(at_end)) sprintf(" (at the end of the grid: %s)", paste(fit$response$names[at_end], collapse = ", ")) else "")
}

# The scales a search chose (a fit's `selection`), or NULL without one.
selection_text <- function(s) {
  if (is.null(s)) return(NULL)
  scales <- s$scales[s$chosen, ]
  tried <- nrow(s$scales)
  edge <- if (s$method == "grid" && tried > 1L && ncol(s$scales) == 1L && scales %in% range(s$scales)) {
    " (at the end of the candidates)"
  } else {
    ""
  }
  by <- criterion_label(s$criterion)
  if (!is.null(s$surrogate)) by <- paste(by, "of ridge regression on the response")
  how <- if (s$method == "grid") {
    sprintf("chosen among %d candidates by %s", tried, by)
  } else {
    sprintf("optimized by %s over %d candidates", by, tried)
  }
  sprintf("scale%s: %s times the kernel's own, %s%s", if (length(scales) > 1L) "s" else "",
          paste(format(scales, digits = 3), collapse = ", "), how, edge)
}

#' @export
coef.askrff_ridge <- function(object, ...) {
  object <- validate_ridge(object, "object")
  b <- rbind(`(Intercept)` = object$intercept, object$coefficients)
  if (object$response$kind == "numeric") b[, 1L] else b
}

#' Predictions of a ridge fit on random features, with standard errors and intervals
#'
#' The fit's scores \eqn{b_0 + z(x)'b} for new data (plus their offset when
#' the fit has one), computed a block of rows at a time without storing the
#' features, or for a factor response the level whose indicator has the
#' largest score; optionally with standard errors and confidence or
#' prediction intervals.
#'
#' **Offsets.** A formula fit evaluates its offset in `newdata`, as
#' [predict.lm()] does: its formula's `offset()` terms and the expression
#' given as its `offset` argument, so `newdata` must hold their variables; a
#' row whose offset is NA predicts NA. A fit of the default method whose
#' rows carried an offset needs `offset` for new rows, one number per row
#' (it was fitted around the offset, so leaving it out would shift every
#' prediction by an unknown amount; give 0 for rows without one); without
#' `newdata`, the fitted values hold the fit's own offset. The intervals
#' move with the offset, which is known, not estimated.
#'
#' **Uncertainty.** The ridge fit is the posterior mean of the Bayesian
#' linear model \eqn{y_i = b_0 + z_i'b + e_i}, \eqn{e_i \sim N(0,
#' \sigma^2 / w_i)}, \eqn{b \sim N(0, (\sigma^2 / \lambda) I)} with a flat
#' prior on \eqn{b_0}. At a new point the posterior variance of \eqn{b_0 +
#' z'b} is \eqn{\sigma^2 (1 / \sum_i w_i + (z - \bar z)' (G + \lambda
#' I)^{-1} (z - \bar z))}, with \eqn{G} the centered weighted \eqn{Z'Z} and
#' \eqn{\bar z} the weighted mean of the features; the fit keeps \eqn{G}'s
#' eigendecomposition, so no pass over the training data is needed (also
#' for chunked fits). \eqn{\sigma^2} is estimated as \eqn{RSS / (n - df)},
#' with the weighted residual sum of squares, \eqn{n} the rows of positive
#' weight and \eqn{df} the effective degrees of freedom at the chosen
#' \eqn{\lambda} (intercept included). `se.fit` is the square root of that
#' variance; a confidence interval is the fit plus or minus the \eqn{t}
#' quantile on \eqn{n - df} degrees of freedom times `se.fit`, a prediction
#' interval adds \eqn{\sigma^2} (a new observation of weight 1) to the
#' variance, as [predict.lm()] does. The intervals hold for the kernel the
#' features represent, with \eqn{\lambda} and the map taken as fixed.
#' Several responses (a numeric matrix) each get their own: the posterior
#' of each column is that of its fit alone, with its own \eqn{\lambda} (see
#' `shared_lambda` in [rff_ridge()]), \eqn{\sigma^2} and \eqn{df}.
#'
#' @param object A fit of [rff_ridge()].
#' @param newdata For a formula fit, a data frame with the predictors of the
#'   formula; else a numeric matrix or data frame with the fit's columns.
#'   Rows with a missing predictor get NA. Omitted: the fitted values (with
#'   NA for the rows [na.exclude()] left out).
#' @param type `"response"` for the fitted scores (a vector for a numeric
#'   response, else a matrix with one column per response or level), or
#'   `"class"` (factor responses) for the level of largest score.
#' @param se.fit `TRUE` to return the standard errors with the predictions
#'   (numeric responses, one or several).
#' @param interval `"none"`, `"confidence"` (for the mean) or `"prediction"`
#'   (for a new observation), for numeric responses.
#' @param level The intervals' coverage probability.
#' @param offset For a fit of the default method, the offset of each row of
#'   `newdata` (see Offsets), added to its score; required when the fit's
#'   rows carried one. `NULL` otherwise; a formula fit takes none.
#' @param ... Not used.
#' @inheritParams kernel_matrix
#' @return Without `se.fit` and `interval`, the predictions, one per row of
#'   `newdata`. With an `interval`, a matrix of columns `fit`, `lwr` and
#'   `upr`; for several responses an array of rows, those three columns and
#'   the responses (`[, , "a"]` is response `a`'s matrix). With `se.fit =
#'   TRUE`, a list of `fit` (the vector, matrix or array before), `se.fit`
#'   (a matrix of one column per response for several), `df` (the residual
#'   degrees of freedom \eqn{n - df}) and `residual.scale`
#'   (\eqn{\hat\sigma}), one per response for several.
#' @family models
#' @examples
#' x <- as.matrix(scale(datasets::trees[, c("Girth", "Height")]))
#' fit <- rff_ridge(x, datasets::trees$Volume, kernel = gaussian_kernel(1), n_features = 64, seed = 1)
#' predict(fit, x[1:3, ], interval = "prediction")
#' @export
predict.askrff_ridge <- function(object, newdata, type = c("response", "class"), se.fit = FALSE,
                                 interval = c("none", "confidence", "prediction"), level = 0.95, n_threads = NULL,
                                 offset = NULL, ...) {
  object <- validate_ridge(object, "object")
  type <- check_choice(type, c("response", "class"), "type")
  check_flag(se.fit, "se.fit")
  interval <- check_choice(interval, c("none", "confidence", "prediction"), "interval")
  uncertain <- se.fit || interval != "none"
  if (uncertain) {
    if (object$response$kind == "factor") {
      fail("`se.fit` and `interval` need a fit to numeric responses; this fit's response is a %s.",
           response_text(object$response))
    }
    if (type == "class") fail("`se.fit` and `interval` apply to `type = \"response\"`.")
    if (!is_single_number(level) || !(level > 0 && level < 1)) fail("`level` must be a number between 0 and 1.")
  }
  if (type == "class" && object$response$kind != "factor") fail("`type = \"class\"` needs a fit to a factor response.")
  if (missing(newdata) || is.null(newdata)) {
    if (uncertain) fail("`se.fit` and `interval` need `newdata`: the fit keeps no training rows.")
    no_offset_without_rows(offset)
    in_memory_only(object, "fitted")
    scores <- stats::naresid(object$design$na_action, object$fitted)
  } else {
    rows <- ridge_newdata(object, newdata, offset, 1L)
    n_threads <- resolve_threads(n_threads)
    scores <- ridge_row_scores(object, rows, n_threads)
    if (nrow(scores) == NROW(newdata)) rownames(scores) <- rownames(newdata)
    if (uncertain) return(ridge_uncertainty(object, rows, scores, se.fit, interval, level, n_threads))
  }
  if (type == "class") {
    classes <- object$response$names[max.col(replace(scores, is.na(scores), 0), ties.method = "first")]
    classes[!stats::complete.cases(scores)] <- NA
    return(factor(classes, levels = object$response$names))
  }
  simplify_response(object, scores)
}

# The rows of newdata the fit can score, standardized as the fit was, which
# rows were complete (the others predict NA) and their offset (NULL for
# none; `classes` columns): a formula fit's from newdata, else `offset`.
ridge_newdata <- function(object, newdata, offset, classes) {
  if (!is.null(object$design)) {
    if (!is.null(offset)) {
      fail("`offset` is for fits of the default method: a formula fit takes its offset from `newdata` (its formula's offset() terms and its `offset` argument, evaluated there), as predict.lm() does.")
    }
    rows <- design_rows(object$design, newdata, "newdata")
  } else {
    if (isS4(newdata) && methods::is(newdata, "Matrix")) newdata <- as.matrix(newdata)
    if (!is.data.frame(newdata) && !is_matrix(newdata)) fail("`newdata` must be a numeric matrix or data frame.")
    offset <- given_offset(object, offset, nrow(newdata), classes)
    complete <- stats::complete.cases(newdata) & (if (is.null(offset)) TRUE else stats::complete.cases(offset))
    rows <- list(x = newdata[complete, , drop = FALSE], complete = complete,
                 offset = if (!is.null(offset)) offset[complete, , drop = FALSE])
  }
  if (nrow(rows$x) == 0L) return(rows)
  rows$x <- apply_scaling(check_data(rows$x, "newdata", object$map$d), object$scaling)
  check_map_data(object$map, rows$x, "newdata")
  rows
}

# The scores of the complete rows with their offset, NA for the others.
ridge_row_scores <- function(object, rows, n_threads) {
  scores <- if (nrow(rows$x) > 0L) {
    add_offset(fit_scores(object, rows$x, n_threads, "rff_ridge()", object$response$names), rows$offset)
  } else {
    matrix(numeric(), 0L, length(object$response$names), dimnames = list(NULL, object$response$names))
  }
  pad_rows(scores, rows$complete)
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
  simplify_response(object, stats::naresid(object$design$na_action, object$fitted))
}

#' @export
residuals.askrff_ridge <- function(object, ...) {
  object <- validate_ridge(object, "object")
  in_memory_only(object, "residuals")
  simplify_response(object, stats::naresid(object$design$na_action, object$residuals))
}
