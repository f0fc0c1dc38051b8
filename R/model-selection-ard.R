# The search of one scale per coordinate (`ard = TRUE`) that select_scale()
# in R/model-selection.R runs from the common scale it found.

# One scale per coordinate, from the common one: stats::optim() by L-BFGS-B
# on the log-scales within scale_limits, with the gradient by forward
# differences from the value optim() has just asked for at the same point
# (d + 1 passes per step, where optim()'s own central differences take
# 2 d + 1: on a criterion that the search's common random numbers keep
# smooth, a step of 1e-3 in the log-scale errs by a thousandth of its
# curvature, below what a step of L-BFGS-B resolves). The evidence is
# divided by the rows `n`, so that the first step is of a sensible size.
optimize_coordinate_scales <- function(objective, start, d, criterion, n) {
  limits <- log(scale_limits)
  last <- list(at = NULL, value = NULL)
  value <- function(log_scales) {
    last <<- list(at = log_scales, value = objective(log_scales))
    last$value
  }
  step <- 1e-3
  gradient <- function(log_scales) {
    here <- if (identical(log_scales, last$at)) last$value else value(log_scales)
    vapply(seq_len(d), function(j) {
      # backwards at the upper limit, which L-BFGS-B never leaves
      h <- if (log_scales[j] + step > limits[2L]) -step else step
      moved <- log_scales
      moved[j] <- moved[j] + h
      (objective(moved) - here) / h
    }, 1)
  }
  # every scale optim() tries is kept, so its failure leaves the best one tried
  tryCatch(stats::optim(rep(start, d), value, gradient, method = "L-BFGS-B", lower = limits[1L], upper = limits[2L],
                        control = list(factr = 1e9, maxit = 50L, fnscale = if (criterion == "evidence") n else 1)),
           askrff_error = function(e) stop(e),
           error = function(e) {
             warn("The search of per-coordinate scales (`ard = TRUE`) stopped early (%s); the fit takes the best scales it tried.",
                  conditionMessage(e), class = "askrff_not_converged")
           })
  invisible(NULL)
}
