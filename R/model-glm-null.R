# The intercept-only ("null") model of a GLM whose rows carry an offset o:
# the K intercepts b minimising sum_i w_i l(b + o_i, y_i), where the GLM's
# path starts (so its null deviance is glm(y ~ 1 + offset(o))'s). Without
# an offset they follow from the responses' weighted means (each family's
# null_model in src/core/models/model_families.cpp); with one they do not
# (Poisson's are log(sum w y / sum w exp(o)), the others have no closed
# form), and Newton's method finds them from the sums of the rows' losses,
# residuals and curvatures at b (.cpp_glm_null_sums, src/core/models/glm_null.*),
# a pass over the data each, computing no features.

# Newton steps at most this long in any intercept: a row far past the
# others' scale (a logistic offset of 1000) leaves a curvature too small to
# trust at the start.
null_step_limit <- 20

# The null model's `intercept` (K) and `curvature` A = sum w H_i / sum w, the
# mean of its rows' Hessians in eta (the path's first reference is A (x)
# the weighted Z'Z, exact without an offset). `pass(work)` runs
# work(chunk) on every chunk and adds the results (one pass over the data).
# It starts from the means' intercepts less the offset's weighted mean
# (exact for a constant offset), moved for a family with a mean by the
# difference of the link of the responses' mean and of the fitted means'
# (which makes Poisson's exact: Newton's method alone would approach it from
# above a unit of eta per step, as its curvature grows with exp(eta)). Each
# Newton step then lowers the loss or quarters the Newton decrement, twice
# the loss still to gain, until that is below the loss's rounding or the
# steps below the intercepts'.
glm_null_model <- function(family, mean_y, pass) {
  classes <- length(mean_y)
  softmax <- classes > 1L && model_family_traits(family)$response == "classes"
  evaluate <- function(b) pass(glm_null_work(family, b))
  link <- function(mean) core(.cpp_glm_null_start(family, mean, rep(0, classes)))
  weighted <- pass(glm_offset_mean_work())
  b <- core(.cpp_glm_null_start(family, mean_y, weighted$offset / weighted$weight))
  at <- evaluate(b)
  if (!is.finite(at$half) || any(!is.finite(at$residual)) || any(!is.finite(at$hessian))) {
    fail("The intercept-only model with this offset has no finite fit: its loss overflows at the offset's mean; check that `offset` is on the scale of the linear predictor (a log exposure for a Poisson rate).",
         class = "data")
  }
  if (!identical(model_family_traits(family)$mean, "")) {
    # (a mean at a bound of its range, where the rows saturate, has no link)
    moved <- b + link(mean_y) - link(at$mean / at$weight)
    there <- if (all(is.finite(moved))) evaluate(moved)
    if (!is.null(there) && is.finite(there$half) && there$half < at$half) {
      b <- moved
      at <- there
    }
  }
  converged <- FALSE
  for (iteration in seq_len(100L)) {
    step <- null_newton_step(at$hessian, at$residual, softmax)
    decrement <- sum(at$residual * step)
    converged <- !(decrement > 1e-15 * abs(at$half))
    if (converged) break
    better <- FALSE
    t <- 1
    # a step below the intercepts' rounding changes nothing
    while (!better && t >= 1e-6 && max(abs(t * step)) > 1e-15 * max(abs(b))) {
      trial <- evaluate(b + t * step)
      better <- is.finite(trial$half) &&
        (trial$half <= at$half - 1e-4 * t * decrement || null_decrement(trial, softmax) < decrement / 4)
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
        fail("The intercept-only model with this offset cannot be fitted in double precision: the offsets are too large for the intercept to correct them. Subtract a constant from `offset` (the intercept absorbs it), or check that it is on the scale of the linear predictor.",
             class = "data")
      }
      converged <- TRUE
      break
    }
    b <- b + t * step
    at <- trial
  }
  if (!converged) {
    warn("The intercept-only model with this offset did not converge in 100 Newton steps; the fit's `null_deviance` is approximate.",
         class = "askrff_not_converged")
  }
  list(intercept = b, curvature = at$hessian / at$weight)
}

# The Newton step H^+ r from the intercepts' summed Hessian H and residuals
# r: for several classes of the softmax (`softmax`) H is singular along
# their common shift, which the softmax ignores, and the pseudo-inverse
# leaves it out; where no curvature
# is left (every row's loss flat or its curvature underflowing), the
# residuals' direction. At most null_step_limit long in any intercept.
null_newton_step <- function(hessian, residual, softmax) {
  e <- eigen(hessian, symmetric = TRUE)
  kept <- e$values > 1e-12 * max(e$values, 0)
  step <- if (any(kept)) {
    drop(e$vectors[, kept, drop = FALSE] %*% (crossprod(e$vectors[, kept, drop = FALSE], residual) / e$values[kept]))
  }
  # a curvature that underflows leaves no finite step either
  if (is.null(step) || any(!is.finite(step))) step <- residual
  if (softmax) step <- step - mean(step)
  longest <- max(abs(step))
  if (longest > null_step_limit) step * (null_step_limit / longest) else step
}

# The Newton decrement r'H^+ r at a pass's sums.
null_decrement <- function(at, softmax) sum(at$residual * null_newton_step(at$hessian, at$residual, softmax))

# One chunk's sums at the intercepts b; what travels to a worker is the
# family's name and b.
glm_null_work <- function(family, intercept) {
  force(family)
  force(intercept)
  function(chunk) core(.cpp_glm_null_sums(family, glm_offset_columns(chunk), chunk$y, chunk$w, intercept))
}

# One chunk's weighted sum of the offset (a column per predictor) and of the
# weights.
glm_offset_mean_work <- function() {
  function(chunk) list(offset = colSums(chunk$w * chunk$offset), weight = sum(chunk$w))
}
