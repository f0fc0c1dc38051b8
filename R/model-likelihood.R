# The likelihood of rff_ridge() and rff_glm() fits: nobs(), logLik() (so
# that AIC() and BIC() work), deviance(), and what a GLM fit keeps for them
# (glm_likelihood()).

#' Log-likelihood, deviance and observations of a fit on random features
#'
#' `logLik()` gives the log-likelihood of a fit of [rff_ridge()] or
#' [rff_glm()] at its coefficients, with attributes `df` (its degrees of
#' freedom) and `nobs`, so that [AIC()] and [BIC()] apply; `deviance()`
#' gives its deviance and `nobs()` its rows of positive weight.
#'
#' **Ridge regression.** The Gaussian log-likelihood of the weighted
#' residuals at the fitted values, with \eqn{\sigma^2} at its
#' maximum-likelihood value \eqn{RSS / n}, as [logLik.lm()] gives it:
#' \deqn{\frac12 \left(\sum_i \log w_i - n \left(\log(2\pi) + 1 - \log n +
#' \log RSS\right)\right),} with \eqn{RSS = \sum_i w_i r_i^2} and \eqn{n}
#' the rows of positive weight. Its degrees of freedom are the effective
#' degrees of freedom of the penalized fit at the chosen \eqn{\lambda}, the
#' trace of its hat matrix (the path's `df`, which counts the intercept:
#' \eqn{1 + \sum_j s_j / (s_j + \lambda)} over the eigenvalues \eqn{s_j} of
#' the centered weighted \eqn{Z'Z}), plus one for \eqn{\sigma}, as mgcv's
#' `logLik.gam()` counts a penalized fit; as \eqn{\lambda \to 0} they tend
#' to [lm()]'s, the number of coefficients plus one. The deviance is the
#' weighted residual sum of squares, as [lm()]'s (one per response for a
#' matrix or factor response, whose log-likelihood is not defined here, as
#' for a multiple-response [lm()]).
#'
#' **GLMs.** The family's log-likelihood at the fit: binomial
#' \eqn{\sum_i w_i (y_i \log p_i + (1 - y_i) \log(1 - p_i))}, multinomial
#' \eqn{\sum_i w_i \log p_{i, y_i}}, Poisson \eqn{\sum_i w_i (y_i \log \mu_i
#' - \mu_i - \log y_i!)} (with \eqn{\log \Gamma(y_i + 1)} for
#' \eqn{\log y_i!}), as [glm()] gives them for integer weights. The
#' squared hinge loss is no likelihood, so its fits have none (an
#' `askrff_invalid_argument` error says so). The degrees of freedom are the
#' effective degrees of freedom of the penalized fit, \eqn{tr((H + \lambda
#' P)^{-1} H)} with \eqn{H} the Hessian of half the deviance at the fit's
#' coefficients (intercept included) and \eqn{P} the identity on the
#' feature coefficients and 0 on the intercept, which is \eqn{1 + \sum_j s_j
#' / (s_j + \lambda)} over the eigenvalues of its centered feature block:
#' mgcv's count for a penalized GLM, which tends to [glm()]'s number of
#' coefficients as \eqn{\lambda \to 0}. For \eqn{K} classes \eqn{H} is the
#' whole Hessian of the softmax, every pair of classes' block included;
#' \eqn{H + \lambda P} is singular along the shift of every intercept by
#' the same amount, which leaves the probabilities unchanged, and its
#' pseudo-inverse leaves that direction out, so the count tends to the
#' \eqn{(K - 1)(1 + D)} coefficients of the unpenalized model (as
#' `nnet::multinom()` counts them). The fit computes them once, from
#' \eqn{H} at its final coefficients (which the last Newton step over the
#' data takes for one predictor; for several classes one more pass takes
#' it), and keeps them with the covariance of [vcov.askrff_glm()], when the
#' \eqn{K(1 + D)} square matrix fits six times in the memory available.
#' A Cox fit's log-likelihood is the partial likelihood's and its degrees
#' of freedom \eqn{tr((H + \lambda I)^{-1} H)} without an intercept, from
#' the Hessian it takes after the fit for data in memory (see [rff_glm()]).
#'
#' @param object A fit of [rff_ridge()] or [rff_glm()].
#' @param ... Not used.
#' @return `logLik()`: an object of class `"logLik"`, a number with
#'   attributes `df` and `nobs`. `deviance()`: a number (for a ridge fit to
#'   a matrix or factor, one per response column). `nobs()`: the number of
#'   rows of positive weight.
#' @seealso [vcov.askrff_ridge()], [summary.askrff_ridge()].
#' @family models
#' @examples
#' x <- as.matrix(scale(datasets::trees[, c("Girth", "Height")]))
#' fit <- rff_ridge(x, datasets::trees$Volume, kernel = gaussian_kernel(1), n_features = 32, seed = 1)
#' logLik(fit)
#' AIC(fit)
#' BIC(fit)
#' glm_fit <- rff_glm(x, datasets::trees$Volume > 25, kernel = gaussian_kernel(1), n_features = 16,
#'                    lambda = 1, seed = 1)
#' c(deviance = deviance(glm_fit), nobs = nobs(glm_fit), AIC = AIC(glm_fit))
#' @name askrff_likelihood
#' @importFrom stats deviance logLik nobs vcov
NULL

