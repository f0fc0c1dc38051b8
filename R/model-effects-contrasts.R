# The computations of rff_effects(): a fit's model of effects (its
# coefficients, covariance and link), each variable's contrasts (a
# derivative, or the predictions at two versions of the rows), and their
# estimates and delta-method variances a block of rows at a time.

# What rff_effects() reads of a fit: its map, coefficients, the link of
# the prediction asked for, the covariance of (intercept, coefficients) as
# a quadratic form, and the intervals' degrees of freedom.
effect_model <- function(fit, prediction) {
  fit <- one_predictor_fit(fit, "fit", "rff_effects()")
  if (inherits(fit, "askrff_glm")) {
    covariance <- glm_kept_likelihood(fit, "rff_effects()")$covariance
    if (!identical(dim(covariance), rep(nrow(fit$coefficients) + 1L, 2L)) || !all(is.finite(covariance))) {
      fail("The fit's covariance is not a finite matrix of one row per coefficient: `fit$likelihood` holds values no fit has; fit the model again with rff_glm().")
    }
    form <- function(g0, g) {
      g <- cbind(g0, g)
      rowSums((g %*% covariance) * g)
    }
    model <- list(fit = fit, family = if (prediction == "response") fit$family else "", form = form, df = Inf)
  } else {
    residual <- ridge_residual_variance(fit)
    lambda <- response_lambdas(fit)[[1L]]
    # sigma^2 g' (G + lambda I)^-1 g from the kept eigendecomposition; the
    # identity link never moves the intercept
    form <- function(g0, g) residual$sigma2[[1L]] * ridge_posterior_forms(g, fit$posterior, lambda)
    model <- list(fit = fit, family = "", form = form, df = residual$df[[1L]])
  }
  if (!inherits(fit$map, "rff_map") || !identical(unique(fit$map$parts$features), "trig")) {
    fail("rff_effects() needs a map of rff_map() with trigonometric features (a stationary kernel's); this fit's map is a %s.",
         class(fit$map)[1L])
  }
  c(model, list(map = fit$map, b0 = unname(fit$intercept[[1L]]), b = fit$coefficients[, 1L]))
}

# g' (G + lambda I)^-1 g of ridge_posterior.h for each row g, about 0: the
# eigenvectors' part and the prior's outside them.
ridge_posterior_forms <- function(g, posterior, lambda) {
  a <- g %*% posterior$vectors
  inside <- rowSums(a^2)
  drop(a^2 %*% (1 / (posterior$values + lambda))) + pmax(rowSums(g^2) - inside, 0) / lambda
}

# The inverse link's value and first two derivatives at eta.
link_derivatives <- function(family, eta) {
  if (family == "binomial") {
    mean <- stats::plogis(eta)
    first <- mean * (1 - mean)
    return(list(mean = mean, first = first, second = first * (1 - 2 * mean)))
  }
  mean <- exp(eta)
  list(mean = mean, first = mean, second = mean)
}

# A variable's contrasts: for a numeric one its derivative (the design's
# Jacobian) or the +1 difference; for a factor, character or logical each
# level against the first.
variable_contrasts <- function(fit, newdata, rows, name, column, type, offset) {
  value <- newdata[, column, drop = TRUE]
  if (is.numeric(value) && !is.object(value)) {
    if (type == "derivative") {
      jacobian <- design_jacobian(fit, newdata, rows, column, value, offset)
      moved <- which(colSums(jacobian != 0) > 0)
      return(list(list(term = name, contrast = "dY/dX", value = value, complete = rows$complete, kind = "derivative",
                       x = rows$x, offset = rows$offset, moved = moved, jacobian = jacobian[, moved, drop = FALSE])))
    }
    high <- counterfactual_rows(fit, newdata, column, value + 1, rows, offset)
    return(list(list(term = name, contrast = "+1", value = value, complete = rows$complete, kind = "difference", high = high,
                     low = list(x = rows$x, offset = rows$offset))))
  }
  levels <- if (is.logical(value)) c(FALSE, TRUE) else fit$design$xlevels[[name]]
  if (length(levels) < 2L) fail("`%s` must be numeric, or a factor, character or logical of the fit's formula.", name)
  set <- function(level) if (is.factor(value)) factor(rep(level, length(value)), levels = levels) else rep(level, length(value))
  low <- counterfactual_rows(fit, newdata, column, set(levels[[1L]]), rows, offset)
  lapply(levels[-1L], function(level) {
    list(term = name, contrast = sprintf("%s - %s", level, levels[[1L]]), value = rep(NA_real_, length(value)),
         complete = rows$complete, kind = "difference", high = counterfactual_rows(fit, newdata, column, set(level), rows, offset), low = low)
  })
}

# The complete rows' design (and offset) with the variable set to `value`.
counterfactual_rows <- function(fit, newdata, column, value, rows, offset) {
  changed <- newdata
  changed[, column] <- value
  moved <- ridge_newdata(fit, changed, offset, 1L)
  if (!all(moved$complete[rows$complete])) {
    fail("Setting `%s` to another value leaves rows of `newdata` the fit cannot score (a transformation undefined there?).",
         as.character(column))
  }
  keep <- match(which(rows$complete), which(moved$complete))
  list(x = moved$x[keep, , drop = FALSE], offset = if (!is.null(moved$offset)) moved$offset[keep, , drop = FALSE])
}

