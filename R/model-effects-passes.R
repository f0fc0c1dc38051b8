# The passes of rff_effects() over the rows (.cpp_effect_pass): the
# estimates of the contrasts and the sums of their gradients in the
# intercept and the coefficients, every derivative from passes they share,
# each difference from its own, and the pointwise variances on request.

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
