# The posterior uncertainty of rff_ridge() fits for predict(se.fit =,
# interval =): each response's sigma^2 and residual degrees of freedom, and
# the posterior variance at new rows at each response's lambda (see the help
# page of predict.askrff_ridge()).

# The residual degrees of freedom n - df at the chosen lambda (one per
# response with their own lambdas) and each response's estimate of sigma^2,
# RSS / (n - df).
ridge_residual_variance <- function(object) {
  df <- ridge_df(object)
  residual_df <- object$n - df
  if (!all(residual_df > 0)) {
    fail("The fit has no residual degrees of freedom (df = %.1f of n = %s), so sigma cannot be estimated.",
         max(df), format_count(object$n))
  }
  list(df = residual_df, sigma2 = object$rss / residual_df)
}

# Standard errors and intervals of the posterior, per response: for a
# numeric vector as predict.lm() gives them; for several responses the
# intervals as an array of rows, fit / lwr / upr and responses, and the
# standard errors as a matrix of rows by responses.
ridge_uncertainty <- function(object, rows, scores, se.fit, interval, level, n_threads) {
  residual <- ridge_residual_variance(object)
  posterior <- object$posterior
  lambdas <- response_lambdas(object)
  distinct <- unique(lambdas)
  se <- matrix(NA_real_, nrow(scores), ncol(scores), dimnames = dimnames(scores))
  if (nrow(rows$x) > 0L) {
    input <- core_input(object$map, rows$x, "left", n_threads)
    q <- core(.cpp_ridge_posterior(input$map, object$fun, input$x, posterior$vectors, posterior$values,
                                   posterior$z_mean, distinct, n_threads))
    variance <- 1 / posterior$weight + q[, match(lambdas, distinct), drop = FALSE]
    se[rows$complete, ] <- sqrt(sweep(variance, 2L, residual$sigma2, "*"))
    if (!all(is.finite(se[rows$complete, ]))) {
      fail("The standard errors overflow: `object$posterior` or `object$rss` hold values no fit has; fit the model again with rff_ridge().")
    }
  }
  several <- object$response$kind == "matrix"
  fit <- if (several) scores else stats::setNames(scores[, 1L], rownames(scores))
  if (interval != "none") {
    # the lower tail's quantile, negated: 1 - (1 - level) / 2 rounds to 1 (and
    # the quantile to Inf) for levels within 1e-16 of 1, as predict.lm avoids
    spread <- if (interval == "confidence") se else sqrt(sweep(se^2, 2L, residual$sigma2, "+"))
    half <- sweep(spread, 2L, -stats::qt((1 - level) / 2, residual$df), "*")
    if (several) {
      fit <- array(NA_real_, c(nrow(scores), 3L, ncol(scores)),
                   list(rownames(scores), c("fit", "lwr", "upr"), colnames(scores)))
      fit[, 1L, ] <- scores
      fit[, 2L, ] <- scores - half
      fit[, 3L, ] <- scores + half
    } else {
      fit <- cbind(fit = fit, lwr = fit - half[, 1L], upr = fit + half[, 1L])
    }
  }
  if (!se.fit) return(fit)
  if (!several) {
    return(list(fit = fit, se.fit = stats::setNames(se[, 1L], rownames(scores)), df = residual$df,
                residual.scale = sqrt(residual$sigma2[[1L]])))
  }
  names <- object$response$names
  list(fit = fit, se.fit = se, df = stats::setNames(rep_len(residual$df, length(names)), names),
       residual.scale = stats::setNames(sqrt(residual$sigma2), names))
}
