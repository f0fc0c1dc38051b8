# summary() of rff_ridge() and rff_glm() fits and the print methods of the
# summaries, after summary.lm() and summary.glm().

#' Summaries of fits on random features
#'
#' What a fit of [rff_ridge()] or [rff_glm()] is and how well it fits, in
#' the manner of [summary.lm()] and [summary.glm()]: the call (formula fits),
#' the kernel and the map, the rows, \eqn{\lambda} and how it was chosen,
#' the effective degrees of freedom (the trace of the hat matrix for ridge,
#' of \eqn{(H + \lambda P)^{-1} H} for a GLM, with the generalized Hessian
#' of the squared hinge loss, intercept included; see
#' [askrff_likelihood]); for ridge the residuals' quantiles (data in memory),
#' \eqn{\hat\sigma = \sqrt{RSS / (n - df)}} and \eqn{R^2 = 1 - RSS / TSS}
#' (weighted; adjusted with \eqn{n - df} residual degrees of freedom); for a
#' GLM the family, deviance, null deviance and AIC. The feature coefficients
#' are not shown one by one: each multiplies a random feature, so they mean
#' nothing alone (their number and norm are given; `predict()` shows the
#' fitted function, [vcov.askrff_ridge()] their covariance).
#'
#' @param object A fit of [rff_ridge()] or [rff_glm()].
#' @param x A summary.
#' @param digits The significant digits printed.
#' @param ... Not used.
#' @return `summary()`: an object of class `"summary.askrff_ridge"` or
#'   `"summary.askrff_glm"`, a list with the `call` (or `NULL`), `model`
#'   (the kernel's label, the map's kind and feature columns), `n`,
#'   `lambda`, `lambda_choice`, `df` (effective, intercept included),
#'   `df.residual` (these three one per response for a ridge fit whose
#'   responses have their own \eqn{\lambda}), `intercept`, `coefficient_norm` and whether [vcov()]
#'   applies (`covariance`); for ridge also
#'   `response`, `residuals` (weighted, `NULL` for streamed data), `rss`,
#'   `sigma`, `r.squared` and `adj.r.squared` (one per response; `NA` for
#'   streamed data), `logLik` and `aic`; for a GLM also `family`,
#'   `deviance`, `null.deviance`, `aic` (`NA` without a likelihood, with the
#'   reason in `aic_note`), `converged` and `passes`. `print()` returns its
#'   argument invisibly.
#' @family models
#' @examples
#' x <- as.matrix(scale(datasets::trees[, c("Girth", "Height")]))
#' summary(rff_ridge(x, datasets::trees$Volume, kernel = gaussian_kernel(1), n_features = 32, seed = 1))
#' summary(rff_glm(x, datasets::trees$Volume > 25, kernel = gaussian_kernel(1), n_features = 16, lambda = 1, seed = 1))
#' @export
summary.askrff_ridge <- function(object, ...) {
  object <- validate_ridge(object, "object")
  check_no_dots(...)
  # one lambda and df for all responses, or one each
  df <- stats::setNames(ridge_df(object), if (per_response_lambda(object)) object$response$names)
  residual_df <- object$n - df
  rss <- object$rss
  out <- list(call = object$call, model = model_description(object), response = object$response, n = object$n,
              lambda = object$lambda, lambda_choice = ridge_lambda_choice(object), selection = selection_text(object$selection),
              df = df, df.residual = residual_df, weight = object$posterior$weight, intercept = object$intercept,
              coefficient_norm = sqrt(colSums(object$coefficients^2)), rss = rss,
              sigma = sqrt(rss / ifelse(residual_df > 0, residual_df, NA)),
              residuals = NULL, weighted = !is.null(object$weights), r.squared = rss * NA, adj.r.squared = rss * NA,
              logLik = NA_real_, aic = NA_real_, covariance = object$response$kind == "numeric")
  # (R^2 needs the fitted values too, which an edited fit may have lost)
  if (!is.null(object$residuals) && !is.null(object$fitted)) {
    w <- if (is.null(object$weights)) rep(1, nrow(object$residuals)) else object$weights
    # the variation beyond the offset, as summary.lm() takes it (since R 4.3.0)
    y <- object$fitted + object$residuals - (if (is.null(object$offset_values)) 0 else object$offset_values)
    total <- colSums(w * sweep(y, 2L, colSums(w * y) / sum(w))^2)
    out$residuals <- sqrt(w[w > 0]) * object$residuals[w > 0, , drop = FALSE]
    out$r.squared <- 1 - rss / total
    out$adj.r.squared <- 1 - (1 - out$r.squared) * (object$n - 1) / residual_df
  }
  if (object$response$kind == "numeric") {
    likelihood <- tryCatch(stats::logLik(object), askrff_error = function(e) NULL)
    if (!is.null(likelihood)) {
      out$logLik <- as.numeric(likelihood)
      out$aic <- -2 * out$logLik + 2 * attr(likelihood, "df")
    }
  }
  structure(out, class = "summary.askrff_ridge")
}

