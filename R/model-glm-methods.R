# Methods of rff_glm() fits. A fit is a plain list that users save and
# share, so each method checks it first.

validate_glm <- function(fit, arg) as_condition_class("invalid_object", {
  if (!is.list(fit) || !inherits(fit, "askrff_glm")) fail("`%s` must be a fit of rff_glm().", arg)
  model <- tryCatch(fit_map(fit$map, if (identical(fit$fun, "")) NULL else fit$fun), askrff_error = function(e) {
    fail("`%s` has an invalid map: %s", field(arg, "map"), conditionMessage(e))
  })
  family <- fit$family
  traits <- model_family_traits(family, field(arg, "family"))
  response <- fit$response
  levels_ok <- is.list(response) && is.character(response$levels) && !anyNA(response$levels) &&
    anyDuplicated(response$levels) == 0L &&
    switch(traits$response, counts = length(response$levels) == 0L, two_classes = length(response$levels) == 2L,
           classes = , one_vs_rest = length(response$levels) >= 2L)
  if (!levels_ok || !is.character(response$kind) || length(response$kind) != 1L ||
      !response$kind %in% response_kinds(traits)) {
    fail("`%s` must describe the response's kind and levels as rff_glm() does for the \"%s\" family.",
         field(arg, "response"), family)
  }
  classes <- family_predictors(traits, response$levels)
  b <- fit$coefficients
  if (!is_matrix(b) || !is.double(b) || nrow(b) != model$columns || ncol(b) != classes || any(!is.finite(b))) {
    fail("`%s` must be a finite matrix with one row per feature column (%d) and %d column%s.",
         field(arg, "coefficients"), model$columns, classes, if (classes > 1L) "s (one per class)" else "")
  }
  if (!is.double(fit$intercept) || length(fit$intercept) != classes || any(!is.finite(fit$intercept))) {
    fail("`%s` must hold %d finite number%s.", field(arg, "intercept"), classes, if (classes > 1L) "s, one per class" else "")
  }
  validate_platt(fit$platt, classes, field(arg, "platt"))
  path <- fit$path
  cross_validated <- is.data.frame(path) && all(c("cv", "cv_se") %in% names(path))
  if (!is.data.frame(path) || !all(c("lambda", "deviance", "converged") %in% names(path)) || nrow(path) < 1L ||
      !is.double(path$lambda) || any(!is.finite(path$lambda)) || any(path$lambda <= 0) || anyDuplicated(path$lambda) > 0L ||
      !is.double(path$deviance) || any(!is.finite(path$deviance)) || any(path$deviance < 0) ||
      !is.logical(path$converged) || anyNA(path$converged) ||
      (cross_validated && (!is.double(path$cv) || !is.double(path$cv_se) || any(!is.finite(path$cv)) || any(path$cv < 0) ||
                           any(!is.finite(path$cv_se)) || any(path$cv_se < 0))) ||
      (!cross_validated && (nrow(path) != 1L || any(c("cv", "cv_se") %in% names(path))))) {
    fail("`%s` must be a data frame of distinct positive `lambda`, finite nonnegative `deviance`, `converged` and, when lambda was cross-validated, finite nonnegative `cv` and `cv_se`, as rff_glm() makes.",
         field(arg, "path"))
  }
  if (!is_single_number(fit$lambda) || !is.finite(fit$lambda) || !fit$lambda %in% path$lambda) {
    fail("`%s` must be one of the path's lambda values.", field(arg, "lambda"))
  }
  for (name in c("deviance", "null_deviance")) {
    if (!is_single_number(fit[[name]]) || !is.finite(fit[[name]]) || fit[[name]] < 0) {
      fail("`%s` must be a finite nonnegative number.", field(arg, name))
    }
  }
  if (!is_single_number(fit$n) || !is.finite(fit$n) || fit$n < 2 || fit$n != round(fit$n)) {
    fail("`%s` must be the number of rows fitted, at least 2.", field(arg, "n"))
  }
  if (!is_single_number(fit$weight) || !is.finite(fit$weight) || fit$weight <= 0) {
    fail("`%s` must be the positive sum of the weights.", field(arg, "weight"))
  }
  if (!is_single_number(fit$nfolds) || !is.finite(fit$nfolds) || fit$nfolds < 2 || fit$nfolds > 50 ||
      fit$nfolds != round(fit$nfolds)) {
    fail("`%s` must be a whole number of folds from 2 to 50.", field(arg, "nfolds"))
  }
  eta <- fit$linear_predictors
  if (!is.null(eta) && (!is_matrix(eta) || !is.double(eta) || nrow(eta) < 1L || ncol(eta) != classes ||
                        any(!is.finite(eta)))) {
    fail("`%s` must be NULL (streamed data) or a finite matrix of one row per row fitted and %d column%s.",
         field(arg, "linear_predictors"), classes, if (classes > 1L) "s" else "")
  }
  if (!is.null(fit$scaling)) {
    fit$scaling <- tryCatch(column_scaling(fit$scaling, NULL), askrff_error = function(e) {
      fail("`%s` must be NULL or the `center` and positive `scale` of the map's %d columns.", field(arg, "scaling"), model$d)
    })
    if (length(fit$scaling$center) != model$d) {
      fail("`%s` must be NULL or the `center` and positive `scale` of the map's %d columns.", field(arg, "scaling"), model$d)
    }
  }
  if (is.null(fit$fold_seed)) fail("`%s` must be the two seed words of the folds.", field(arg, "fold_seed"))
  check_seed_words(fit$fold_seed, field(arg, "fold_seed"))
  if (!is_single_number(fit$passes) || !is.finite(fit$passes) || fit$passes < 1 || fit$passes != round(fit$passes)) {
    fail("`%s` must be the number of passes over the data, a positive whole number.", field(arg, "passes"))
  }
  if (!is.null(fit$design) || !is.null(fit$call)) validate_design(fit$design, field(arg, "design"))
  validate_offset_flag(fit$offset, field(arg, "offset"))
  validate_glm_likelihood(fit$likelihood, classes, model$columns, field(arg, "likelihood"))
  if (!is.null(fit$selection)) {
    # a scale search compares the cross-validated deviance, or a ridge
    # surrogate's evidence (R/model-glm-scale.R)
    criterion <- if (is.list(fit$selection) && !is.null(fit$selection$surrogate)) "evidence" else "cv"
    fit$selection <- validate_selection(fit$selection, c(fit, list(criterion = criterion)), model$map,
                                        field(arg, "selection"))
  }
  fit$fun <- model$fun
  fit$map <- model$map
  fit
})

