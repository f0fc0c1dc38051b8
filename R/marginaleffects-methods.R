# The methods marginaleffects needs for askrff's fits (its "Extensions"
# vignette: coefficients, setting them, their covariance, predictions), so
# that slopes(), avg_slopes(), predictions() and comparisons() run on them
# and agree with rff_effects(). marginaleffects is a Suggests; the methods
# are registered when it loads, and .onLoad() adds the classes to its
# option `marginaleffects_model_classes`.

# A fit of one linear predictor with a covariance, checked: rff_ridge() to
# one numeric response, or rff_glm() of the binomial or Poisson family.
one_predictor_fit <- function(fit, arg, what) {
  if (inherits(fit, "askrff_glm")) {
    fit <- validate_glm(fit, arg)
    if (!fit$family %in% c("binomial", "poisson")) {
      fail("%s takes GLMs of one linear predictor with a likelihood (\"binomial\", \"poisson\"); this fit's family is \"%s\".",
           what, fit$family)
    }
    return(fit)
  }
  if (!inherits(fit, "askrff_ridge")) fail("`%s` must be a fit of rff_ridge() or rff_glm().", arg)
  fit <- validate_ridge(fit, arg)
  if (fit$response$kind != "numeric") {
    fail("%s takes a ridge fit to one numeric response; this fit's response is a %s.", what, response_text(fit$response))
  }
  fit
}

#' Methods for marginaleffects
#'
#' With these methods, `marginaleffects::slopes()`, `avg_slopes()`,
#' `predictions()`, `comparisons()` and their relatives take [rff_ridge()]
#' fits to one numeric response and [rff_glm()] fits of the binomial and
#' Poisson families, with `newdata` given (the fits keep no training rows)
#' and, for a GLM, `type = "response"` or `"link"`. The coefficients are the
#' intercept and one per feature column, as [coef()] names them; their
#' covariance is [vcov()][vcov.askrff_ridge]'s (a ridge fit's posterior,
#' which `predict(se.fit = TRUE)` reads; a GLM's penalized Hessian's
#' inverse), so the delta method's standard errors are those of
#' [rff_effects()] for the same effects. The delta method there takes one
#' prediction per coefficient: with D feature columns, D + 1 passes over
#' `newdata`; [rff_effects()] takes one.
#'
#' @param model A fit of [rff_ridge()] or [rff_glm()], as above.
#' @param coefs The coefficients, as `get_coef()` gives them.
#' @param newdata The rows to predict.
#' @param type For a GLM, `"response"` or `"link"`, as for
#'   [predict()][predict.askrff_glm].
#' @param ... Not used.
#' @return `get_coef()` a named vector, `set_coef()` the fit with the
#'   coefficients, `get_vcov()` their covariance matrix, `get_predict()` a
#'   data frame of `rowid` and `estimate`.
#' @name askrff-marginaleffects
#' @keywords internal
NULL

#' @rdname askrff-marginaleffects
#' @exportS3Method marginaleffects::get_coef
get_coef.askrff_ridge <- function(model, ...) stats::coef(one_predictor_fit(model, "model", "marginaleffects"))

#' @rdname askrff-marginaleffects
#' @exportS3Method marginaleffects::get_coef
get_coef.askrff_glm <- get_coef.askrff_ridge

#' @rdname askrff-marginaleffects
#' @exportS3Method marginaleffects::set_coef
set_coef.askrff_ridge <- function(model, coefs, ...) {
  current <- stats::coef(one_predictor_fit(model, "model", "marginaleffects"))
  if (!is.numeric(coefs) || length(coefs) != length(current) || !all(is.finite(coefs))) {
    fail("`coefs` must be %d finite numbers: the intercept and one per feature column.", length(current))
  }
  model$intercept[[1L]] <- coefs[[1L]]
  model$coefficients[, 1L] <- coefs[-1L]
  model
}

#' @rdname askrff-marginaleffects
#' @exportS3Method marginaleffects::set_coef
set_coef.askrff_glm <- set_coef.askrff_ridge

#' @rdname askrff-marginaleffects
#' @exportS3Method marginaleffects::get_vcov
get_vcov.askrff_ridge <- function(model, ...) stats::vcov(one_predictor_fit(model, "model", "marginaleffects"))

#' @rdname askrff-marginaleffects
#' @exportS3Method marginaleffects::get_vcov
get_vcov.askrff_glm <- get_vcov.askrff_ridge

#' @rdname askrff-marginaleffects
#' @exportS3Method marginaleffects::get_predict
get_predict.askrff_ridge <- function(model, newdata, type = "response", ...) {
  model <- one_predictor_fit(model, "model", "marginaleffects")
  estimate <- if (inherits(model, "askrff_glm")) {
    stats::predict(model, newdata, type = check_choice(type, c("response", "link"), "type"))
  } else {
    stats::predict(model, newdata)
  }
  estimate <- unname(estimate)
  rowid <- if (is.data.frame(newdata) && "rowid" %in% names(newdata)) newdata$rowid else seq_along(estimate)
  data.frame(rowid = rowid, estimate = estimate)
}

#' @rdname askrff-marginaleffects
#' @exportS3Method marginaleffects::get_predict
get_predict.askrff_glm <- get_predict.askrff_ridge

# Tells marginaleffects that it may take askrff's fits (its option, read
# when it runs; set whether or not it is installed).
declare_marginaleffects_classes <- function() {
  options(marginaleffects_model_classes = union(getOption("marginaleffects_model_classes"),
                                                c("askrff_ridge", "askrff_glm")))
}
