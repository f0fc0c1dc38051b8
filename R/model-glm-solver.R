# The optimizer of rff_glm() runs in the core (src/core/models/glm_path.*):
# R serves it passes over the data, which stay where they are (chunks,
# future workers, progressr), and the core keeps every model's state and
# says which coefficients the next pass must evaluate.

# Solves the path (cross-validated when lambda has several values or is
# chosen) and then the chosen lambda's fit on all rows to convergence, and
# takes the whole Hessian at that fit when it fits in memory
# (whole_hessian_fits(); a loss with kinks or of values has none). Unless
# `final`: a solution that only chooses lambda (a scale search's
# candidate, or a path on a sample of the rows) ends with the path's own
# model at the chosen lambda and takes no Hessian. One lambda's fit may
# start at `start` ((1 + D) x K coefficients on these shifted features;
# NULL: the intercept-only model).
# `pass(request)` runs one pass of .cpp_glm_pass over the data for the
# solver's request (.cpp_glm_path_next: coefficients, folds, references,
# the smoothing width and a kinked loss's line search);
# `parameters` are the family's levels `tau`, its tube's `epsilon` and the width its path starts
# at (smoothing_width()); `setup` holds the first pass's
# sums, `mean_y` the responses' weighted means (glm_null_means()), which
# give the intercept-only model the path starts from, and `null` that model
# when an offset moves it (glm_null_model(); NULL for none). The result has
# the saturated model's log-likelihood (the passes' `saturated`) beside the
# core's. The passes sum weights divided by `unit`; `lambda` and the result
# are in the given weights. The preconditioners' Hessians take a sample of
# about getOption("askrff.hessian_rows", 50000) of the rows
# (hessian_sample()).
glm_solve_path <- function(pass, family, parameters, setup, mean_y, null, lambda, nfolds, columns, final = TRUE,
                           unit = 1, start = NULL) {
  if ((is.null(lambda) || length(lambda) > 1L) && nfolds > setup$n) {
    fail("`nfolds` (%d) must be at most the number of rows of positive weight (%d).", nfolds, setup$n)
  }
  traits <- model_family_traits(family)
  # (a Cox model's Hessians are only bounds of its own, which
  # cox_likelihood() takes after the fit)
  hessian <- final && !traits$kinked && !numeric_response(traits) && traits$response != "survival" &&
    whole_hessian_fits(length(mean_y), columns)
  # solved in the passes' unit weights (R/model-weight-units.R)
  # the first pass's Z'WZ and column sums may be a sample's (glm_first_work())
  gram <- setup
  if (!is.null(setup$gram_weight)) gram$weight <- setup$gram_weight
  solver <- core(.cpp_glm_path(family, parameters$tau, parameters$epsilon, parameters$width, gram, mean_y,
                               null$intercept, null$curvature, if (is.null(lambda)) numeric() else lambda / unit,
                               nfolds, final, start, hessian, hessian_sample(setup$n), eigen_progress(columns)))
  sums <- NULL
  repeat {
    # a pass that takes Hessians for its models ends in their eigendecompositions
    progress <- if (!is.null(sums) && ncol(request$references) > 0L && ncol(request$coefficients) > 0L) {
      eigen_progress(columns)
    }
    request <- core(.cpp_glm_path_next(solver, sums, progress))
    if (is.null(request)) break
    sums <- pass(request)
  }
  solved <- core(.cpp_glm_path_result(solver))
  solved$saturated <- sums$saturated
  solved$hessian <- hessian
  solved$path <- as.data.frame(solved$path)
  solved <- glm_solution_in_given_weights(solved, unit)
  if (solved$unconverged > 0L) {
    warn("The cross-validation fits at %d of the %d values of `lambda` did not converge in %d passes; their `cv` in the fit's path is approximate.",
         solved$unconverged, solved$grid_size, solved$max_passes, class = "askrff_not_converged")
  }
  if (final && !solved$converged) {
    warn("The fit at `lambda` = %s did not converge in %d passes; its coefficients are approximate.",
         format(solved$lambda, digits = 3), solved$max_passes, class = "askrff_not_converged")
  }
  solved
}

# One row in how many the Hessians that only precondition the steps sum
# (GlmPathSetup::hessian_every): about `rows` of the n (unbiased, each
# weighted by the inverse of its share). A Hessian of all rows costs n D^2,
# at a million rows and 2,048 columns some 40 passes' features; the steps'
# line search and memory correct a preconditioner's sampling error.
hessian_sample <- function(n, rows = getOption("askrff.hessian_rows", 50000)) {
  rows <- check_count(rows, "options(askrff.hessian_rows)", max = 2^31 - 1)
  as.integer(max(1, floor(n / rows)))
}

# Whether the whole Hessian at the fit of `classes` predictors on `columns`
# feature columns is taken: its K (1 + D) square matrix is held about six
# times (the pass's sums, the matrix, its penalized copy, the factor, its
# inverse and the covariance), which must fit in the memory available (in 8
# GB where the system does not say).
whole_hessian_fits <- function(classes, columns) {
  bytes <- 6 * 8 * (as.double(classes) * (columns + 1))^2
  if (bytes < 2^26) return(TRUE)
  available <- available_memory()
  bytes <= (if (is.na(available)) 2^33 else available)
}
