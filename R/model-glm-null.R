# The intercept-only ("null") model of a GLM whose rows carry an offset o:
# the K intercepts b minimising sum_i w_i l(b + o_i, y_i), where the GLM's
# path starts (so its null deviance is glm(y ~ 1 + offset(o))'s). Without
# an offset they follow from the responses' weighted means (each family's
# null_model in src/core/models/model_families.cpp), except for numbers
# (values, whose levels' quantiles or expectiles do not, and real numbers,
# whose support vector regression's intercept does not); with one they do not either
# (Poisson's are log(sum w y / sum w exp(o)), the others have no closed
# form), and Newton's method finds them from the sums of the rows' losses,
# residuals and curvatures at b (.cpp_glm_null_sums, src/core/models/glm_null.*),
# a pass over the data each, computing no features. A loss with kinks is
# fitted at the width its path starts at, whose curvature the path's first
# reference takes.

# Newton steps at most this long in any intercept (in units of the
# smoothing width for a loss with kinks, whose curvature is that of the
# band around its kink): a row far past the others' scale (a logistic offset
# of 1000) leaves a curvature too small to trust at the start.
null_step_limit <- 20

# The null model's `intercept` (K) and `curvature` A = sum w H_i / sum w, the
# mean of its rows' Hessians in eta (the path's first reference is A (x)
# the weighted Z'Z, exact without an offset), for the family with its
# `parameters` (levels tau, tube epsilon, smoothing width) and rows that carry an
# `offset` or none. `pass(work)` runs work(chunk) on every chunk and adds
# the results (one pass over the data).
# It starts from the means' intercepts less the offset's weighted mean
# (exact for a constant offset), moved for a family with a mean by the
# difference of the link of the responses' mean and of the fitted means'
# (which makes Poisson's exact: Newton's method alone would approach it from
# above a unit of eta per step, as its curvature grows with exp(eta)); then
# Newton's method (null_newton()).
glm_null_model <- function(family, parameters, mean_y, offset, pass) {
  classes <- length(mean_y)
  traits <- model_family_traits(family)
  # the softmax's intercepts are centred; one-vs-rest's and the levels' are separate
  softmax <- classes > 1L && traits$response == "classes"
  at_width <- function(width) {
    list(evaluate = function(b) pass(glm_null_work(family, parameters$tau, parameters$epsilon, width, b)),
         softmax = softmax,
         limit = null_step_limit * if (traits$kinked) width else 1, offset = offset)
  }
  newton <- at_width(parameters$width)
  link <- function(mean) {
    core(.cpp_glm_null_start(family, parameters$tau, parameters$epsilon, parameters$width, mean, rep(0, classes)))
  }
  offset_mean <- if (offset) {
    weighted <- pass(glm_offset_mean_work())
    weighted$offset / weighted$weight
  } else {
    rep(0, classes)
  }
  b <- core(.cpp_glm_null_start(family, parameters$tau, parameters$epsilon, parameters$width, mean_y, offset_mean))
  at <- newton$evaluate(b)
  if (!is.finite(at$half) || any(!is.finite(at$residual)) || any(!is.finite(at$hessian))) {
    fail("The intercept-only model with this offset has no finite fit: its loss overflows at the offset's mean; check that `offset` is on the scale of the linear predictor (a log exposure for a Poisson rate).",
         class = "data")
  }
  if (traits$likelihood) {
    # (a mean at a bound of its range, where the rows saturate, has no link)
    moved <- b + link(mean_y) - link(at$mean / at$weight)
    there <- if (all(is.finite(moved))) newton$evaluate(moved)
    if (!is.null(there) && is.finite(there$half) && there$half < at$half) {
      b <- moved
      at <- there
    }
  }
  fitted <- null_newton(newton, b, at)
  if (traits$kinked) {
    # from the smoothed loss's fit to the loss's own, as the path's final fit
    # goes (src/core/models/glm_path.h): widths a tenth of the last until the
    # exact loss changes by less than 1e-9 of itself; then the curvature at
    # the path's width, which its first reference takes
    exact <- NA_real_
    width <- parameters$width
    for (level in seq_len(16L)) {
      last <- exact
      exact <- at_width(0)$evaluate(fitted$b)$half
      if (isTRUE(abs(exact - last) <= 1e-9 * abs(exact))) break
      width <- width / 10
      smaller <- at_width(width)
      fitted <- null_newton(smaller, fitted$b, smaller$evaluate(fitted$b))
    }
    fitted$at <- newton$evaluate(fitted$b)
  }
  if (!fitted$converged) {
    warn("The intercept-only model%s did not converge in 100 Newton steps; the fit's `null_deviance` is approximate.",
         if (offset) " with this offset" else "", class = "askrff_not_converged")
  }
  list(intercept = fitted$b, curvature = fitted$at$hessian / fitted$at$weight)
}