#' @rdname summary.askrff_ridge
#' @export
print.summary.askrff_ridge <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  f <- function(v) format(signif(v, digits))
  print_summary_head(x, "Ridge regression on random features", NULL, digits)
  if (!is.null(x$residuals)) {
    cat(if (x$weighted) "\nWeighted residuals:\n" else "\nResiduals:\n")
    for (j in seq_len(ncol(x$residuals))) {
      if (ncol(x$residuals) > 1L) cat(colnames(x$residuals)[j], ":\n", sep = "")
      r <- x$residuals[, j]
      quantiles <- if (length(r) > 5L) stats::setNames(stats::quantile(r), c("Min", "1Q", "Median", "3Q", "Max")) else r
      print(quantiles, digits = digits)
    }
  } else {
    cat("\nResiduals: not kept (the fit streamed its data).\n")
  }
  print_coefficient_note(x, digits)
  several <- length(x$rss) > 1L
  for (j in seq_along(x$rss)) {
    lead <- if (several) sprintf("%s: ", names(x$rss)[j]) else ""
    cat(sprintf("%sResidual standard error: %s on %s effective residual degrees of freedom\n", lead, f(x$sigma[j]),
                f(x$df.residual[min(j, length(x$df.residual))])))
    if (!is.na(x$r.squared[j])) {
      cat(sprintf("%sR-squared: %s,  adjusted R-squared: %s\n", lead, f(x$r.squared[j]), f(x$adj.r.squared[j])))
    }
  }
  if (!is.na(x$logLik)) cat(sprintf("Log-likelihood: %s (df = %s),  AIC: %s\n", f(x$logLik), f(x$df + 1), f(x$aic)))
  invisible(x)
}

#' @rdname summary.askrff_ridge
#' @export
summary.askrff_glm <- function(object, ...) {
  object <- validate_glm(object, "object")
  check_no_dots(...)
  traits <- model_family_traits(object$family)
  likelihood <- tryCatch(stats::logLik(object), askrff_error = function(e) e)
  # (a squared hinge fit of two classes has degrees of freedom, from its
  # generalized Hessian; a fit that took no Hessian, of a kinked loss or of
  # values among them, has none)
  df <- if (is.null(object$likelihood$df)) NA_real_ else object$likelihood$df
  one <- ncol(object$coefficients) == 1L
  out <- list(call = object$call, model = model_description(object), family = glm_family_text(object),
              response = object$response, n = object$n, weight = object$weight, lambda = object$lambda,
              lambda_choice = glm_lambda_choice(object), selection = selection_text(object$selection), df = df,
              df.residual = if (one) object$n - df else NA_real_,
              # a Cox model has no intercept: its baseline hazard holds it
              intercept = if (is_cox_fit(object)) NULL else object$intercept,
              concordance = object$concordance,
              coefficient_norm = sqrt(colSums(object$coefficients^2)), deviance = object$deviance,
              # (a Cox model's null model has no intercept)
              null.deviance = object$null_deviance, df.null = if (one) object$n - !is_cox_fit(object) else NA_real_,
              aic = if (inherits(likelihood, "logLik")) -2 * as.numeric(likelihood) + 2 * df else NA_real_,
              aic_note = if (inherits(likelihood, "logLik")) NULL else conditionMessage(likelihood),
              converged = object$path$converged[which(object$path$lambda == object$lambda)[1L]],
              passes = object$passes, has_likelihood = traits$likelihood,
              covariance = traits$likelihood && !is.null(object$likelihood$covariance))
  structure(out, class = "summary.askrff_glm")
}

