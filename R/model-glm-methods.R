# Methods of rff_glm() fits. A fit is a plain list that users save and
# share, so each method checks it first.

validate_glm <- function(fit, arg) as_condition_class("invalid_object", {
  if (!is.list(fit) || !inherits(fit, "askrff_glm")) fail("`%s` must be a fit of rff_glm().", arg)
  model <- validate_fit_map(fit, arg)
  family <- fit$family
  traits <- model_family_traits(family, field(arg, "family"))
  response <- fit$response
  levels_ok <- is.list(response) && is.character(response$levels) && !anyNA(response$levels) &&
    anyDuplicated(response$levels) == 0L &&
    switch(traits$response, counts = , values = , real = , survival = length(response$levels) == 0L,
           two_classes = length(response$levels) == 2L, classes = , one_vs_rest = length(response$levels) >= 2L)
  if (!levels_ok || !is.character(response$kind) || length(response$kind) != 1L ||
      !response$kind %in% response_kinds(traits)) {
    fail("`%s` must describe the response's kind and levels as rff_glm() does for the \"%s\" family.",
         field(arg, "response"), family)
  }
  if (traits$response == "values") {
    tau <- fit$tau
    if (!is.double(tau) || !is.null(dim(tau)) || is.object(tau) || length(tau) < 1L || anyNA(tau) ||
        any(!(tau > 0 & tau < 1)) || is.unsorted(tau, strictly = TRUE)) {
      fail("`%s` must be the fit's increasing levels, strictly between 0 and 1.", field(arg, "tau"))
    }
  } else if (!is.null(fit$tau)) {
    fail("`%s` must be NULL: the \"%s\" family has no levels.", field(arg, "tau"), family)
  }
  if (traits$response == "real") {
    epsilon <- fit$epsilon
    if (!is.double(epsilon) || is.object(epsilon) || length(epsilon) != 1L || !is.finite(epsilon) || epsilon < 0) {
      fail("`%s` must be the fit's tube, one finite nonnegative number.", field(arg, "epsilon"))
    }
  } else if (!is.null(fit$epsilon)) {
    fail("`%s` must be NULL: the \"%s\" family has no tube.", field(arg, "epsilon"), family)
  }
  classes <- family_predictors(traits, response$levels, fit$tau)
  b <- fit$coefficients
  if (!is_matrix(b) || !is.double(b) || nrow(b) != model$columns || ncol(b) != classes || any(!is.finite(b))) {
    fail("`%s` must be a finite matrix with one row per feature column (%d) and %d column%s.",
         field(arg, "coefficients"), model$columns, classes, if (classes > 1L) "s (one per class)" else "")
  }
  if (!is.double(fit$intercept) || length(fit$intercept) != classes || any(!is.finite(fit$intercept))) {
    fail("`%s` must hold %d finite number%s.", field(arg, "intercept"), classes, if (classes > 1L) "s, one per class" else "")
  }
  validate_platt(fit$platt, classes, field(arg, "platt"))
  validate_cox_fit(fit, traits, arg)
  path <- fit$path
  cross_validated <- is.data.frame(path) && all(c("cv", "cv_se") %in% names(path))
  if (!is.data.frame(path) || !all(c("lambda", "deviance", "converged") %in% names(path)) || nrow(path) < 1L ||
      !is.double(path$lambda) || any(!is.finite(path$lambda)) || any(path$lambda <= 0) || anyDuplicated(path$lambda) > 0L ||
      !is.double(path$deviance) || any(!is.finite(path$deviance)) || any(path$deviance < 0) ||
      !is.logical(path$converged) || anyNA(path$converged) ||
      (cross_validated && (!is.double(path$cv) || !is.double(path$cv_se) || any(!is.finite(path$cv)) ||
                           (traits$response != "survival" && any(path$cv < 0)) ||
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
  if (!is.null(fit$scaling)) fit$scaling <- validate_fit_scaling(fit$scaling, model$d, arg)
  if (is.null(fit$fold_seed)) fail("`%s` must be the two seed words of the folds.", field(arg, "fold_seed"))
  check_seed_words(fit$fold_seed, field(arg, "fold_seed"))
  if (!is_single_number(fit$passes) || !is.finite(fit$passes) || fit$passes < 1 || fit$passes != round(fit$passes)) {
    fail("`%s` must be the number of passes over the data, a positive whole number.", field(arg, "passes"))
  }
  if (!is.null(fit$design) || !is.null(fit$call)) validate_design(fit$design, field(arg, "design"))
  validate_offset_flag(fit$offset, field(arg, "offset"))
  validate_smoothing(fit$smoothing, traits, field(arg, "smoothing"))
  validate_glm_likelihood(fit$likelihood, classes, model$columns + !is_cox_fit(fit), field(arg, "likelihood"))
  if (!is.null(fit$path_rows) && (!is_single_number(fit$path_rows) || fit$path_rows != round(fit$path_rows) ||
                                  fit$path_rows < 2 || fit$path_rows > fit$n || !"cv" %in% names(fit$path))) {
    fail("`%s` must be NULL or the number of rows the cross-validated path was fitted on, a whole number up to `n`.",
         field(arg, "path_rows"))
  }
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
  word <- deviance_name(x$family)
  cat(sprintf("  %s %s, null %s %s (%.1f %% explained)\n", word, format(x$deviance, digits = 5), word,
              format(x$null_deviance, digits = 5), 100 * (1 - x$deviance / max(x$null_deviance, .Machine$double.xmin))))
  if (!is.null(x$concordance)) cat(sprintf("  concordance (Harrell's C) %s\n", format(x$concordance, digits = 4)))
  invisible(x)
}

# Checks the `smoothing` of a fit (`traits` its family's): NULL for a loss
# without kinks, else the final fit's decreasing widths and the passes each
# took.
validate_smoothing <- function(smoothing, traits, where) {
  if (!traits$kinked) {
    if (!is.null(smoothing)) fail("`%s` must be NULL: the \"%s\" family's loss has no kinks.", where, traits$name)
    return(invisible())
  }
  # (fits made before the smoothing was recorded have none)
  if (is.null(smoothing)) return(invisible())
  width <- if (is.data.frame(smoothing)) smoothing$width
  passes <- if (is.data.frame(smoothing)) smoothing$passes
  if (!is.data.frame(smoothing) || nrow(smoothing) < 1L || !is.double(width) || any(!is.finite(width)) ||
      any(width <= 0) || is.unsorted(rev(width), strictly = TRUE) || !is.numeric(passes) || anyNA(passes) ||
      any(passes < 1) || any(passes != round(passes))) {
    fail("`%s` must be NULL or a data frame of decreasing positive smoothing `width` and the whole `passes` each took, as rff_glm() makes.",
         where)
  }
}

# How a GLM fit's lambda was chosen, for print() and summary().
glm_lambda_choice <- function(fit) {
  if (!"cv" %in% names(fit$path)) return("given")
  chosen <- which(fit$path$lambda == fit$lambda)[1L]
  sprintf("chosen by %d-fold cross-validation%s among %d values%s; CV %s %s (se %s)", fit$nfolds,
          if (is.null(fit$path_rows)) "" else sprintf(" on a sample of %s rows", format_count(fit$path_rows)), nrow(fit$path),
          if (chosen %in% c(1L, nrow(fit$path))) " (at the end of the grid)" else "", deviance_name(fit$family),
          format(fit$path$cv[chosen], digits = 4), format(fit$path$cv_se[chosen], digits = 2))
}

#' @export
coef.askrff_glm <- function(object, ...) {
  object <- validate_glm(object, "object")
  # a Cox model has no intercept: its baseline hazard holds it
  b <- if (is_cox_fit(object)) object$coefficients else rbind(`(Intercept)` = object$intercept, object$coefficients)
  if (ncol(b) > 1L) b else b[, 1L]
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
                                          ylab = sprintf("CV %s per unit weight", deviance_name(x$family)),
                                          main = sprintf("%d-fold cross-validation", x$nfolds)), list(...))
  graphics::segments(path$lambda, path$cv - se, path$lambda, path$cv + se, col = "grey50")
  graphics::abline(v = x$lambda, lty = 2)
  graphics::mtext(sprintf("lambda = %s", format(x$lambda, digits = 3)), side = 3, line = 0.3, cex = 0.8)
  invisible(x)
}
