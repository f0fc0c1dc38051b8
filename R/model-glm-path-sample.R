# The penalty path of rff_glm() on a sample of the rows when they are many.
#
# Every pass of the cross-validated path evaluates each penalty's fold and
# full-data models in flight, some 25 x 6 products of the features with a
# coefficient vector, so at a million rows a pass of the path costs five
# times one of a single model's fit. With D feature columns far fewer than
# the rows the penalty that minimizes the held-out loss hardly moves with
# the rows: in the sum of the losses plus lambda ||b||^2 it is the Bayesian
# ridge's ratio of noise to prior variance, which does not grow with n
# (bench/svm.R: 0.13 chosen on 100,000 rows, 0.23 on a million, with
# held-out losses 1e-4 apart). So for data in memory of more rows than
# getOption("askrff.path_rows", 100000) the path is cross-validated on a
# sample of about that many rows (by their index, as the folds are) and the
# chosen lambda then fitted on every row, starting from the sample's model
# at that lambda (GlmPathSetup::start), within sampling error of the fit;
# the sample's own fit at that lambda, which would be discarded, is not run
# (GlmPathSetup::fit_chosen).

# The fit of glm_solution_at(), its lambda chosen on a sample of the rows
# when the data are in memory, lambda is to be chosen, the rows are more
# than the option's and the family is not Cox's (whose risk sets are the
# rows'); `final = FALSE` (a scale search's candidate) returns the sample's
# solution, whose cross-validated deviance the search compares.
glm_solution <- function(model, problem, run_pass, family, tau, epsilon, lambda, nfolds, fold_seed, final = TRUE,
                         cox = NULL) {
  rows <- if (!problem$streamed && length(lambda) != 1L && is.null(cox$times)) {
    path_sample_rows(problem$start$w, nfolds, fold_seed)
  }
  if (is.null(rows)) {
    return(glm_solution_at(model, problem, run_pass, family, tau, epsilon, lambda, nfolds, fold_seed, final, cox))
  }
  sample <- sample_problem(problem, rows)
  chosen <- glm_solution_at(model, sample, model_passes(sample, "rff_glm()"), family, tau, epsilon, lambda, nfolds,
                            fold_seed, final = FALSE)
  chosen$path_rows <- length(rows)
  if (!final) return(chosen)
  solution <- glm_solution_at(model, problem, run_pass, family, tau, epsilon, chosen$lambda, nfolds, fold_seed, TRUE,
                              from = chosen)
  solution$solved$path <- chosen$solved$path
  solution$value <- chosen$value
  solution$path_rows <- length(rows)
  solution
}

# The coefficients of a `solution` of glm_solution_at() (on features less
# their shift there) on features less `shift` instead: only the intercepts
# change. NULL for none.
start_on_shift <- function(solution, shift) {
  if (is.null(solution)) return(NULL)
  b <- solution$solved$coefficients
  b[1L, ] <- b[1L, ] + drop(crossprod(b[-1L, , drop = FALSE], shift - solution$shifts$z))
  b
}

# The rows of the path's sample (by index, under the folds' seed: the same
# for any thread count), or NULL to use every row: when the rows of
# positive weight `w` are more than twice the option's.
path_sample_rows <- function(w, nfolds, fold_seed) {
  rows <- check_count(getOption("askrff.path_rows", 100000), "options(askrff.path_rows)", max = 2^31 - 1)
  if (rows < 10L * nfolds) fail("`options(askrff.path_rows)` must be at least 10 rows per fold (%d).", 10L * nfolds)
  positive <- sum(w > 0)
  if (positive <= 2 * rows) return(NULL)
  which(core(.cpp_hessian_rows(0, length(w), as.integer(floor(positive / rows)), fold_seed)))
}

# The problem (a setup of model_setup() for data in memory) on its rows
# `rows` alone, with the first pass's and the fit's other fields as they
# are.
sample_problem <- function(problem, rows) {
  start <- problem$start
  for (field in c("x", "y", "offset")) {
    if (!is.null(start[[field]])) start[[field]] <- start[[field]][rows, , drop = FALSE]
  }
  for (field in c("w", "given_w", "rank")) {
    if (length(start[[field]]) > 0L) start[[field]] <- start[[field]][rows]
  }
  problem$start <- start
  problem
}
