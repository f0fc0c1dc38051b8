# predict() and fitted() of rff_glm() fits: linear predictors a block of
# rows at a time, and what each family's traits make of them.

#' Predictions of a penalized GLM on random features
#'
#' The linear predictors \eqn{b_0 + z(x)'b} of a fit of [rff_glm()] for new
#' data (plus their offset when the fit has one), computed a block of rows
#' at a time without storing the features, or their means (probabilities,
#' or the Poisson mean), or the most probable class.
#'
#' **Quantiles that do not cross.** A quantile or expectile fit has a linear
#' predictor per level \eqn{\tau}, each fitted on its own, so two levels'
#' predictions may cross where the data are sparse. `type = "response"`
#' rearranges them: each row's predictions sorted into increasing order
#' (Chernozhukov, Fernandez-Val and Galichon 2010), so that they never
#' cross. For quantiles this is never worse: for every response \eqn{y}, the
#' sum over the levels of the check losses \eqn{\rho_{\tau_j}(y - q_j)}
#' depends on the order of the \eqn{q_j} only through \eqn{-\sum_j \tau_j
#' q_j}, which is least when the \eqn{q_j} increase with the \eqn{\tau_j}.
#' `type = "link"` gives each level's own predictions.
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
#'   class (multinomial: a matrix whose rows sum to 1), the mean count
#'   (Poisson), the levels' quantiles or expectiles, rearranged so that they
#'   do not cross (see above), or for a support vector machine fitted with
#'   `probability = TRUE` its Platt probabilities (see [rff_glm()]),
#'   `"class"` for the most probable level (a factor; for a support vector
#'   machine the level on the positive side, or of several classes the one
#'   whose classifier scores highest), `"decision"` for a classifier's
#'   decision values (the linear predictors, as `"link"`; a matrix with a
#'   column per class for a one-vs-rest fit of several). For a Cox fit
#'   (`family = "cox"`), `"link"` is the linear predictor \eqn{z(x)'b}
#'   (plus the offset; no intercept), `"response"` and `"risk"` the
#'   relative risk \eqn{\exp(z(x)'b)}, and `"survival"` the survival
#'   probabilities \eqn{\exp(-\Lambda_0(t) e^{z(x)'b})} at `times` through
#'   the fit's baseline cumulative hazard \eqn{\Lambda_0} (Breslow's, or
#'   Efron's for Efron's ties, as [survival::survfit()] gives it after
#'   [survival::coxph()]; 0 before the first event time).
#' @param times For `type = "survival"`, the times at which to give each
#'   row's survival probability.
#' @param offset For a fit of the default method, the offset of each row of
#'   `newdata` (a matrix of one column per class for the multinomial
#'   family; one number, every level's, for quantiles and expectiles), added
#'   to its linear predictors; required when the fit's rows carried one.
#'   `NULL` otherwise; a formula fit takes none.
#' @param ... Not used: an argument given here is refused, `interval` and
#'   `se.fit` (of [predict.lm()]) among them, since these predictions have no
#'   standard errors (see [vcov.askrff_glm()] for the coefficients'
#'   covariance).
#' @inheritParams kernel_matrix
#' @return A vector with one entry per row of `newdata` (a matrix with one
#'   column per class for a fit of several classes' `"link"`,
#'   `"decision"` and `"response"`, and one per level for several levels
#'   \eqn{\tau}, named `"tau=0.1"` and so on), or a factor for `"class"`,
#'   or for `"survival"` a matrix of one row per row of `newdata` and one
#'   column per time (named `"t=1"` and so on).
#' @family models
#' @examples
#' x <- as.matrix(iris[, 1:4])
#' fit <- rff_glm(x, iris$Species == "virginica", family = "binomial", kernel = gaussian_kernel(1),
#'                n_features = 32, standardize = TRUE, seed = 1)
#' predict(fit, x[c(1, 51, 101), ], type = "response")
#' # quantiles of the petal width at three levels, which never cross
#' q <- rff_glm(x[, 1:3], x[, 4], family = "quantile", tau = c(0.1, 0.5, 0.9), n_features = 32, seed = 1)
#' head(predict(q, x[, 1:3], type = "response"))
#' @export
predict.askrff_glm <- function(object, newdata, type = c("link", "response", "class", "decision", "risk", "survival"),
                               n_threads = NULL, offset = NULL, times = NULL, ...) {
  object <- validate_glm(object, "object")
  uncertain <- intersect(c("interval", "se.fit"), ...names())
  if (length(uncertain) > 0L) {
    fail("`%s` is not available for fits of rff_glm(): their predictions have no standard errors or intervals (vcov() gives the coefficients' covariance).",
         uncertain[1L])
  }
  check_no_dots(...)
  type <- check_choice(type, c("link", "response", "class", "decision", "risk", "survival"), "type")
  check_glm_prediction(object, type, "type")
  if (type != "survival" && !is.null(times)) fail("`times` is for `type = \"survival\"` of a Cox fit.")
  if (type == "survival" && is.null(times)) fail("`type = \"survival\"` needs `times`, the times at which to give it.")
  if (missing(newdata) || is.null(newdata)) {
    no_offset_without_rows(offset)
    if (is.null(object$linear_predictors)) {
      fail("This fit streamed its data, so it keeps no fitted values; use predict(fit, newdata) on the data instead.")
    }
    eta <- stats::naresid(object$design$na_action, object$linear_predictors)
  } else {
    rows <- ridge_newdata(object, newdata, offset, offset_columns(object$family, ncol(object$coefficients)))
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
  if (type == "survival") return(cox_survival(object, stats::setNames(eta[, 1L], rownames(eta)), times))
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
  if (type %in% c("risk", "survival") && traits$response != "survival") {
    fail("`%s = \"%s\"` needs a Cox fit; the \"%s\" family's response is %s.", arg, type, fit$family, traits$response)
  }
  if (type %in% c("class", "decision") && traits$response %in% c("counts", "values", "real", "survival")) {
    fail("`%s = \"%s\"` needs a fit to classes; the \"%s\" family's response is %s.", arg, type, fit$family,
         traits$response)
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