#' @export
print.askrff_glm <- function(x, ...) {
  x <- validate_glm(x, "x")
  kernel <- if (x$fun == "") kernel_label(x$map$kernel) else sprintf("%s (%s features)", kernel_label(x$map$kernel), x$fun)
  cat(sprintf("<askrff glm> %s on %s, %d feature columns, n = %s\n", glm_family_text(x), kernel, nrow(x$coefficients),
              format(x$n, big.mark = ",")))
  cat(sprintf("  lambda = %s, %s\n", format(x$lambda, digits = 3), glm_lambda_choice(x)))
  if (!is.null(x$selection)) cat(sprintf("  %s\n", selection_text(x$selection)))
  cat(sprintf("  deviance %s, null deviance %s (%.1f %% explained)\n", format(x$deviance, digits = 5),
              format(x$null_deviance, digits = 5), 100 * (1 - x$deviance / max(x$null_deviance, .Machine$double.xmin))))
  invisible(x)
}

# How a GLM fit's lambda was chosen, for print() and summary().
glm_lambda_choice <- function(fit) {
  if (!"cv" %in% names(fit$path)) return("given")
  chosen <- which(fit$path$lambda == fit$lambda)[1L]
  sprintf("chosen by %d-fold cross-validation among %d values%s; CV deviance %s (se %s)", fit$nfolds, nrow(fit$path),
          if (chosen %in% c(1L, nrow(fit$path))) " (at the end of the grid)" else "",
          format(fit$path$cv[chosen], digits = 4), format(fit$path$cv_se[chosen], digits = 2))
}