# The derivative of the complete rows' standardized design columns by the
# variable (rows by columns), by central differences of the design at
# steps of 1e-5 of the variable's size.
design_jacobian <- function(fit, newdata, rows, column, value, offset) {
  if (nrow(rows$x) == 0L) return(matrix(0, 0L, ncol(rows$x)))
  size <- max(abs(value[rows$complete]), 0)
  step <- 1e-5 * pmax(abs(value), if (size > 0) size else 1)
  moved <- function(sign) {
    shifted <- newdata
    shifted[, column] <- value + sign * step
    moved_rows <- ridge_newdata(fit, shifted, offset, 1L)
    if (!identical(moved_rows$complete, rows$complete)) {
      fail("Moving `%s` by a small step changes which rows of `newdata` the fit can score (a transformation undefined next to its values?).",
           as.character(column))
    }
    moved_rows$x
  }
  (moved(1) - moved(-1)) / (2 * step[rows$complete])
}

# One contrast's pointwise effects and their average, a block of rows at
# a time (blocks of about 4 million numbers per matrix).
contrast_effects <- function(contrast, model, se, level, n_threads) {
  n_complete <- sum(contrast$complete)
  estimate <- variance <- rep(NA_real_, n_complete)
  gradient <- numeric(1L + length(model$b))
  block <- max(1L, floor(2^22 / length(model$b)))
  for (start in seq(1L, by = block, length.out = ceiling(n_complete / block))) {
    index <- start:min(n_complete, start + block - 1L)
    part <- block_effects(model, contrast, index, n_threads)
    estimate[index] <- part$estimate
    if (se) variance[index] <- model$form(part$g0, part$g)
    gradient <- gradient + c(sum(part$g0), colSums(part$g))
  }
  if (!all(is.finite(estimate)) || !all(is.finite(gradient)) || (se && !all(is.finite(variance)))) {
    fail("The effects of `%s` overflow: the fit's coefficients or covariance hold values no fit has, or these rows lie far outside the data.",
         contrast$term)
  }
  average <- data.frame(term = contrast$term, contrast = contrast$contrast, estimate = NA_real_, std.error = NA_real_)
  if (n_complete > 0L) {
    gradient <- gradient / n_complete
    average$estimate <- mean(estimate)
    average$std.error <- sqrt(max(model$form(gradient[1L], matrix(gradient[-1L], 1L)), 0))
  }
  half <- -stats::qt((1 - level) / 2, model$df)
  average$conf.low <- average$estimate - half * average$std.error
  average$conf.high <- average$estimate + half * average$std.error
  n <- length(contrast$complete)
  rows <- data.frame(rowid = seq_len(n), term = rep(contrast$term, n), contrast = rep(contrast$contrast, n),
                     value = as.double(contrast$value), estimate = rep(NA_real_, n), std.error = rep(NA_real_, n))
  rows$estimate[contrast$complete] <- estimate
  rows$std.error[contrast$complete] <- sqrt(pmax(variance, 0))
  rows$conf.low <- rows$estimate - half * rows$std.error
  rows$conf.high <- rows$estimate + half * rows$std.error
  list(rows = rows, average = average)
}

# A block of complete rows' effects and their gradients in the intercept
# (g0) and the coefficients (g): on the linear predictor, g is the
# derivative features (or the features' difference) and g0 is 0; on the
# mean h(eta), the delta method's chain rule.
block_effects <- function(model, contrast, index, n_threads) {
  features <- function(side) map_side(model$map, side$x[index, , drop = FALSE], "left", n_threads)
  eta <- function(side, z) model$b0 + drop(z %*% model$b) + if (is.null(side$offset)) 0 else side$offset[index, 1L]
  if (contrast$kind == "derivative") {
    x <- contrast$x[index, , drop = FALSE]
    g <- if (length(contrast$moved) == 0L) matrix(0, length(index), length(model$b)) else {
      input <- core_input(model$map, x, "left", n_threads)
      core(.cpp_effect_features(input$map, input$x, contrast$moved, contrast$jacobian[index, , drop = FALSE], n_threads))
    }
    slope <- drop(g %*% model$b)
    if (model$family == "") return(list(estimate = slope, g0 = 0 * slope, g = g))
    z <- features(contrast)
    h <- link_derivatives(model$family, eta(contrast, z))
    return(list(estimate = h$first * slope, g0 = h$second * slope, g = (h$second * slope) * z + h$first * g))
  }
  high <- features(contrast$high)
  low <- features(contrast$low)
  if (model$family == "") {
    difference <- high - low
    return(list(estimate = drop(difference %*% model$b), g0 = numeric(length(index)), g = difference))
  }
  h_high <- link_derivatives(model$family, eta(contrast$high, high))
  h_low <- link_derivatives(model$family, eta(contrast$low, low))
  list(estimate = h_high$mean - h_low$mean, g0 = h_high$first - h_low$first, g = h_high$first * high - h_low$first * low)
}
