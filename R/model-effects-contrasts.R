# The computations of rff_effects(): a fit's model of effects (its
# coefficients, covariance and link), each variable's contrasts (a
# derivative, or the predictions at two versions of the rows), and their
# estimates and delta-method variances a block of rows at a time.

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
    return(list(list(term = name, contrast = "+1", value = value, complete = rows$complete, kind = "difference",
                     high = high,
                     low = list(x = rows$x, offset = rows$offset))))
  }
  levels <- if (is.logical(value)) c(FALSE, TRUE) else fit$design$xlevels[[name]]
  if (length(levels) < 2L) fail("`%s` must be numeric, or a factor, character or logical of the fit's formula.", name)
  set <- function(level) {
    if (is.factor(value)) factor(rep(level, length(value)), levels = levels) else rep(level, length(value))
  }
  low <- counterfactual_rows(fit, newdata, column, set(levels[[1L]]), rows, offset)
  lapply(levels[-1L], function(level) {
    list(term = name, contrast = sprintf("%s - %s", level, levels[[1L]]), value = rep(NA_real_, length(value)),
         complete = rows$complete, kind = "difference",
         high = counterfactual_rows(fit, newdata, column, set(level), rows, offset), low = low)
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
# variable (rows by columns): central differences of the design at steps
# of 1e-5 of each value (at least of a thousandth of the largest) and at
# half those, combined by Richardson's extrapolation (error of the fourth
# order in the step). Steps relative to each value keep a transformation
# such as log() in its domain where the values span orders of magnitude.
design_jacobian <- function(fit, newdata, rows, column, value, offset) {
  if (nrow(rows$x) == 0L) return(matrix(0, 0L, ncol(rows$x)))
  size <- max(abs(value[rows$complete]), 0)
  step <- 1e-5 * pmax(abs(value), if (size > 0) 1e-3 * size else 1)
  moved <- function(delta) {
    shifted <- newdata
    shifted[, column] <- value + delta
    moved_rows <- ridge_newdata(fit, shifted, offset, 1L)
    if (!identical(moved_rows$complete, rows$complete)) {
      fail("Moving `%s` by a small step changes which rows of `newdata` the fit can score (a transformation undefined next to its values?).",
           as.character(column))
    }
    moved_rows$x
  }
  central <- function(h) (moved(h) - moved(-h)) / (2 * h[rows$complete])
  (4 * central(step / 2) - central(step)) / 3
}

# A pass of .cpp_effect_pass over the rows of x: the weighted sum of the
# components' features (blocks of x's columns, coordinates: 0 for the
# features, else their derivative), its products with g reduced chunk by
# chunk by reduce(projections, rows) to a matrix of those rows, and its
# sums over the rows weighted by 1 and by each column of a. Chunks bound
# the projections to 4 million numbers.
effect_pass <- function(model, x, blocks, coordinates, weights, g, reduce, n_threads, a = matrix(0, nrow(x), 0L)) {
  n <- nrow(x)
  chunk <- max(1L, floor(2^22 / max(ncol(g), 1L)))
  parts <- list()
  sums <- matrix(0, length(model$b), 1L + ncol(a))
  for (first in seq(1L, by = chunk, length.out = max(1L, ceiling(n / chunk)))) {
    rows <- seq.int(first, length.out = min(chunk, n - first + 1L))
    pass <- core(.cpp_effect_pass(model$map, x[rows, , drop = FALSE], as.integer(blocks), as.integer(coordinates),
                                  weights[rows, , drop = FALSE], g, a[rows, , drop = FALSE], n_threads))
    parts[[length(parts) + 1L]] <- reduce(pass$projections, rows)
    sums <- sums + pass$sums
  }
  list(values = do.call(rbind, parts), sums = sums)
}

# The derivatives of all the numeric variables asked for, from passes over
# the features that they share. The map's columns are the cosines of its
# frequencies, then their sines; d/dx_c of a cos(x'w_f + p) is -w_fc times
# the sine's column and d/dx_c of a sin(x'w_f + p) is w_fc times the
# cosine's, so the derivative features along c times b are z'T_c(b), with
# T_c(b) = (w_c b_sin, -w_c b_cos), and their sum over the rows weighted
# by J is U_c(Z'J), with U_c(v) = (-w_c v_sin, w_c v_cos). One pass gives
# every variable's estimates (Z T_c(b) for every coordinate c moved,
# combined by the rows' Jacobians) and, on the linear predictor, the sums
# of their gradients (Z'J); on the mean, a second pass the sums weighted
# by the inverse link's slopes. Each variable's pointwise variances, a
# quadratic form per row, take a pass of its own (`se`).
derivative_gradients <- function(model, contrasts, se, n_threads) {
  omega <- model$map$omega
  if (!is.matrix(omega) || length(model$b) != 2L * ncol(omega)) {
    fail("The fit's map has not two feature columns per frequency: `fit$map` holds values no fit has.")
  }
  sines <- ncol(omega) + seq_len(ncol(omega))
  cosines <- seq_len(ncol(omega))
  along <- function(v, c) c(omega[c, ] * v[sines], -omega[c, ] * v[cosines])
  gather <- function(v, c) c(-omega[c, ] * v[sines], omega[c, ] * v[cosines])
  x <- contrasts[[1L]]$x
  coordinates <- sort(unique(unlist(lapply(contrasts, `[[`, "moved"))))
  # the columns of the weights a: each contrast's Jacobian columns in turn
  owner <- rep(seq_along(contrasts), vapply(contrasts, function(k) length(k$moved), 1L))
  jacobians <- do.call(cbind, c(list(matrix(0, nrow(x), 0L)), lapply(contrasts, `[[`, "jacobian")))
  moved <- unlist(lapply(contrasts, `[[`, "moved"))
  response <- model$family != ""
  g <- cbind(model$b, vapply(coordinates, function(c) along(model$b, c), numeric(length(model$b))))
  first <- effect_pass(model, x, 1L, 0L, matrix(1, nrow(x), 1L), g, function(p, rows) p, n_threads,
                       a = if (response) matrix(0, nrow(x), 0L) else jacobians)
  slopes <- lapply(seq_along(contrasts), function(k) {
    columns <- which(owner == k)
    rowSums(jacobians[, columns, drop = FALSE] * first$values[, 1L + match(moved[columns], coordinates), drop = FALSE])
  })
  gathered <- function(sums) {
    lapply(seq_along(contrasts), function(k) {
      Reduce(`+`, lapply(which(owner == k), function(j) gather(sums[, 1L + j], moved[j])), numeric(length(model$b)))
    })
  }
  if (!response) {
    sums <- gathered(first$sums)
    return(lapply(seq_along(contrasts), function(k) {
      list(estimate = slopes[[k]], variance = derivative_variance(model, contrasts[[k]], se, 0, 1, n_threads), c0 = 0,
           sum = sums[[k]])
    }))
  }
  eta <- model$b0 + first$values[, 1L] + if (is.null(contrasts[[1L]]$offset)) 0 else contrasts[[1L]]$offset[, 1L]
  h <- link_derivatives(model$family, eta)
  curvature <- do.call(cbind, lapply(slopes, `*`, h$second))
  second <- effect_pass(model, x, 1L, 0L, matrix(1, nrow(x), 1L), matrix(0, length(model$b), 0L),
                        function(p, rows) matrix(0, nrow(p), 2L), n_threads, a = cbind(h$first * jacobians, curvature))
  sums <- gathered(second$sums[, seq_len(1L + ncol(jacobians)), drop = FALSE])
  lapply(seq_along(contrasts), function(k) {
    c0 <- curvature[, k]
    list(estimate = h$first * slopes[[k]],
         variance = derivative_variance(model, contrasts[[k]], se, c0, h$first, n_threads),
         c0 = sum(c0), sum = sums[[k]] + second$sums[, 1L + ncol(jacobians) + k])
  })
}

# One variable's pointwise variances (NA without `se`): the gradient of
# each row's effect is its derivative features times `slope` (the inverse
# link's, or 1) plus its features times c0, projected on the covariance's
# columns by a pass of that weighted sum.
derivative_variance <- function(model, contrast, se, c0, slope, n_threads) {
  n <- nrow(contrast$x)
  if (!se) return(rep(NA_real_, n))
  if (length(contrast$moved) == 0L) return(numeric(n))
  c0 <- rep_len(c0, n)
  weights <- cbind(slope * contrast$jacobian, c0)
  effect_pass(model, contrast$x, rep(1L, length(contrast$moved) + 1L), c(contrast$moved, 0L), weights, model$columns,
              function(p, rows) cbind(0, model$pointwise(c0[rows], p)), n_threads)$values[, 2L]
}

# A difference's estimates, pointwise variances (NA without `se`) and the
# sums of its gradients in the intercept and the coefficients: on the
# linear predictor, the features' difference and 0; on the mean h(eta),
# the delta method's chain rule, weighted by the slopes at both versions.
difference_gradients <- function(model, contrast, se, n_threads) {
  x <- cbind(contrast$high$x, contrast$low$x)
  variance <- function(p, rows, c0) if (se) model$pointwise(c0[rows], p) else rep(NA_real_, nrow(p))
  columns <- if (se) model$columns else matrix(0, length(model$b), 0L)
  if (model$family == "") {
    pass <- effect_pass(model, x, 1:2, c(0L, 0L), matrix(rep(c(1, -1), each = nrow(x)), nrow(x), 2L),
                        cbind(model$b, columns),
                        function(p, rows) cbind(p[, 1L], variance(p[, -1L, drop = FALSE], rows, numeric(nrow(x)))),
                        n_threads)
    return(list(estimate = pass$values[, 1L], variance = pass$values[, 2L], c0 = 0, sum = pass$sums[, 1L]))
  }
  predictor <- function(side) {
    values <- effect_pass(model, side$x, 1L, 0L, matrix(1, nrow(side$x), 1L), matrix(model$b),
                          function(p, rows) cbind(p, 0), n_threads)$values[, 1L]
    model$b0 + values + if (is.null(side$offset)) 0 else side$offset[, 1L]
  }
  h_high <- link_derivatives(model$family, predictor(contrast$high))
  h_low <- link_derivatives(model$family, predictor(contrast$low))
  c0 <- h_high$first - h_low$first
  pass <- effect_pass(model, x, 1:2, c(0L, 0L), cbind(h_high$first, -h_low$first), columns,
                      function(p, rows) cbind(numeric(nrow(p)), variance(p, rows, c0)), n_threads)
  list(estimate = h_high$mean - h_low$mean, variance = pass$values[, 2L], c0 = sum(c0), sum = pass$sums[, 1L])
}

# One contrast's pointwise effects and their average, from its gradients.
contrast_effects <- function(contrast, part, model, se, level) {
  n_complete <- sum(contrast$complete)
  if (!all(is.finite(part$estimate)) || !all(is.finite(part$sum)) || !is.finite(part$c0) ||
      (se && !all(is.finite(part$variance)))) {
    fail("The effects of `%s` overflow: the fit's coefficients or covariance hold values no fit has, or these rows lie far outside the data.",
         contrast$term)
  }
  average <- data.frame(term = contrast$term, contrast = contrast$contrast, estimate = NA_real_, std.error = NA_real_)
  if (n_complete > 0L) {
    average$estimate <- mean(part$estimate)
    average$std.error <- sqrt(max(model$average(part$c0 / n_complete, part$sum / n_complete), 0))
  }
  half <- -stats::qt((1 - level) / 2, model$df)
  average$conf.low <- average$estimate - half * average$std.error
  average$conf.high <- average$estimate + half * average$std.error
  n <- length(contrast$complete)
  rows <- data.frame(rowid = seq_len(n), term = rep(contrast$term, n), contrast = rep(contrast$contrast, n),
                     value = as.double(contrast$value), estimate = rep(NA_real_, n), std.error = rep(NA_real_, n))
  rows$estimate[contrast$complete] <- part$estimate
  rows$std.error[contrast$complete] <- sqrt(pmax(part$variance, 0))
  rows$conf.low <- rows$estimate - half * rows$std.error
  rows$conf.high <- rows$estimate + half * rows$std.error
  list(rows = rows, average = average)
}
