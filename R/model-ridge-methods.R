# Methods of rff_ridge() fits. A fit is a plain list that users save and
# share, so each method checks it first.

validate_ridge <- function(fit, arg) {
  if (!is.list(fit) || !inherits(fit, "askrff_ridge")) fail("`%s` must be a fit of rff_ridge().", arg)
  model <- tryCatch(fit_map(fit$map, if (identical(fit$fun, "")) NULL else fit$fun), askrff_error = function(e) {
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
  if (!is.data.frame(path) || !all(c("lambda", "df", "gcv", "evidence") %in% names(path)) || nrow(path) < 1L ||
      !is.double(path$lambda) || any(!is.finite(path$lambda)) || any(path$lambda <= 0) || !is.double(path$gcv) ||
      anyNA(path$gcv) || any(path$gcv < 0) || !is.double(path$df) || any(!is.finite(path$df)) ||
      !is.double(path$evidence) || anyNA(path$evidence) || any(path$evidence == Inf)) {
    fail("`%s` must be a data frame of positive `lambda`, finite `df`, nonnegative `gcv` and `evidence` below infinity, as rff_ridge() makes.",
         field(arg, "path"))
  }
  if (!is.character(fit$criterion) || length(fit$criterion) != 1L || !fit$criterion %in% c("gcv", "evidence", "loo")) {
    fail("`%s` must be \"gcv\", \"evidence\" or \"loo\".", field(arg, "criterion"))
  }
  if (!is.null(path$loo) && (!is.double(path$loo) || any(!is.finite(path$loo)) || any(path$loo < 0))) {
    fail("`%s` must be finite nonnegative leave-one-out errors, as rff_ridge() makes.", field(arg, "path$loo"))
  }
  # a single given lambda has nothing to choose, so no leave-one-out pass
  if (fit$criterion == "loo" && is.null(path$loo) && nrow(path) > 1L) {
    fail("`%s` must hold the leave-one-out errors `loo` of a fit whose criterion is \"loo\".", field(arg, "path"))
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
  w <- fit$weights
  if (!is.null(w) && (!is.double(w) || !is.null(dim(w)) || any(!is.finite(w)) || any(w < 0) || sum(w > 0) != fit$n)) {
    fail("`%s` must be NULL or the finite nonnegative weights of the rows fitted, n = %s of them positive.",
         field(arg, "weights"), format_count(fit$n))
  }
  rows <- if (is.null(w)) fit$n else length(w)
  for (name in c("fitted", "residuals")) {
    value <- fit[[name]]
    if (!is.null(value) && (!is_matrix(value) || !is.double(value) || nrow(value) != rows || ncol(value) != ncol(b) ||
                            any(!is.finite(value)))) {
      fail("`%s` must be NULL (streamed data) or a finite matrix of %s rows (one per row fitted) and one column per response.",
           field(arg, name), format_count(rows))
    }
  }
  if (!is.null(fit$scaling)) {
    fit$scaling <- tryCatch(column_scaling(fit$scaling, NULL), askrff_error = function(e) {
      fail("`%s` must be NULL or the `center` and positive `scale` of the map's %d columns.", field(arg, "scaling"), model$d)
    })
    if (length(fit$scaling$center) != model$d) {
      fail("`%s` must be NULL or the `center` and positive `scale` of the map's %d columns.", field(arg, "scaling"), model$d)
    }
  }
  validate_posterior(fit$posterior, model$columns, field(arg, "posterior"))
  if (!is.null(fit$selection)) fit$selection <- validate_selection(fit$selection, fit, model$map, field(arg, "selection"))
  if (!is.null(fit$design) || !is.null(fit$call)) validate_design(fit$design, field(arg, "design"))
  fit$fun <- model$fun
  fit$map <- model$map
  fit
}

validate_posterior <- function(posterior, columns, where) {
  if (!is.list(posterior) || !is_matrix(posterior$vectors) || !is.double(posterior$vectors) ||
      nrow(posterior$vectors) != columns || ncol(posterior$vectors) > columns || any(!is.finite(posterior$vectors)) ||
      !is.double(posterior$values) || length(posterior$values) != ncol(posterior$vectors) ||
      any(!is.finite(posterior$values)) || any(posterior$values < 0) ||
      !is.double(posterior$z_mean) || length(posterior$z_mean) != columns || any(!is.finite(posterior$z_mean)) ||
      !is_single_number(posterior$weight) || !is.finite(posterior$weight) || posterior$weight <= 0) {
    fail("`%s` must hold the eigenvectors (%d rows) and nonnegative eigenvalues of the fit, the features' finite `z_mean` and the positive sum of weights `weight`, as rff_ridge() makes.",
         where, columns)
  }
}

# The record of a scale search: its candidates' scales (one row each), the
# lambda and the criterion's value each got, and the chosen one, whose
# rescaled kernel is the fit's.
validate_selection <- function(selection, fit, map, where) {
  if (!is.list(selection) || !identical(selection$criterion, fit$criterion) ||
      !is.character(selection$method) || length(selection$method) != 1L || !selection$method %in% c("grid", "optimize")) {
    fail("`%s` must record the fit's criterion and the method, \"grid\" or \"optimize\", as rff_ridge() makes.", where)
  }
  kernel <- validate_kernel(selection$kernel, field(where, "kernel"))
  scales <- selection$scales
  tried <- if (is_matrix(scales)) nrow(scales) else 0L
  if (tried < 1L || !is.double(scales) || !ncol(scales) %in% c(1L, map$d) || any(!is.finite(scales)) || any(scales <= 0) ||
      !is.double(selection$lambda) || length(selection$lambda) != tried || any(!is.finite(selection$lambda)) ||
      any(selection$lambda <= 0) || !is.double(selection$value) || length(selection$value) != tried ||
      anyNA(selection$value) || !is_single_number(selection$chosen) || !selection$chosen %in% seq_len(tried)) {
    fail("`%s` must hold positive finite `scales` (one row per candidate, one column or one per coordinate), each candidate's positive `lambda` and `value`, and the `chosen` row, as rff_ridge() makes.",
         where)
  }
  chosen <- tryCatch(scale_kernel(kernel, scales[selection$chosen, ], map$d), askrff_error = function(e) {
    fail("`%s` must hold scales the kernel takes: %s", where, conditionMessage(e))
  })
  if (!isTRUE(all.equal(chosen, map$kernel)) || selection$lambda[selection$chosen] != fit$lambda) {
    fail("`%s` must agree with the fit: the chosen row's scales give the map's kernel and its lambda is the fit's.", where)
  }
  selection$kernel <- kernel
  selection$chosen <- as.integer(selection$chosen)
  selection
}

validate_design <- function(design, where) {
  if (!is.list(design) || !inherits(design$terms, "terms") || !is.list(design$xlevels) ||
      !(is.null(design$contrasts) || is.list(design$contrasts))) {
    fail("`%s` must hold the `terms`, `xlevels` and `contrasts` of a formula fit, as rff_ridge() makes.", where)
  }
}

#' @export
print.askrff_ridge <- function(x, ...) {
  x <- validate_ridge(x, "x")
  kernel <- if (x$fun == "") kernel_label(x$map$kernel) else sprintf("%s (%s features)", kernel_label(x$map$kernel), x$fun)
  cat(sprintf("<askrff ridge> %s, %d feature columns, n = %s\n", kernel, nrow(x$coefficients), format(x$n, big.mark = ",")))
  chosen <- which(x$path$lambda == x$lambda)[1L]
  how <- if (nrow(x$path) > 1L) sprintf("chosen by %s among %d values", criterion_label(x$criterion), nrow(x$path)) else "given"
  edge <- if (nrow(x$path) > 1L && chosen %in% c(1L, nrow(x$path))) " (at the end of the grid)" else ""
  loo <- if (is.null(x$path$loo)) "" else {
    sprintf(", leave-one-out = %s", format(x$path$loo[chosen], digits = 4))
  }
  cat(sprintf("  lambda = %s, %s%s; df = %.1f, GCV = %s, log evidence = %s%s\n", format(x$lambda, digits = 3), how, edge,
              x$path$df[chosen], format(x$path$gcv[chosen], digits = 4), format(x$path$evidence[chosen], digits = 6), loo))
  if (!is.null(x$selection)) {
    s <- x$selection
    scales <- s$scales[s$chosen, ]
    tried <- nrow(s$scales)
    edge <- if (s$method == "grid" && tried > 1L && ncol(s$scales) == 1L && scales %in% range(s$scales)) {
      " (at the end of the candidates)"
    } else {
      ""
    }
    how <- if (s$method == "grid") {
      sprintf("chosen among %d candidates by %s", tried, criterion_label(s$criterion))
    } else {
      sprintf("optimized by %s over %d candidates", criterion_label(s$criterion), tried)
    }
    cat(sprintf("  scale%s: %s times the kernel's own, %s%s\n", if (length(scales) > 1L) "s" else "",
                paste(format(scales, digits = 3), collapse = ", "), how, edge))
  }
  rmse <- sqrt(sum(x$rss) / (x$n * length(x$rss)))
  response <- switch(x$response$kind, numeric = "numeric", matrix = sprintf("%d numeric columns", length(x$response$names)),
                     factor = sprintf("factor with %d levels (one against the rest)", length(x$response$names)))
  cat(sprintf("  response: %s; training RMSE %s\n", response, format(rmse, digits = 4)))
  invisible(x)
}

criterion_label <- function(criterion) c(gcv = "GCV", evidence = "evidence", loo = "leave-one-out")[[criterion]]

#' @export
coef.askrff_ridge <- function(object, ...) {
  object <- validate_ridge(object, "object")
  b <- rbind(`(Intercept)` = object$intercept, object$coefficients)
  if (object$response$kind == "numeric") b[, 1L] else b
}

#' Predictions of a ridge fit on random features, with standard errors and intervals
#'
#' The fit's scores \eqn{b_0 + z(x)'b} for new data, computed a block of rows
#' at a time without storing the features, or for a factor response the
#' level whose indicator has the largest score; optionally with standard
#' errors and confidence or prediction intervals.
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
                                 ...) {
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
    in_memory_only(object, "fitted")
    scores <- stats::naresid(object$design$na_action, object$fitted)
  } else {
    rows <- ridge_newdata(object, newdata)
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

# The rows of newdata the fit can score, standardized as the fit was, and
# which rows were complete (the others predict NA).
ridge_newdata <- function(object, newdata) {
  if (!is.null(object$design)) {
    rows <- design_rows(object$design, newdata, "newdata")
  } else {
    if (isS4(newdata) && methods::is(newdata, "Matrix")) newdata <- as.matrix(newdata)
    if (!is.data.frame(newdata) && !is_matrix(newdata)) fail("`newdata` must be a numeric matrix or data frame.")
    complete <- stats::complete.cases(newdata)
    rows <- list(x = newdata[complete, , drop = FALSE], complete = complete)
  }
  if (nrow(rows$x) == 0L) return(rows)
  rows$x <- apply_scaling(check_data(rows$x, "newdata", object$map$d), object$scaling)
  check_map_data(object$map, rows$x, "newdata")
  rows
}

# The scores of the complete rows, NA for the others.
ridge_row_scores <- function(object, rows, n_threads) {
  scores <- if (nrow(rows$x) > 0L) {
    ridge_scores(object, rows$x, n_threads)
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
    half <- stats::qt((1 + level) / 2, residual_df) * (if (interval == "confidence") se else sqrt(se^2 + sigma2))
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

#' Plot the criterion that chose a ridge fit's penalty and scales
#'
#' The criterion that chose \eqn{\lambda} (GCV, or the log evidence; see
#' [rff_ridge()]) against \eqn{\lambda} (log scale) over the fit's path, with
#' the chosen \eqn{\lambda} marked. A fit whose kernel scale was searched
#' (`scale` in [rff_ridge()]) gets a second panel: the criterion, at each
#' candidate's best \eqn{\lambda}, against the scale (one scale for every
#' coordinate), or for per-coordinate scales (`ard = TRUE`) each coordinate's
#' scale along the search, with the chosen one marked.
#'
#' @param x A fit of [rff_ridge()].
#' @param ... Graphical arguments passed to [graphics::plot()] for every panel.
#' @return `x`, invisibly.
#' @family models
#' @export
plot.askrff_ridge <- function(x, ...) {
  x <- validate_ridge(x, "x")
  if (!is.null(x$selection)) {
    old <- graphics::par(mfrow = c(1L, 2L))
    on.exit(graphics::par(old))
  }
  plot_lambda_path(x, list(...))
  if (!is.null(x$selection)) plot_scale_search(x$selection, list(...))
  invisible(x)
}

plot_lambda_path <- function(x, user) {
  # a given lambda has no leave-one-out error (it chose nothing): GCV shows it
  criterion <- if (x$criterion == "loo" && is.null(x$path$loo)) "gcv" else x$criterion
  gcv <- criterion != "evidence"
  value <- x$path[[criterion]]
  path <- x$path[is.finite(value), ]
  if (nrow(path) == 0L) {
    fail("No lambda of this fit has a finite %s (%s).", criterion_label(criterion),
         if (gcv) "the degrees of freedom reach n" else "the fit leaves no residual")
  }
  value <- path[[criterion]]
  draw_with_defaults(graphics::plot, list(x = path$lambda, y = value, log = if (gcv && all(value > 0)) "xy" else "x",
                                          type = if (nrow(path) > 1L) "l" else "p", xlab = "lambda",
                                          ylab = c(gcv = "GCV", evidence = "log evidence", loo = "leave-one-out error")[[criterion]],
                                          main = c(gcv = "Generalized cross-validation", evidence = "Evidence",
                                                   loo = "Leave-one-out cross-validation")[[criterion]]), user)
  graphics::abline(v = x$lambda, lty = 2)
  graphics::mtext(sprintf("lambda = %s, df = %.1f", format(x$lambda, digits = 3), x$path$df[x$path$lambda == x$lambda][1L]),
                  side = 3, line = 0.3, cex = 0.8)
}

plot_scale_search <- function(selection, user) {
  label <- c(gcv = "GCV", evidence = "log evidence", loo = "leave-one-out error")[[selection$criterion]]
  scales <- selection$scales
  chosen <- selection$chosen
  if (ncol(scales) == 1L) {
    finite <- is.finite(selection$value)
    order <- order(scales[finite, 1L])
    draw_with_defaults(graphics::plot, list(x = scales[finite, 1L][order], y = selection$value[finite][order], log = "x",
                                            type = "b", pch = 20, xlab = "scale (times the kernel's)", ylab = label,
                                            main = "Kernel scale"), user)
    graphics::abline(v = scales[chosen, 1L], lty = 2)
    graphics::mtext(sprintf("scale = %s", format(scales[chosen, 1L], digits = 3)), side = 3, line = 0.3, cex = 0.8)
    return(invisible(NULL))
  }
  colours <- grDevices::hcl.colors(ncol(scales), "Dark 3")
  draw_with_defaults(graphics::matplot, list(x = seq_len(nrow(scales)), y = scales, log = "y", type = "l", lty = 1,
                                             col = colours, xlab = "pass", ylab = "scale (times the kernel's)",
                                             main = "Per-coordinate scales"), user)
  graphics::abline(v = chosen, lty = 2)
  graphics::legend("topleft", legend = sprintf("x%d: %s", seq_len(ncol(scales)), format(scales[chosen, ], digits = 3)),
                   col = colours, lty = 1, bty = "n", cex = 0.8)
  invisible(NULL)
}