# Newton's method on the intercepts from b, whose sums are `at`, with the
# evaluate(), `softmax` and step `limit` of `newton`: each step lowers the
# loss or quarters the Newton decrement, twice the loss still to gain,
# until that is below the loss's rounding or the steps below the
# intercepts'. A step cut to the limit and taken whole doubles the limit:
# where the loss is linear for long (offsets thousands of widths apart, a
# loss with kinks), the steps grow geometrically to the fit. The
# intercepts `b`, their sums `at` and whether it converged.
null_newton <- function(newton, b, at) {
  converged <- FALSE
  limit <- newton$limit
  for (iteration in seq_len(100L)) {
    step <- null_newton_step(at, newton$softmax, limit)
    decrement <- sum(at$residual * step)
    converged <- !(decrement > 1e-15 * abs(at$half))
    if (converged) break
    better <- FALSE
    t <- 1
    # a step below the intercepts' rounding changes nothing
    while (!better && t >= 1e-6 && max(abs(t * step)) > 1e-15 * max(abs(b))) {
      trial <- newton$evaluate(b + t * step)
      better <- is.finite(trial$half) &&
        (trial$half <= at$half - 1e-4 * t * decrement ||
           null_decrement(trial, newton$softmax, limit) < decrement / 4)
      # else back to the minimum of the parabola through the loss and its
      # slope, within a tenth and a half of the step; a tenth where the
      # loss overflows
      curvature <- trial$half - at$half + t * decrement
      if (!better) {
        t <- t * if (is.finite(curvature) && curvature > 0) min(0.5, max(0.1, t * decrement / (2 * curvature))) else 0.1
      }
    }
    if (!better) {
      # no step lowers the loss: it is at its rounding, unless much is still
      # to gain, which the intercepts cannot take when adding them to the
      # offsets loses their digits
      if (decrement > 1e-6 * abs(at$half)) {
        if (newton$offset) {
          fail("The intercept-only model with this offset cannot be fitted in double precision: the offsets are too large for the intercept to correct them. Subtract a constant from `offset` (the intercept absorbs it), or check that it is on the scale of the linear predictor.",
               class = "data")
        }
        fail("The intercept-only model cannot be fitted in double precision: the responses' spread is below their rounding. Subtract a constant from `y` (the intercept absorbs it).",
             class = "data")
      }
      converged <- TRUE
      break
    }
    if (t == 1 && max(abs(step)) >= limit) limit <- 2 * limit
    b <- b + t * step
    at <- trial
  }
  list(b = b, at = at, converged = converged)
}

# The Newton step H^+ r from the intercepts' summed Hessian H and residuals
# r at a pass's sums `at`: for several classes of the softmax (`softmax`) H
# is singular along their common shift, which the softmax ignores, and the
# pseudo-inverse leaves it out; where no curvature is left (every row's loss
# flat or its curvature underflowing, or every row of a loss with kinks
# outside its band), the residuals' direction, `limit` long unless the
# residuals are below the rounding of the rows' slopes (then r itself, which
# moves nothing). At most `limit` long in any intercept.
null_newton_step <- function(at, softmax, limit) {
  hessian <- at$hessian
  residual <- at$residual
  e <- eigen(hessian, symmetric = TRUE)
  kept <- e$values > 1e-12 * max(e$values, 0)
  step <- if (any(kept)) {
    drop(e$vectors[, kept, drop = FALSE] %*% (crossprod(e$vectors[, kept, drop = FALSE], residual) / e$values[kept]))
  }
  # a curvature that underflows leaves no finite step either
  if (is.null(step) || any(!is.finite(step))) {
    longest <- max(abs(residual))
    step <- if (longest > 1e-12 * at$weight) residual * (limit / longest) else residual
  }
  if (softmax) step <- step - mean(step)
  longest <- max(abs(step))
  if (longest > limit) step * (limit / longest) else step
}

# The Newton decrement r'H^+ r at a pass's sums.
null_decrement <- function(at, softmax, limit) sum(at$residual * null_newton_step(at, softmax, limit))

# One chunk's sums at the intercepts b, with the family's levels tau, tube
# epsilon and smoothing width; what travels to a worker is these and the family's name.
glm_null_work <- function(family, tau, epsilon, width, intercept) {
  force(family)
  force(tau)
  force(epsilon)
  force(width)
  force(intercept)
  function(chunk) {
    offset <- if (is.null(chunk$offset)) matrix(0, nrow(chunk$y), ncol(chunk$y)) else chunk$offset
    core(.cpp_glm_null_sums(family, tau, epsilon, width, offset, chunk$y, chunk$w, intercept))
  }
}

# One chunk's weighted sum of the offset (a column per predictor) and of the
# weights.
glm_offset_mean_work <- function() {
  function(chunk) list(offset = colSums(chunk$w * chunk$offset), weight = sum(chunk$w))
}