#' @rdname askrff_likelihood
#' @export
logLik.askrff_ridge <- function(object, ...) {
  object <- validate_ridge(object, "object")
  check_no_dots(...)
  check_single_response(object, "logLik()", "have no joint likelihood here, as for lm(): fit a column alone for its own")
  n <- object$n
  rss <- object$rss[[1L]]
  value <- 0.5 * (ridge_log_weight(object) - n * (log(2 * pi) + 1 - log(n) + log(rss)))
  structure(value, df = ridge_df(object) + 1, nobs = n, class = "logLik")
}

# Refuses a ridge fit to several response columns (a matrix, or a factor's
# indicators) for the method `what`, saying what those columns `lack`.
check_single_response <- function(fit, what, lack) {
  if (fit$response$kind != "numeric") {
    fail("`%s` needs a fit to a numeric vector response; this fit's response has %d columns (%s), which %s.", what,
         length(fit$response$names), if (fit$response$kind == "factor") "one indicator per level" else "a numeric matrix",
         lack)
  }
}

# sum log w over the rows of positive weight: kept by the fit, or from the
# weights it keeps (none: all 1) for a fit of data in memory made before it
# kept the sum.
ridge_log_weight <- function(fit) {
  if (!is.null(fit$log_weight)) {
    if (!is_single_number(fit$log_weight) || !is.finite(fit$log_weight)) {
      fail("`object$log_weight` must be the finite sum of the logarithms of the positive weights, as rff_ridge() makes.",
           class = "invalid_object")
    }
    return(fit$log_weight)
  }
  if (is.null(fit$fitted)) {
    fail("This fit streamed its data and keeps no sum of the logarithms of its weights, which the log-likelihood needs; fit it again with this version of rff_ridge().")
  }
  w <- fit$weights
  if (is.null(w)) 0 else sum(log(w[w > 0]))
}

#' @rdname askrff_likelihood
#' @export
logLik.askrff_glm <- function(object, ...) {
  object <- validate_glm(object, "object")
  check_no_dots(...)
  kept <- glm_kept_likelihood(object, "logLik()")
  structure(kept$saturated - object$deviance / 2, df = if (is.null(kept$df)) NA_real_ else kept$df, nobs = object$n,
            class = "logLik")
}

# What the fit keeps of its likelihood, after checking that its family has
# one and the fit kept its degrees of freedom and covariance; `what` names
# the method that needs them.
glm_kept_likelihood <- function(fit, what) {
  traits <- model_family_traits(fit$family)
  kept <- fit$likelihood
  if (!traits$likelihood || (!is.null(kept) && is.null(kept$saturated))) {
    fail("`%s` needs a family with a likelihood; the \"%s\" family's deviance is a sum of %s losses, not twice a negative log-likelihood.",
         what, fit$family, traits$label)
  }
  if (is.null(kept)) {
    fail("This fit keeps no likelihood: it was made before rff_glm() kept one; fit it again.")
  }
  # a Cox fit's Hessian is taken after the fit, from data in memory
  # (cox_likelihood()): its log-likelihood is known without it
  if (is_cox_fit(fit) && !kept$hessian) {
    if (what == "logLik()") return(kept)
    fail("`%s` is not available for this Cox fit: it keeps no Hessian of its partial likelihood, which is taken for data in memory (not chunks) when its matrices fit in the memory available.",
         what)
  }
  if (!kept$hessian) {
    size <- ncol(fit$coefficients) * (nrow(fit$coefficients) + 1)
    fail("This fit keeps no Hessian at its coefficients: its %s x %s matrix (%s) did not fit in the memory available when it was fitted, so `%s` cannot be computed.",
         format_count(size), format_count(size), format_bytes(8 * size^2), what)
  }
  if (is.null(kept$covariance)) {
    fail("The penalized Hessian at the fit is not positive definite (no row has curvature left), so `%s` is undefined.", what)
  }
  kept
}

