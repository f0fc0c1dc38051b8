# The optimizer of rff_glm() runs in the core (src/core/models/glm_path.*):
# R serves it passes over the data, which stay where they are (chunks,
# future workers, progressr), and the core keeps every model's state and
# says which coefficients the next pass must evaluate.

# Solves the path (cross-validated when lambda has several values or is
# chosen) and then the chosen lambda's fit on all rows to convergence.
# `pass(coefficients, model_fold, references)` runs one pass of
# .cpp_glm_pass over the data; `setup` holds the first pass's sums and
# `mean_y` the responses' weighted means (glm_null_means()).
glm_solve_path <- function(pass, family, setup, mean_y, lambda, nfolds, columns) {
  if ((is.null(lambda) || length(lambda) > 1L) && nfolds > setup$n) {
    fail("`nfolds` (%d) must be at most the number of rows of positive weight (%d).", nfolds, setup$n)
  }
  solver <- core(.cpp_glm_path(family, setup, mean_y, if (is.null(lambda)) numeric() else lambda, nfolds,
                               eigen_progress(columns)))
  sums <- NULL
  repeat {
    # a pass that takes Hessians ends in their eigendecompositions
    progress <- if (!is.null(sums) && ncol(request$references) > 0L) eigen_progress(columns)
    request <- core(.cpp_glm_path_next(solver, sums, progress))
    if (is.null(request)) break
    sums <- pass(request$coefficients, request$fold, request$references)
  }
  solved <- core(.cpp_glm_path_result(solver))
  solved$path <- as.data.frame(solved$path)
  if (solved$unconverged > 0L) {
    warn("The cross-validation fits at %d of the %d values of `lambda` did not converge in %d passes; their `cv` in the fit's path is approximate.",
         solved$unconverged, solved$grid_size, solved$max_passes, class = "askrff_not_converged")
  }
  if (!solved$converged) {
    warn("The fit at `lambda` = %s did not converge in %d passes; its coefficients are approximate.",
         format(solved$lambda, digits = 3), solved$max_passes, class = "askrff_not_converged")
  }
  solved
}