#' @export
coef.askrff_glm <- function(object, ...) {
  object <- validate_glm(object, "object")
  b <- rbind(`(Intercept)` = object$intercept, object$coefficients)
  if (ncol(b) > 1L) b else b[, 1L]
}

#' Predictions of a penalized GLM on random features
#'
#' The linear predictors \eqn{b_0 + z(x)'b} of a fit of [rff_glm()] for new
#' data (plus their offset when the fit has one), computed a block of rows
#' at a time without storing the features, or their means (probabilities,
#' or the Poisson mean), or the most probable class.
#'
#' **Offsets.** As for [predict.askrff_ridge()]: a formula fit evaluates its
#' offset in `newdata` (its formula's `offset()` terms and its `offset`
#' argument's expression), as [predict.lm()] and [predict.glm()] do, so a
#' rate model fitted with `offset(log(exposure))` predicts the mean count
#' for each new row's exposure; a fit of the default method whose rows
#' carried an offset needs `offset` for the new rows.
#'
#' @param object A fit of [rff_glm()].
#' @param newdata For a formula fit, a data frame with the predictors of the
#'   formula; else a numeric matrix or data frame with the fit's columns.
#'   Rows with a missing predictor get NA. Omitted: the fitted values (data
#'   in memory only; with NA for the rows [na.exclude()] left out).
#' @param type `"link"` for the linear predictors, `"response"` for the
#'   probability of the second level (binomial), the probabilities of every
#'   class (multinomial: a matrix whose rows sum to 1) or the mean count
#'   (Poisson), or for a support vector machine fitted with `probability =
#'   TRUE` its Platt probabilities (see [rff_glm()]), `"class"` for the most
#'   probable level (a factor; for a
#'   support vector machine the level on the positive side, or of several
#'   classes the one whose classifier scores highest), `"decision"` for a
#'   classifier's decision values (the linear predictors, as `"link"`; a
#'   matrix with a column per class for a one-vs-rest fit of several).
#' @param offset For a fit of the default method, the offset of each row of
#'   `newdata` (a matrix of one column per class for the multinomial
#'   family), added to its linear predictors; required when the fit's rows
#'   carried one. `NULL` otherwise; a formula fit takes none.
#' @param ... Not used: an argument given here is refused, `interval` and
#'   `se.fit` (of [predict.lm()]) among them, since these predictions have no
#'   standard errors (see [vcov.askrff_glm()] for the coefficients'
#'   covariance).
#' @inheritParams kernel_matrix
#' @return A vector with one entry per row of `newdata` (a matrix with one
#'   column per class for a fit of several classes' `"link"`,
#'   `"decision"` and `"response"`), or a factor for `"class"`.
#' @family models
#' @examples
#' x <- as.matrix(iris[, 1:4])
#' fit <- rff_glm(x, iris$Species == "virginica", family = "binomial", kernel = gaussian_kernel(1),
#'                n_features = 32, standardize = TRUE, seed = 1)
#' predict(fit, x[c(1, 51, 101), ], type = "response")
#' @export
predict.askrff_glm <- function(object, newdata, type = c("link", "response", "class", "decision"), n_threads = NULL,
                               offset = NULL, ...) {
  object <- validate_glm(object, "object")
  uncertain <- intersect(c("interval", "se.fit"), ...names())
  if (length(uncertain) > 0L) {
    fail("`%s` is not available for fits of rff_glm(): their predictions have no standard errors or intervals (vcov() gives the coefficients' covariance).",
         uncertain[1L])
  }
  check_no_dots(...)
  type <- check_choice(type, c("link", "response", "class", "decision"), "type")
  check_glm_prediction(object, type, "type")
  if (missing(newdata) || is.null(newdata)) {
    no_offset_without_rows(offset)
    if (is.null(object$linear_predictors)) {
      fail("This fit streamed its data, so it keeps no fitted values; use predict(fit, newdata) on the data instead.")
    }
    eta <- stats::naresid(object$design$na_action, object$linear_predictors)
  } else {
    rows <- ridge_newdata(object, newdata, offset, ncol(object$coefficients))
    eta <- if (nrow(rows$x) > 0L) {
      scores <- fit_scores(object, rows$x, resolve_threads(n_threads), "rff_glm()", colnames(object$coefficients))
      add_offset(scores, rows$offset)
    } else {
      matrix(numeric(), 0L, ncol(object$coefficients))
    }
    eta <- pad_rows(eta, rows$complete)
    if (nrow(eta) == NROW(newdata)) rownames(eta) <- rownames(newdata)
  }
  if (type == "class") {
    # the most probable class: the largest predictor, or for two classes
    # the second level where the one predictor is positive
    scores <- if (ncol(eta) == 1L) cbind(0, eta) else eta
    classes <- object$response$levels[max.col(replace(scores, is.na(scores), 0), ties.method = "first")]
    classes[!stats::complete.cases(scores)] <- NA
    return(stats::setNames(factor(classes, levels = object$response$levels), rownames(eta)))
  }
  values <- if (type %in% c("link", "decision")) eta else {
    mean <- if (is.null(object$platt)) glm_mean(object$family, eta) else platt_probabilities(object$platt, eta)
    if (any(is.infinite(mean))) {
      fail("The predicted means overflow (linear predictors up to %s); the fit's `coefficients` are too large for these data.",
           format(max(eta, na.rm = TRUE), digits = 3))
    }
    dimnames(mean) <- dimnames(eta)
    mean
  }
  if (ncol(values) > 1L) values else stats::setNames(values[, 1L], rownames(values))
}

