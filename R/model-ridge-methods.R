# Methods of rff_ridge() fits. A fit is a plain list that users save and
# share, so each method checks it first.

#' @export
print.askrff_ridge <- function(x, ...) {
  x <- validate_ridge(x, "x")
  kernel <- if (x$fun == "") kernel_label(x$map$kernel) else sprintf("%s (%s features)", kernel_label(x$map$kernel), x$fun)
  cat(sprintf("<askrff ridge> %s, %d feature columns, n = %s\n", kernel, nrow(x$coefficients), format(x$n, big.mark = ",")))
  chosen <- which(x$path$lambda == x$lambda)[1L]
  loo <- if (is.null(x$path$loo)) "" else {
    sprintf(", leave-one-out = %s", format(x$path$loo[chosen], digits = 4))
  }
  cat(sprintf("  lambda = %s, %s; df = %.1f, GCV = %s, log evidence = %s%s\n", format(x$lambda, digits = 3),
              ridge_lambda_choice(x), x$path$df[chosen], format(x$path$gcv[chosen], digits = 4),
              format(x$path$evidence[chosen], digits = 6), loo))
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

# How a ridge fit's lambda was chosen, for print() and summary().
ridge_lambda_choice <- function(fit) {
  if (nrow(fit$path) == 1L) return("given")
  chosen <- which(fit$path$lambda == fit$lambda)[1L]
  sprintf("chosen by %s among %d values%s", criterion_label(fit$criterion), nrow(fit$path),
          if (chosen %in% c(1L, nrow(fit$path))) " (at the end of the grid)" else "")
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
#'   (numeric responses).
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
#'   `upr`. With `se.fit = TRUE`, a list of `fit` (the vector or the matrix
#'   before), `se.fit`, `df` (the residual degrees of freedom \eqn{n - df})
#'   and `residual.scale` (\eqn{\hat\sigma}).
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
    if (object$response$kind != "numeric") {
      fail("`se.fit` and `interval` need a fit to a numeric vector response; this fit's response is a %s.",
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

# The residual degrees of freedom n - df at the chosen lambda and each
# response's estimate of sigma^2, RSS / (n - df) (see the help page).
ridge_residual_variance <- function(object) {
  chosen <- which(object$path$lambda == object$lambda)[1L]
  residual_df <- object$n - object$path$df[chosen]
  if (!(residual_df > 0)) {
    fail("The fit has no residual degrees of freedom (df = %.1f of n = %s), so sigma cannot be estimated.",
         object$path$df[chosen], format_count(object$n))
  }
  list(df = residual_df, sigma2 = object$rss / residual_df)
}

# Standard errors and intervals of the posterior (see the help page).
ridge_uncertainty <- function(object, rows, scores, se.fit, interval, level, n_threads) {
  residual <- ridge_residual_variance(object)
  residual_df <- residual$df
  sigma2 <- residual$sigma2[[1L]]
  posterior <- object$posterior
  se <- rep(NA_real_, length(rows$complete))
  if (nrow(rows$x) > 0L) {
    input <- core_input(object$map, rows$x, "left", n_threads)
    q <- core(.cpp_ridge_posterior(input$map, object$fun, input$x, posterior$vectors, posterior$values,
                                   posterior$z_mean, object$lambda, n_threads))
    se[rows$complete] <- sqrt(sigma2 * (1 / posterior$weight + q))
    if (!all(is.finite(se[rows$complete]))) {
      fail("The standard errors overflow: `object$posterior` or `object$rss` hold values no fit has; fit the model again with rff_ridge().")
    }
  }
  fit <- stats::setNames(scores[, 1L], rownames(scores))
  names(se) <- names(fit)
  if (interval != "none") {
    # the lower tail's quantile, negated: 1 - (1 - level) / 2 rounds to 1 (and
    # the quantile to Inf) for levels within 1e-16 of 1, as predict.lm avoids
    half <- -stats::qt((1 - level) / 2, residual_df) * (if (interval == "confidence") se else sqrt(se^2 + sigma2))
    fit <- cbind(fit = fit, lwr = fit - half, upr = fit + half)
  }
  if (!se.fit) return(fit)
  list(fit = fit, se.fit = se, df = residual_df, residual.scale = sqrt(sigma2))
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
