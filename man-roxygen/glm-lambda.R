#' @section Choosing the penalty:
#' With `lambda = NULL`, \eqn{\lambda} is chosen by `nfolds`-fold
#' cross-validated deviance on 25 values log-spaced from \eqn{10 s_1} down to
#' \eqn{10^{-5} s_1}, with \eqn{s_1} the largest eigenvalue of the
#' intercept-only model's Hessian; the fit is then the one on all rows at
#' the \eqn{\lambda} of least mean held-out deviance per unit weight. Like
#' glmnet's, the path stops early: once the penalties from the largest down
#' have converged and the cross-validated deviance has risen at each of the
#' last two past its minimum, the smaller penalties (which overfit more,
#' and converge the slowest on nearly separable data) are left out of the
#' path. Several values in `lambda` are compared likewise; one value
#' is used as it is, with no cross-validation. The folds are fixed by each
#' row's position in the data (consecutive groups of `nfolds` rows are
#' spread over the folds by a random permutation drawn from `seed`), so
#' chunks cut anywhere give the
#' same folds; all folds' models are fitted in the same passes. Five folds is
#' the default: every fold's models are fitted in every pass, so ten would
#' double the work of a pass for the gain of training on 90 % of the rows
#' instead of 80 %, which moves the chosen \eqn{\lambda} little.
#'
#' **Many rows.** Every pass of the path evaluates each penalty's fold and
#' full-data models, some 25 x 6 products of the features with a
#' coefficient vector, where the chosen \eqn{\lambda}'s fit takes one.
#' With \eqn{D} feature columns far fewer than the rows, the penalty that
#' minimizes the held-out loss hardly moves with the number of rows (in
#' the sum of the losses plus \eqn{\lambda \|b\|^2} it is the Bayesian
#' ridge's ratio of noise to prior variance), so for data in memory with
#' more than twice `getOption("askrff.path_rows", 100000)` rows of positive
#' weight the path is cross-validated on a sample of about that many rows
#' (chosen by their position under `seed`, as the folds are), and the
#' chosen \eqn{\lambda} is then fitted on every row: the fit's `path_rows`
#' says how many, its `path` holds the sample's deviances (the path's
#' models', the sample's own fit at the chosen \eqn{\lambda} being of no
#' use and not run) and `passes` counts the passes over all rows. On a million rows and 2,048 columns
#' a support vector machine then takes 465 s instead of 1,737 s
#' (`bench/svm.R scale`). Set the option to
#' `Inf`-like values (\eqn{2^{31} - 1}) to cross-validate on every row;
#' chunk sources and Cox models (whose risk sets are every row's) always
#' are.