# The predictions a fit's family gives: classes for a response of classes,
# means where the family has them.
check_glm_prediction <- function(fit, type, arg) {
  traits <- model_family_traits(fit$family)
  if (type %in% c("class", "decision") && traits$response == "counts") {
    fail("`%s = \"%s\"` needs a fit to classes; the \"%s\" family's response is counts.", arg, type, fit$family)
  }
  if (type == "response" && identical(traits$mean, "") && is.null(fit$platt)) {
    fail("`%s = \"response\"` needs a family with a mean, or a fit with `probability = TRUE`; the \"%s\" family gives scores (\"link\") and classes.",
         arg, fit$family)
  }
  invisible(traits)
}

#' @export
fitted.askrff_glm <- function(object, ...) {
  object <- validate_glm(object, "object")
  stats::predict(object, type = "response")
}

#' Plot the cross-validation curve of a penalized GLM
#'
#' The cross-validated deviance per unit weight against \eqn{\lambda} (log
#' scale), with bars of one standard error across folds and the chosen
#' \eqn{\lambda} marked.
#'
#' @param x A fit of [rff_glm()] whose \eqn{\lambda} was chosen by
#'   cross-validation.
#' @param ... Passed to [graphics::plot()].
#' @return `x`, invisibly.
#' @family models
#' @export
plot.askrff_glm <- function(x, ...) {
  x <- validate_glm(x, "x")
  path <- x$path
  if (!"cv" %in% names(path)) fail("This fit's `lambda` was given, not chosen by cross-validation, so it has no curve to plot.")
  se <- path$cv_se
  draw_with_defaults(graphics::plot, list(x = path$lambda, y = path$cv, log = "x", type = if (nrow(path) > 1L) "b" else "p",
                                          pch = 20, ylim = range(c(path$cv - se, path$cv + se)), xlab = "lambda",
                                          ylab = "CV deviance per unit weight",
                                          main = sprintf("%d-fold cross-validation", x$nfolds)), list(...))
  graphics::segments(path$lambda, path$cv - se, path$lambda, path$cv + se, col = "grey50")
  graphics::abline(v = x$lambda, lty = 2)
  graphics::mtext(sprintf("lambda = %s", format(x$lambda, digits = 3)), side = 3, line = 0.3, cex = 0.8)
  invisible(x)
}
