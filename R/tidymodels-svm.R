#' Support vector machines on random features for parsnip
#'
#' The engine `"askrff"` of parsnip's `svm_rbf()` fits a support vector
#' machine on random Fourier features of the Gaussian kernel with
#' `rff_svm_train()` (which may also be called directly with the same
#' arguments): [rff_glm()] with the `"squared_hinge"` family (for more than
#' two classes one machine per class against the rest), so that a workflow
#' moves from kernlab to askrff, and from quadratic to linear time in the
#' rows, by changing the engine. Classification only; predictions are of
#' type `"class"` and `"prob"` (Platt's probabilities, see `probability` in
#' [rff_glm()]).
#'
#' **Arguments as kernlab reads them.** kernlab's `ksvm()` minimizes
#' \eqn{\|w\|^2 / 2 + C \sum_i \ell_i}; [rff_glm()] minimizes \eqn{\sum_i
#' \ell_i + \lambda \|b\|^2}, the same minimizer at \eqn{\lambda = 1 / (2C)},
#' so `cost` is kernlab's \eqn{C}. `rbf_sigma` is kernlab's `rbfdot(sigma)`,
#' the kernel \eqn{\exp(-\sigma \|x - y\|^2)}, that is
#' `gaussian_kernel(1 / sqrt(2 * rbf_sigma))`, on the predictors
#' standardized to mean 0 and variance 1, as `ksvm()` standardizes them by
#' default. `margin` is kernlab's \eqn{\epsilon} of regression, which this
#' engine does not fit. The loss is by default the squared hinge of the
#' L2-loss machine (LIBLINEAR's default), where kernlab's is the hinge, so
#' with the same `cost` the two fit slightly different machines; the engine
#' argument `loss = "hinge"` fits kernlab's own (the L1-loss machine, exact
#' to 1e-9 of its criterion, but its kinks make it several times slower to
#' fit).
#'
#' **Defaults.** Left `NULL`, `cost` is chosen by 5-fold cross-validation of
#' the loss ([rff_glm()]'s path) and `rbf_sigma` by the data (the Gaussian
#' kernel's length scale searched in median distances, see [kernel_scale]):
#' a good machine in one call, where kernlab's defaults are \eqn{C = 1} and
#' `sigest()`'s estimate.
#'
#' **Engine arguments** (`set_engine("askrff", ...)`): `loss`
#' (`"squared_hinge"` or `"hinge"`), `n_features` (default 256), `method`, `standardize` (default `TRUE`), `nfolds`,
#' `probability` (default `TRUE`: Platt's probabilities, which cost `nfolds`
#' more fits; `FALSE` leaves only classes and decision values), `seed` (of
#' the map and the folds; `NULL` draws it from R's random number generator,
#' which tune seeds per resample) and `n_threads`.
#'
#' @param x,y The predictors (a numeric matrix or data frame) and the classes
#'   (a factor).
#' @param weights Observation weights, or `NULL`.
#' @param cost kernlab's \eqn{C} (positive), or `NULL` to choose it.
#' @param rbf_sigma kernlab's \eqn{\sigma} of the Gaussian kernel on the
#'   standardized predictors (positive), or `NULL` to choose it.
#' @param loss `"squared_hinge"` (the default) or `"hinge"`: the family of
#'   [rff_glm()].
#' @param n_features The number of frequencies.
#' @param method,standardize,nfolds,probability,seed,n_threads Passed to
#'   [rff_glm()] (`standardize` as `TRUE` or `FALSE`).
#' @param ... Not used: a mistyped engine argument is an error that names it.
#' @return The fit of [rff_glm()].
#' @family tidymodels
#' @examples
#' if (requireNamespace("parsnip", quietly = TRUE)) {
#'   spec <- parsnip::svm_rbf(cost = 10, rbf_sigma = 0.2) |>
#'     parsnip::set_engine("askrff", n_features = 64, seed = 1) |>
#'     parsnip::set_mode("classification")
#'   fit <- parsnip::fit(spec, Species ~ ., data = iris)
#'   predict(fit, iris[c(1, 51, 101), ], type = "prob")
#' }
#' @export
rff_svm_train <- function(x, y, weights = NULL, cost = NULL, rbf_sigma = NULL, loss = "squared_hinge",
                          n_features = 256L, method = "iid", standardize = TRUE, nfolds = 5, probability = TRUE,
                          seed = NULL, n_threads = NULL, ...) {
  check_no_dots(...)
  loss <- check_choice(loss, c("squared_hinge", "hinge"), "loss")
  x <- check_data(x, "x")
  if (!is.factor(y)) fail("`y` must be a factor of the classes: the \"askrff\" engine of svm_rbf() classifies.")
  lambda <- if (!is.null(cost)) 1 / (2 * check_positive_number(cost, "cost"))
  kernel <- if (is.null(rbf_sigma)) "gaussian" else {
    gaussian_kernel(1 / sqrt(2 * check_positive_number(rbf_sigma, "rbf_sigma")))
  }
  scaling <- engine_scaling(check_flag(standardize, "standardize"), kernel, x)$scaling
  rff_glm(x, y, family = loss, lambda = lambda, nfolds = nfolds, weights = weights, kernel = kernel,
          n_features = n_features, method = method, seed = seed, standardize = if (is.null(scaling)) FALSE else scaling,
          probability = probability, n_threads = n_threads)
}

# Registered beside rff_reg() (register_parsnip_models()): parsnip's own
# svm_rbf() gains the engine, its arguments mapped by name.
register_svm_rbf <- function() {
  if (!isNamespaceLoaded("parsnip")) return(invisible(FALSE))
  if ("askrff" %in% parsnip::get_model_env()$svm_rbf$engine) return(invisible(TRUE))
  parsnip::set_model_engine("svm_rbf", "classification", "askrff")
  parsnip::set_dependency("svm_rbf", "askrff", "askrff", mode = "classification")
  for (argument in c("cost", "rbf_sigma")) {
    parsnip::set_model_arg("svm_rbf", "askrff", parsnip = argument, original = argument,
                           func = list(pkg = "dials", fun = argument), has_submodel = FALSE)
  }
  parsnip::set_fit("svm_rbf", "classification", "askrff", list(
    interface = "matrix", protect = c("x", "y", "weights"),
    func = c(pkg = "askrff", fun = "rff_svm_train"), defaults = list()
  ))
  parsnip::set_encoding("svm_rbf", "classification", "askrff", list(
    predictor_indicators = "one_hot", compute_intercept = FALSE, remove_intercept = TRUE, allow_sparse_x = FALSE
  ))
  parsnip::set_pred("svm_rbf", "classification", "askrff", "class", list(
    pre = NULL, post = NULL, func = c(fun = "predict"),
    args = list(object = quote(object$fit), newdata = quote(new_data), type = "class")
  ))
  parsnip::set_pred("svm_rbf", "classification", "askrff", "prob", list(
    pre = NULL, post = class_probability_columns, func = c(fun = "predict"),
    args = list(object = quote(object$fit), newdata = quote(new_data), type = "response")
  ))
  invisible(TRUE)
}
