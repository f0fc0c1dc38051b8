# glmnet's ridge fit (alpha = 0) on the features as they are, with its
# convergence threshold tightened far below the default (1e-7), so that its
# coefficients are exact to about 1e-9: the reference of rff_glm()'s tests
# (test-glm.R, test-offsets.R).
tight_glmnet <- function(...) {
  if ("control" %in% names(formals(glmnet::glmnet))) {
    glmnet::glmnet(..., alpha = 0, standardize = FALSE, control = list(thresh = 1e-16, maxit = 1e7))
  } else {
    glmnet::glmnet(..., alpha = 0, standardize = FALSE, thresh = 1e-16, maxit = 1e7)
  }
}
