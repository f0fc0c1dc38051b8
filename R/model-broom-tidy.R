# broom's tidy() and glance() for rff_ridge() and rff_glm() fits (their help
# page and augment() are in R/model-broom-augment.R).

#' @rdname askrff_tidiers
#' @exportS3Method generics::tidy
tidy.askrff_ridge <- function(x, conf.int = FALSE, conf.level = 0.95, ...) {
  x <- validate_ridge(x, "x")
  check_no_dots(...)
  check_flag(conf.int, "conf.int")
  check_conf_level(conf.level)
  require_suggested("tibble", "`tidy()` of a random-feature fit")
  estimate <- rbind(`(Intercept)` = x$intercept, x$coefficients)
  out <- tidy_columns(x$response$kind, x$response$names, estimate)
  if (x$response$kind == "factor") {
    if (conf.int) fail("`conf.int` must be FALSE for a fit to a factor: its indicator columns have no standard errors.")
    return(tibble::as_tibble(out))
  }
  residual <- ridge_residual_variance(x)
  # each response at its own lambda
  lambdas <- response_lambdas(x)
  distinct <- unique(lambdas)
  variances <- vapply(distinct, function(l) posterior_variances(x$posterior, l), numeric(nrow(estimate)))
  se <- sqrt(sweep(matrix(variances, nrow(estimate))[, match(lambdas, distinct), drop = FALSE], 2L, residual$sigma2, "*"))
  if (!all(is.finite(se))) {
    fail("The standard errors overflow: `x$posterior` or `x$rss` hold values no fit has; fit the model again with rff_ridge().")
  }
  out$std.error <- as.vector(se)
  if (conf.int) {
    quantiles <- stats::qt((1 - conf.level) / 2, rep_len(residual$df, ncol(se)), lower.tail = FALSE)
    half <- rep(quantiles, each = nrow(se)) * out$std.error
    out$conf.low <- out$estimate - half
    out$conf.high <- out$estimate + half
  }
  tibble::as_tibble(out)
}

#' @rdname askrff_tidiers
#' @exportS3Method generics::tidy
tidy.askrff_glm <- function(x, ...) {
  x <- validate_glm(x, "x")
  check_no_dots(...)
  require_suggested("tibble", "`tidy()` of a random-feature fit")
  # a Cox model has no intercept
  estimate <- if (is_cox_fit(x)) x$coefficients else rbind(`(Intercept)` = x$intercept, x$coefficients)
  if (ncol(estimate) == 1L) return(tibble::as_tibble(tidy_columns("numeric", NULL, estimate)))
  # several classes lead with the class, several levels with tau
  if (is.null(x$tau)) return(tibble::as_tibble(tidy_columns("factor", x$response$levels, estimate)))
  tibble::as_tibble(c(list(tau = rep(x$tau, each = nrow(estimate))), tidy_columns("numeric", NULL, estimate)))
}

# The columns term and estimate of a coefficient matrix (terms by responses),
# a response's terms after another's, led by the `response` (several
# numeric responses) or `class` (levels) each row belongs to.
tidy_columns <- function(kind, names, estimate) {
  out <- list(term = rep(rownames(estimate), ncol(estimate)), estimate = as.vector(estimate))
  if (kind == "numeric") return(out)
  lead <- stats::setNames(list(rep(names, each = nrow(estimate))), if (kind == "factor") "class" else "response")
  c(lead, out)
}

# The posterior variances of the intercept and of each feature coefficient
# in units of sigma^2: 1 / sum w + q(0) and the diagonal of (G + lambda I)^-1,
# with q and the part outside the eigenvectors' span as in
# src/core/models/ridge_posterior.h (for the unit vectors e_j, a = V[j, ]).
posterior_variances <- function(posterior, lambda) {
  v <- posterior$vectors
  inverse <- 1 / (posterior$values + lambda)
  within <- drop(v^2 %*% inverse)
  a <- drop(crossprod(v, posterior$z_mean))
  intercept <- 1 / posterior$weight + sum(a^2 * inverse)
  if (ncol(v) < nrow(v)) {
    # rounding may leave |e_j|^2 - |a|^2 slightly negative
    within <- within + pmax(1 - rowSums(v^2), 0) / lambda
    intercept <- intercept + max(sum(posterior$z_mean^2) - sum(a^2), 0) / lambda
  }
  c(intercept, within)
}

check_conf_level <- function(level) {
  if (!is_single_number(level) || !(level > 0 && level < 1)) fail("`conf.level` must be a number between 0 and 1.")
}

#' @rdname askrff_tidiers
#' @exportS3Method generics::glance
glance.askrff_ridge <- function(x, ...) {
  x <- validate_ridge(x, "x")
  check_no_dots(...)
  require_suggested("tibble", "`glance()` of a random-feature fit")
  chosen <- ridge_chosen_rows(x)
  residual <- ridge_residual_variance(x)
  # with one lambda per response, a row each; else one row, sigma pooled
  each <- per_response_lambda(x)
  sigma <- if (each) sqrt(x$rss / residual$df) else sqrt(sum(x$rss) / (length(x$rss) * residual$df))
  if (!all(is.finite(sigma))) {
    fail("The residual scale overflows: `x$rss` or `x$path` hold values no fit has; fit the model again with rff_ridge().")
  }
  criteria <- x$path[chosen, intersect(c("gcv", "evidence", "loo"), names(x$path)), drop = FALSE]
  tibble::as_tibble(c(if (each) list(response = x$response$names),
                      list(lambda = unname(x$lambda), df = x$path$df[chosen], criterion = x$criterion), as.list(criteria),
                      list(sigma = unname(sigma), deviance = if (each) unname(x$rss) else sum(x$rss),
                           df.residual = residual$df, nobs = x$n, n_features = nrow(x$coefficients))))
}

#' @rdname askrff_tidiers
#' @exportS3Method generics::glance
glance.askrff_glm <- function(x, ...) {
  x <- validate_glm(x, "x")
  check_no_dots(...)
  require_suggested("tibble", "`glance()` of a random-feature fit")
  chosen <- which(x$path$lambda == x$lambda)[1L]
  cv <- if ("cv" %in% names(x$path)) list(cv = x$path$cv[chosen], cv_se = x$path$cv_se[chosen], nfolds = x$nfolds)
  tibble::as_tibble(c(list(lambda = x$lambda, family = x$family, deviance = x$deviance,
                           null.deviance = x$null_deviance), cv,
                      list(converged = x$path$converged[chosen], nobs = x$n, n_features = nrow(x$coefficients)),
                      # a Cox fit's concordance on the rows fitted
                      if (is_cox_fit(x)) list(concordance = if (is.null(x$concordance)) NA_real_ else x$concordance)))
}
