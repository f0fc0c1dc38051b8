# The contrasts of rff_effects(): for each variable, its derivative (the
# design's Jacobian by the variable) or the rows at two versions of the
# variable, and from their gradients (R/model-effects-passes.R) the
# pointwise effects and their average.

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