#' @rdname summary.askrff_ridge
#' @export
print.summary.askrff_glm <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  f <- function(v) format(signif(v, digits))
  print_summary_head(x, "Penalized GLM on random features", x$family, digits)
  print_coefficient_note(x, digits)
  # a family without a likelihood reports the sum of its losses
  word <- if (x$has_likelihood) "deviance" else "loss"
  cat(sprintf("Null %s: %s%s\n", word, f(x$null.deviance),
              if (is.na(x$df.null)) "" else sprintf(" on %s degrees of freedom", f(x$df.null))))
  cat(sprintf("Residual %s: %s%s\n", word, f(x$deviance),
              if (is.na(x$df.residual)) "" else sprintf(" on %s effective residual degrees of freedom", f(x$df.residual))))
  cat(sprintf("%s explained: %.1f %%\n", if (x$has_likelihood) "Deviance" else "Loss",
              100 * (1 - x$deviance / max(x$null.deviance, .Machine$double.xmin))))
  if (!is.na(x$aic)) {
    cat(sprintf("AIC: %s\n", f(x$aic)))
  } else if (!x$has_likelihood) {
    cat("AIC: none (the loss is no likelihood)\n")
  } else {
    cat(sprintf("AIC: not available (%s)\n", sub("[.]$", "", x$aic_note)))
  }
  if (!is.null(x$concordance)) cat(sprintf("Concordance (Harrell's C) on the rows fitted: %s\n", f(x$concordance)))
  cat(sprintf("\n%s after %d passes over the data\n", if (isTRUE(x$converged)) "Converged" else "Not converged", x$passes))
  invisible(x)
}

# The lines both summaries begin with: the call, the model, the rows,
# lambda and the degrees of freedom.
print_summary_head <- function(x, title, family, digits) {
  if (!is.null(x$call)) {
    cat("\nCall:\n", paste(deparse(x$call), collapse = "\n"), "\n", sep = "")
  }
  cat(sprintf("\n%s\n", title))
  if (!is.null(family)) cat(sprintf("  family: %s\n", family))
  cat(sprintf("  kernel: %s\n  map: %s\n", x$model$kernel, x$model$map))
  weight <- if (x$weight != x$n) sprintf(" (total weight %s)", format(signif(x$weight, digits))) else ""
  cat(sprintf("  rows: %s of positive weight%s\n", format_count(x$n), weight))
  cat(sprintf("  lambda = %s, %s\n", named_values(x$lambda, digits), x$lambda_choice))
  if (!is.null(x$selection)) cat(sprintf("  %s\n", x$selection))
  cat(sprintf("  effective degrees of freedom: %s\n",
              if (anyNA(x$df)) "not available" else {
                sprintf("%s (%s)", named_values(x$df, digits),
                        if ("intercept" %in% names(x) && is.null(x$intercept)) "no intercept" else "intercept included")
              }))
}

# One number, or several as "name value, name value".
named_values <- function(v, digits) {
  values <- vapply(v, function(e) format(signif(e, digits)), "")
  if (length(v) == 1L) values else paste(names(v), values, collapse = ", ")
}

# The intercepts and what the feature coefficients are.
print_coefficient_note <- function(x, digits) {
  several <- length(x$intercept) > 1L
  named <- function(v) named_values(v, digits)
  per <- if (!several) "" else if (x$response$kind == "matrix") " per response" else " per class"
  # (a Cox model has none: its baseline hazard holds it)
  cat(if (is.null(x$intercept)) "\nNo intercept (the baseline hazard holds it)\n" else
    sprintf("\nIntercept%s: %s\n", if (several) "s" else "", named(x$intercept)))
  cat(sprintf("Feature coefficients: %s%s, of norm %s.\n", format_count(x$model$columns), per, named(x$coefficient_norm)),
      "Each multiplies a random feature, so they are not interpretable one by one\n",
      sprintf("(predict() shows the fitted function%s).\n\n", if (x$covariance) ", vcov() their covariance" else ""),
      sep = "")
}

# The kernel, the map and its feature columns of a fit.
model_description <- function(fit) {
  map <- fit$map
  kernel <- if (is.null(map$kernel)) "(none)" else kernel_label(map$kernel)
  if (!identical(fit$fun, "")) kernel <- sprintf("%s (%s features)", kernel, fit$fun)
  method <- if (is.character(map$method) && length(map$method) == 1L) sprintf(", %s", map$method) else ""
  list(kernel = kernel, map = sprintf("%s%s, %s feature columns", class(map)[1L], method,
                                      format_count(nrow(fit$coefficients))),
       columns = nrow(fit$coefficients))
}
