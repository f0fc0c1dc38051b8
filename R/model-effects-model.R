# What rff_effects() reads of a fit (effect_model()): its coefficients,
# the covariance behind the standard errors (a ridge fit's posterior or
# sampling covariance, a GLM's Laplace posterior) and the inverse link's
# derivatives for a GLM's response scale.

# What rff_effects() reads of a fit: its map and coefficients, the link of
# the prediction asked for, the intervals' degrees of freedom, and the
# covariance V of (intercept, coefficients) (`vcov`) as the variance of an
# average gradient (c0, s) and, for the pointwise variances (`se`), as
# columns F with each row's variance c0^2 V00 + 2 c0 w'V_b0 + |F'w|^2 from
# the projections of its gradient w on (V_b0, F).
effect_model <- function(fit, prediction, se, vcov) {
  fit <- one_predictor_fit(fit, "fit", "rff_effects()")
  if (!inherits(fit$map, "rff_map") || !identical(unique(fit$map$parts$features), "trig")) {
    fail("rff_effects() needs a map of rff_map() with trigonometric features (a stationary kernel's); this fit's map is %s.",
         if (inherits(fit$map, "rff_map")) sprintf("one of \"%s\" features", feature_kind(fit$map)) else
           sprintf("a %s", class(fit$map)[1L]))
  }
  model <- list(fit = fit, map = fit$map, b0 = unname(fit$intercept[[1L]]), b = unname(fit$coefficients[, 1L]))
  if (inherits(fit, "askrff_glm")) {
    if (vcov == "sampling") {
      fail("`vcov = \"sampling\"` is for ridge fits; a GLM's effects take the covariance of its Laplace posterior (`vcov = \"posterior\"`).")
    }
    covariance <- glm_kept_likelihood(fit, "rff_effects()")$covariance
    if (!identical(dim(covariance), rep(length(model$b) + 1L, 2L)) || !all(is.finite(covariance))) {
      fail("The fit's covariance is not a finite matrix of one row per coefficient: `fit$likelihood` holds values no fit has; fit the model again with rff_glm().")
    }
    upper <- if (se) tryCatch(chol(covariance[-1L, -1L]), error = function(e) NULL)
    if (se && is.null(upper)) fail("The fit's covariance is not positive definite: `fit$likelihood` holds values no fit has.")
    return(c(model, list(
      family = if (prediction == "response") fit$family else "", df = Inf,
      columns = if (se) cbind(covariance[-1L, 1L], t(upper)),
      pointwise = function(c0, p) c0^2 * covariance[1L, 1L] + 2 * c0 * p[, 1L] + rowSums(p[, -1L, drop = FALSE]^2),
      average = function(c0, s) sum(c(c0, s) * (covariance %*% c(c0, s))))))
  }
  c(model, list(family = ""), ridge_effect_covariance(fit, se, vcov))
}

# The ridge coefficients' covariance as effect_model() reads it, from the
# kept eigendecomposition G = V diag(d) V' (the intercept does not move:
# the identity link): the posterior's sigma^2 (G + lambda I)^-1, weights
# 1 / (d + lambda) and 1 / lambda outside V's span; or the estimate's
# sampling covariance given the smoothing, sigma^2 (G + lambda I)^-1 G
# (G + lambda I)^-1, weights d / (d + lambda)^2 and 0 outside.
ridge_effect_covariance <- function(fit, se, vcov) {
  residual <- ridge_residual_variance(fit)
  sigma2 <- residual$sigma2[[1L]]
  lambda <- response_lambdas(fit)[[1L]]
  values <- fit$posterior$values
  vectors <- fit$posterior$vectors
  weights <- if (vcov == "posterior") 1 / (values + lambda) else values / (values + lambda)^2
  outside <- if (vcov == "posterior" && ncol(vectors) < nrow(vectors)) 1 / lambda else 0
  list(df = residual$df[[1L]],
       columns = if (se) cbind(0, sqrt(sigma2) * ridge_factor(vectors, weights, outside)),
       pointwise = function(c0, p) rowSums(p[, -1L, drop = FALSE]^2),
       average = function(c0, s) {
         a <- drop(crossprod(vectors, s))
         sigma2 * (sum(a^2 * weights) + max(sum(s^2) - sum(a^2), 0) * outside)
       })
}

# F with F F' = V diag(weights) V' + outside (I - V V'): the eigenvectors
# times the square roots of their weights, and an orthonormal complement
# of their span times that of `outside` (when it is not 0).
ridge_factor <- function(vectors, weights, outside) {
  inside <- sweep(vectors, 2L, sqrt(weights), "*")
  if (outside == 0) return(inside)
  complement <- qr.Q(qr(vectors), complete = TRUE)[, -seq_len(ncol(vectors)), drop = FALSE]
  cbind(inside, complement * sqrt(outside))
}

# The inverse link's value and first two derivatives at eta, refused
# where they overflow.
link_derivatives <- function(family, eta) {
  derivatives <- inverse_link_derivatives(family, eta)
  if (!all(is.finite(unlist(derivatives)))) {
    fail("The fit's mean overflows at these rows (linear predictors up to %s): the rows lie far outside the data, or the fit's coefficients hold values no fit has.",
         format(max(eta), digits = 3))
  }
  derivatives
}

inverse_link_derivatives <- function(family, eta) {
  if (family == "binomial") {
    mean <- stats::plogis(eta)
    first <- mean * (1 - mean)
    return(list(mean = mean, first = first, second = first * (1 - 2 * mean)))
  }
  mean <- exp(eta)
  list(mean = mean, first = mean, second = mean)
}
