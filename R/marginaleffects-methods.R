# The methods marginaleffects needs for rff_ridge() fits (its "Extensions"
# vignette: coefficients, setting them, their covariance, predictions), so
# that slopes(), avg_slopes(), predictions() and comparisons() run on them
# and agree with rff_effects(). marginaleffects is a Suggests; the methods
# are registered when it loads, and .onLoad() adds the class to its
# option `marginaleffects_model_classes`.

# The coefficients: the intercept, then one per feature column.
ridge_coefficient_vector <- function(model) {
  fit <- validate_ridge(model, "model")
  if (fit$response$kind != "numeric") {
    fail("marginaleffects takes fits to one numeric response; this fit's response is a %s.",
         response_text(fit$response))
  }
  c(`(Intercept)` = unname(fit$intercept[[1L]]),
    stats::setNames(fit$coefficients[, 1L], paste0("z", seq_len(nrow(fit$coefficients)))))
}

#' Methods for marginaleffects
#'
#' With these methods, `marginaleffects::slopes()`, `avg_slopes()`,
#' `predictions()`, `comparisons()` and their relatives take [rff_ridge()]
#' fits to one numeric response, with `newdata` given (the fits keep no
#' training rows). The coefficients are the intercept and one per feature
#' column; their covariance is the ridge posterior's that
#' `predict(se.fit = TRUE)` reads (sigma^2 times (G + lambda I)^-1 for the
#' features' coefficients, G their centred weighted cross-products, and the
#' intercept's terms through the features' mean), so the delta method's
#' standard errors are those of [rff_effects()] for the same effects. The
#' delta method there takes one prediction per coefficient: with D feature
#' columns, D + 1 passes over `newdata`; [rff_effects()] takes one.
#'
#' @param model A fit of [rff_ridge()] to one numeric response.
#' @param coefs The coefficients, as `get_coef()` gives them.
#' @param newdata The rows to predict.
#' @param ... Not used.
#' @return `get_coef()` a named vector, `set_coef()` the fit with the
#'   coefficients, `get_vcov()` their covariance matrix, `get_predict()` a
#'   data frame of `rowid` and `estimate`.
#' @name askrff-marginaleffects
#' @keywords internal
NULL

#' @rdname askrff-marginaleffects
#' @exportS3Method marginaleffects::get_coef
get_coef.askrff_ridge <- function(model, ...) ridge_coefficient_vector(model)

#' @rdname askrff-marginaleffects
#' @exportS3Method marginaleffects::set_coef
set_coef.askrff_ridge <- function(model, coefs, ...) {
  current <- ridge_coefficient_vector(model)
  if (!is.numeric(coefs) || length(coefs) != length(current) || !all(is.finite(coefs))) {
    fail("`coefs` must be %d finite numbers: the intercept and one per feature column.", length(current))
  }
  model$intercept[[1L]] <- coefs[[1L]]
  model$coefficients[, 1L] <- coefs[-1L]
  model
}

#' @rdname askrff-marginaleffects
#' @exportS3Method marginaleffects::get_vcov
get_vcov.askrff_ridge <- function(model, ...) {
  names <- names(ridge_coefficient_vector(model))
  fit <- validate_ridge(model, "model")
  sigma2 <- ridge_residual_variance(fit)$sigma2[[1L]]
  posterior <- fit$posterior
  lambda <- response_lambdas(fit)[[1L]]
  vectors <- posterior$vectors
  # (G + lambda I)^-1: the eigenvectors' part and the prior's outside them
  inverse <- vectors %*% (t(vectors) / (posterior$values + lambda)) + (diag(nrow(vectors)) - tcrossprod(vectors)) / lambda
  # the intercept b0 = c - m'b, c (the centred fit's) apart from b
  m_inverse <- drop(crossprod(posterior$z_mean, inverse))
  out <- sigma2 * rbind(c(1 / posterior$weight + sum(m_inverse * posterior$z_mean), -m_inverse),
                        cbind(-m_inverse, inverse))
  if (!all(is.finite(out))) {
    fail("The coefficients' covariance overflows: `model$posterior` or `model$rss` hold values no fit has; fit the model again with rff_ridge().")
  }
  dimnames(out) <- list(names, names)
  out
}

#' @rdname askrff-marginaleffects
#' @exportS3Method marginaleffects::get_predict
get_predict.askrff_ridge <- function(model, newdata, ...) {
  estimate <- unname(predict.askrff_ridge(validate_ridge(model, "model"), newdata))
  rowid <- if (is.data.frame(newdata) && "rowid" %in% names(newdata)) newdata$rowid else seq_along(estimate)
  data.frame(rowid = rowid, estimate = estimate)
}

# Tells marginaleffects that it may take askrff's fits (its option, read
# when it runs; set whether or not it is installed).
declare_marginaleffects_classes <- function() {
  options(marginaleffects_model_classes = union(getOption("marginaleffects_model_classes"), "askrff_ridge"))
}