#' @rdname askrff_likelihood
#' @export
deviance.askrff_ridge <- function(object, ...) {
  object <- validate_ridge(object, "object")
  check_no_dots(...)
  if (object$response$kind == "numeric") unname(object$rss) else object$rss
}

#' @rdname askrff_likelihood
#' @export
deviance.askrff_glm <- function(object, ...) {
  object <- validate_glm(object, "object")
  check_no_dots(...)
  object$deviance
}

#' @rdname askrff_likelihood
#' @export
nobs.askrff_ridge <- function(object, ...) {
  object <- validate_ridge(object, "object")
  check_no_dots(...)
  object$n
}

#' @rdname askrff_likelihood
#' @export
nobs.askrff_glm <- function(object, ...) {
  object <- validate_glm(object, "object")
  check_no_dots(...)
  object$n
}

# What a GLM fit keeps of its likelihood, from the solver's result
# (glm_solve_path()) and the shift s of its features: the saturated model's
# log-likelihood (NULL for a family without one), whether the fit took the
# Hessian at its coefficients (`hessian`: not when it would not fit in
# memory), the effective degrees of freedom and the Laplace covariance (H +
# lambda P)^+ there on the unshifted features (NULL when not taken or
# undefined). The core's covariance is that of (b0_s, b), b0_s = b0 + s'b
# for each class, so C = A C_s A' with A = [1, -s'; 0, I] per class: each
# class's intercept row, then column, loses s' times its features'. For K
# classes that is a generalized inverse whose null space is no longer the
# intercepts' common shift u; projecting it off u, (I - uu') C (I - uu'),
# gives the pseudo-inverse again.
glm_likelihood <- function(solved, shift) {
  covariance <- solved$covariance
  if (!is.null(covariance)) {
    p <- length(shift) + 1L
    intercepts <- seq(1L, nrow(covariance), by = p)
    for (start in intercepts) {
      features <- start + seq_len(p - 1L)
      covariance[start, ] <- covariance[start, ] - drop(shift %*% covariance[features, , drop = FALSE])
    }
    for (start in intercepts) {
      features <- start + seq_len(p - 1L)
      covariance[, start] <- covariance[, start] - drop(covariance[, features, drop = FALSE] %*% shift)
    }
    if (length(intercepts) > 1L) {
      along <- rowSums(covariance[, intercepts, drop = FALSE]) / length(intercepts)  # C u / sqrt(K)
      covariance[, intercepts] <- covariance[, intercepts] - along
      covariance[intercepts, ] <- covariance[intercepts, ] - rep(along, each = length(intercepts))
      covariance[intercepts, intercepts] <- covariance[intercepts, intercepts] + mean(along[intercepts])
    }
    covariance <- (covariance + t(covariance)) / 2
  }
  known <- function(v) if (is.null(v) || is.na(v)) NULL else v
  list(saturated = known(solved$saturated), hessian = isTRUE(solved$hessian), df = known(solved$df),
       covariance = covariance)
}

# Checks the `likelihood` of a GLM fit with `classes` predictors of
# `coefficients` each (validate_glm()).
validate_glm_likelihood <- function(kept, classes, coefficients, where) {
  if (is.null(kept)) return(invisible())
  size <- classes * coefficients
  number <- function(v) is.null(v) || (is.double(v) && length(v) == 1L && !is.object(v) && is.finite(v))
  covariance <- if (is.list(kept)) kept$covariance
  if (!is.list(kept) || !number(kept$saturated) || !(isTRUE(kept$hessian) || isFALSE(kept$hessian)) ||
      !number(kept$df) || isTRUE(kept$df < 0) ||
      (!is.null(covariance) && (!is_matrix(covariance) || !is.double(covariance) || nrow(covariance) != size ||
                                ncol(covariance) != size || any(!is.finite(covariance))))) {
    fail("`%s` must be NULL or a list of the saturated model's log-likelihood `saturated`, whether the fit took its `hessian`, the nonnegative effective degrees of freedom `df` and the finite %d x %d `covariance` (each but `hessian` possibly NULL), as rff_glm() makes.",
         where, size, size)
  }
}
