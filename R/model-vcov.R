# vcov() of rff_ridge() and rff_glm() fits: the posterior covariance of
# their coefficients.

#' Covariance of the coefficients of a fit on random features
#'
#' The posterior covariance matrix of the intercept and the feature
#' coefficients, named as [coef()] names them.
#'
#' **Ridge regression.** The ridge fit is the posterior mean of the Bayesian
#' linear model of [predict.askrff_ridge()], whose posterior covariance of
#' the feature coefficients is \eqn{\sigma^2 (G + \lambda I)^{-1}}, with
#' \eqn{G} the centered weighted \eqn{Z'Z}, and of the intercept
#' \eqn{\sigma^2 (1 / \sum_i w_i + \bar z' (G + \lambda I)^{-1} \bar z)}
#' (covariance \eqn{-\sigma^2 (G + \lambda I)^{-1} \bar z} with the
#' features'), \eqn{\bar z} the weighted mean of the features and
#' \eqn{\sigma^2 = RSS / (n - df)} as for `predict()`; its diagonal gives
#' `tidy()`'s standard errors. It is computed from the eigendecomposition the
#' fit keeps, with no pass over the data. As \eqn{\lambda \to 0} (with fewer
#' features than rows) it tends to [vcov.lm()]'s on the features.
#'
#' **GLMs.** The inverse of the penalized Hessian at the fit, \eqn{(H +
#' \lambda P)^{-1}} (\eqn{H} the Hessian of half the deviance, \eqn{P} the
#' identity on the feature coefficients and 0 on the intercept): the
#' covariance of the Laplace approximation to the posterior under the prior
#' \eqn{b \sim N(0, I / \lambda)}, as mgcv's `Vp`. It tends to [vcov.glm()]'s
#' as \eqn{\lambda \to 0}. For \eqn{K} classes the matrix is the
#' pseudo-inverse, which leaves out the common shift of the intercepts (the
#' intercepts' covariance is that of their deviations from their mean);
#' rows and columns are named `class:term`, class after class. A Cox fit
#' has no intercept: its matrix is the feature coefficients' alone, from
#' the partial likelihood's Hessian (for data in memory; see [rff_glm()]).
#' The squared hinge loss is no likelihood, so its fits have no such
#' covariance.
#'
#' The matrix has \eqn{K(1 + D)} rows and columns for \eqn{D} feature
#' columns: 2 MB for 512, 134 MB for 4,096. A GLM fit computes it once, at
#' the end of the fit, and keeps it (when six such matrices fit in the
#' memory available; see [askrff_likelihood]); a ridge fit's is computed from the
#' eigendecomposition it keeps. A matrix that does not fit in the memory
#' available is refused (an `askrff_too_large` error), and one over 1 GB
#' warns.
#'
#' @param object A fit of [rff_ridge()] (to a numeric vector) or [rff_glm()].
#' @param ... Not used.
#' @return A symmetric matrix with one row and column per coefficient.
#' @seealso [askrff_likelihood] for the log-likelihood and degrees of freedom.
#' @family models
#' @examples
#' x <- as.matrix(scale(datasets::trees[, c("Girth", "Height")]))
#' fit <- rff_ridge(x, datasets::trees$Volume, kernel = gaussian_kernel(1), n_features = 8, seed = 1)
#' sqrt(diag(vcov(fit)))[1:4]
#' @export
vcov.askrff_ridge <- function(object, ...) {
  object <- validate_ridge(object, "object")
  check_no_dots(...)
  check_single_response(object, "vcov()", "have a covariance matrix each: fit a column alone for its vcov()")
  posterior <- object$posterior
  size <- nrow(posterior$vectors) + 1
  check_covariance_size(size)
  sigma2 <- ridge_residual_variance(object)$sigma2[[1L]]
  v <- posterior$vectors
  inverse <- tcrossprod(v %*% diag(1 / (posterior$values + object$lambda), ncol(v)), v)
  if (ncol(v) < nrow(v)) {
    # the directions outside the eigenvectors' span have no curvature but
    # the prior's
    inverse <- inverse + (diag(nrow(v)) - tcrossprod(v)) / object$lambda
  }
  m <- posterior$z_mean
  cross <- -drop(inverse %*% m)
  covariance <- sigma2 * rbind(c(1 / posterior$weight - sum(cross * m), cross), cbind(cross, inverse))
  if (!all(is.finite(covariance))) {
    fail("The covariance overflows: `object$posterior` or `object$rss` hold values no fit has; fit the model again with rff_ridge().")
  }
  names <- c("(Intercept)", rownames(object$coefficients))
  dimnames(covariance) <- list(names, names)
  covariance
}

#' @rdname vcov.askrff_ridge
#' @export
vcov.askrff_glm <- function(object, ...) {
  object <- validate_glm(object, "object")
  check_no_dots(...)
  covariance <- glm_kept_likelihood(object, "vcov()")$covariance
  check_covariance_size(nrow(covariance))
  classes <- ncol(object$coefficients)
  terms <- c(if (!is_cox_fit(object)) "(Intercept)", rownames(object$coefficients))
  names <- if (classes > 1L) paste(rep(colnames(object$coefficients), each = length(terms)), terms, sep = ":") else terms
  dimnames(covariance) <- list(names, names)
  covariance
}

# Refuses a covariance matrix of size x size doubles that does not fit in
# memory beside its intermediates, and warns of one over 1 GB.
check_covariance_size <- function(size) {
  bytes <- check_output_size(size, size, "The covariance matrix of `vcov()`", extra = 3 * 8 * as.double(size)^2)
  if (8 * as.double(size)^2 > 2^30) {
    warn("`vcov()` returns a %s x %s matrix (%s).", format_count(size), format_count(size),
         format_bytes(8 * as.double(size)^2))
  }
  invisible(bytes)
}
