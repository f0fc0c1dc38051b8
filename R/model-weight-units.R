# Weights in the sums and weights in the fit. A fit's criterion is that of
# lm() and glm(): sum_i w_i loss_i + lambda ||b||^2, so whole weights are
# repeated rows and the likelihoods are glm()'s. The passes, though, sum
# the weights divided by a unit u (weight_unit()), and the core solves
# with lambda / u: the same minimiser, with sums that neither overflow nor
# underflow however large or small the weights. What the fit reports is
# taken back to the given weights here: penalties, sums of squares,
# deviances and the weight scale by u, covariances by 1 / u; the
# coefficients, degrees of freedom, the evidence and the cross-validated
# deviance per unit weight do not change.

# The mean of the first chunk's positive weights (1 without any), divided
# by their largest first so that the mean cannot overflow.
weight_unit <- function(w) {
  positive <- w[w > 0]
  if (length(positive) == 0L) return(1)
  top <- max(positive)
  top * mean(positive / top)
}

# A ridge path (path_rows(), and its sums) solved in unit weights, in the
# given ones.
ridge_path_in_given_weights <- function(path, sums, unit) {
  if (unit == 1) return(list(path = path, sums = sums))
  for (name in intersect(c("lambda", "gcv", "loo"), names(path$frame))) path$frame[[name]] <- path$frame[[name]] * unit
  for (name in intersect(c("rss", "eigenvalues", "projections", "weight", "remainder_values"), names(path))) {
    path[[name]] <- path[[name]] * unit
  }
  # the dual form's remainder (ridge.h): W = B'U and g = U't, B and t
  # scaled by the square roots of the weights
  for (name in intersect(c("remainder_vectors", "remainder_projections"), names(path))) {
    path[[name]] <- path[[name]] * sqrt(unit)
  }
  sums$weight <- sums$weight * unit
  sums$log_weight <- sums$log_weight + sums$n * log(unit)
  list(path = path, sums = sums)
}

# A GLM's solution (glm_solve_path()) solved in unit weights, in the given
# ones.
glm_solution_in_given_weights <- function(solved, unit) {
  if (unit == 1) return(solved)
  for (name in c("lambda", "deviance", "null_deviance", "saturated")) {
    if (!is.null(solved[[name]])) solved[[name]] <- solved[[name]] * unit
  }
  solved$path$lambda <- solved$path$lambda * unit
  solved$path$deviance <- solved$path$deviance * unit
  if (!is.null(solved$covariance)) solved$covariance <- solved$covariance / unit
  solved
}
