#' Support vector machines on random features for parsnip
#'
#' The engine `"askrff"` of parsnip's `svm_rbf()` fits a support vector
#' machine on random Fourier features of the Gaussian kernel with
#' `rff_svm_train()` (which may also be called directly with the same
#' arguments): [rff_glm()] with the `"squared_hinge"` family (for more than
#' two classes one machine per class against the rest), so that a workflow
#' moves from kernlab to askrff, and from quadratic to linear time in the
#' rows, by changing the engine. In classification predictions are of
#' type `"class"` and `"prob"` (Platt's probabilities, see `probability` in
#' [rff_glm()]). In regression (a numeric `y`) it is support vector
#' regression, [rff_glm()] with the `"squared_epsilon_insensitive"` family,
#' and predictions are of type `"numeric"`.
#'
#' **Arguments as kernlab reads them.** kernlab's `ksvm()` minimizes
#' \eqn{\|w\|^2 / 2 + C \sum_i \ell_i}; [rff_glm()] minimizes \eqn{\sum_i
#' \ell_i + \lambda \|b\|^2}, the same minimizer at \eqn{\lambda = 1 / (2C)},
#' so `cost` is kernlab's \eqn{C}. `rbf_sigma` is kernlab's `rbfdot(sigma)`,
#' the kernel \eqn{\exp(-\sigma \|x - y\|^2)}, that is
#' `gaussian_kernel(1 / sqrt(2 * rbf_sigma))`, on the predictors
#' standardized to mean 0 and variance 1, as `ksvm()` standardizes them by
#' default. `margin` is kernlab's \eqn{\epsilon} of regression, the
#' half-width of the tube within which residuals cost nothing (default
#' 0.1, as kernlab's). Like `ksvm(scaled = TRUE)`, regression with
#' `standardize = TRUE` (the default) standardizes the response too, to
#' mean 0 and standard deviation 1 (R's [scale()], unweighted), so
#' `margin` is in units of the response's standard deviation \eqn{s}, and
#' predictions are in the response's units. The fit is the same model fitted
#' on the response itself: [rff_glm()] with `epsilon = margin * s` and, for
#' a given `cost`, \eqn{\lambda = 1 / (2 C s)} for the L1 loss (\eqn{1 /
#' (2C)} for the squared one, whose losses scale as \eqn{s^2} like the
#' penalty). The loss is by default the squared hinge of the
#' L2-loss machine (LIBLINEAR's default), where kernlab's is the hinge, so
#' with the same `cost` the two fit slightly different machines; the engine
#' argument `loss = "hinge"` fits kernlab's own (the L1-loss machine, exact
#' to 1e-9 of its criterion, but its kinks make it several times slower to
#' fit). In regression the same argument chooses the squared
#' (`"squared_hinge"`, LIBLINEAR's L2-loss support vector regression) or
#' plain (`"hinge"`, kernlab's `"eps-svr"`) epsilon-insensitive loss.
#'
#' **Defaults.** Left `NULL`, `cost` is chosen by 5-fold cross-validation of
#' the loss ([rff_glm()]'s path) and `rbf_sigma` by the data (the Gaussian
#' kernel's length scale searched in median distances, see [kernel_scale]):
#' a good machine in one call, where kernlab's defaults are \eqn{C = 1} and
#' `sigest()`'s estimate.
#'
#' **Engine arguments** (`set_engine("askrff", ...)`): `loss`
#' (`"squared_hinge"` or `"hinge"`), `n_features` (default 256), `method`, `standardize` (default `TRUE`), `nfolds`,
#' `probability` (in classification `TRUE` by default: Platt's
#' probabilities, which cost `nfolds` more fits; `FALSE` leaves only classes
#' and decision values; regression has none), `seed` (of
#' the map and the folds; `NULL` draws it from R's random number generator,
#' which tune seeds per resample) and `n_threads`.
#'
#' @param x,y The predictors (a numeric matrix or data frame) and the classes
#'   (a factor), or for regression the response (finite numbers).
#' @param weights Observation weights, or `NULL`.
#' @param cost kernlab's \eqn{C} (positive), or `NULL` to choose it.
#' @param rbf_sigma kernlab's \eqn{\sigma} of the Gaussian kernel on the
#'   standardized predictors (positive), or `NULL` to choose it.
#' @param margin kernlab's \eqn{\epsilon} of regression (finite,
#'   nonnegative), in units of the response's standard deviation when
#'   `standardize = TRUE`, else of the response; `NULL` is 0.1. For
#'   classification, none.
#' @param loss `"squared_hinge"` (the default) or `"hinge"`: the family of
#'   [rff_glm()], in regression its epsilon-insensitive counterpart
#'   (`"squared_epsilon_insensitive"` or `"epsilon_insensitive"`).
#' @param n_features The number of frequencies.
#' @param probability Passed to [rff_glm()] for classification; `NULL` (the
#'   default) is `TRUE` there and `FALSE` in regression, which has no
#'   probabilities.
#' @param method,standardize,nfolds,seed,n_threads Passed to
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
#'   reg <- parsnip::svm_rbf(cost = 10, rbf_sigma = 0.2, margin = 0.05) |>
#'     parsnip::set_engine("askrff", n_features = 64, seed = 1) |>
#'     parsnip::set_mode("regression")
#'   predict(parsnip::fit(reg, mpg ~ ., data = mtcars), mtcars[1:3, ])
#' }
#' @export
rff_svm_train <- function(x, y, weights = NULL, cost = NULL, rbf_sigma = NULL, margin = NULL, loss = "squared_hinge",
                          n_features = 256L, method = "iid", standardize = TRUE, nfolds = 5, probability = NULL,
                          seed = NULL, n_threads = NULL, ...) {
  check_no_dots(...)
  loss <- check_choice(loss, c("squared_hinge", "hinge"), "loss")
  x <- check_data(x, "x")
  regression <- is.numeric(y) && !is.object(y) && is.null(dim(y))
  if (!is.factor(y) && !regression) {
    fail("`y` must be a factor of the classes or, for regression, numbers: the \"askrff\" engine of svm_rbf() takes these.")
  }
  lambda <- if (!is.null(cost)) 1 / (2 * check_positive_number(cost, "cost"))
  kernel <- if (is.null(rbf_sigma)) "gaussian" else {
    gaussian_kernel(1 / sqrt(2 * check_positive_number(rbf_sigma, "rbf_sigma")))
  }
  standardize <- check_flag(standardize, "standardize")
  scaling <- engine_scaling(standardize, kernel, x)$scaling
  standardize <- if (is.null(scaling)) FALSE else scaling
  if (!regression) {
    if (!is.null(margin)) fail("`margin` is the tube of support vector regression; classification (a factor `y`) takes none.")
    return(rff_glm(x, y, family = loss, lambda = lambda, nfolds = nfolds, weights = weights, kernel = kernel,
                   n_features = n_features, method = method, seed = seed, standardize = standardize,
                   probability = if (is.null(probability)) TRUE else probability, n_threads = n_threads))
  }
  family <- c(squared_hinge = "squared_epsilon_insensitive", hinge = "epsilon_insensitive")[[loss]]
  margin <- check_epsilon(if (is.null(margin)) 0.1 else margin, model_family_traits(family), "margin")
  if (isTRUE(probability)) fail("`probability = TRUE` is for classification; regression (a numeric `y`) has no probabilities.")
  # kernlab's ksvm(scaled = TRUE) fits the standardized response: the same
  # model on y itself with the tube and the L1 loss's penalty rescaled
  s <- if (isTRUE(standardize) || is.list(standardize)) response_scale(y) else 1
  if (!is.null(lambda) && family == "epsilon_insensitive") lambda <- lambda / s
  rff_glm(x, y, family = family, epsilon = margin * s, lambda = lambda, nfolds = nfolds, weights = weights,
          kernel = kernel, n_features = n_features, method = method, seed = seed, standardize = standardize,
          probability = if (is.null(probability)) FALSE else probability, n_threads = n_threads)
}

# The standard deviation by which ksvm(scaled = TRUE) divides a regression's
# response (R's scale(): unweighted, n - 1), 1 for a constant one (where
# scale() would divide by 0); checked as rff_glm() checks y.
response_scale <- function(y) {
  if (length(y) < 2L || anyNA(y) || any(!is.finite(y))) return(1)
  s <- stats::sd(y)
  if (is.finite(s) && s > 0) s else 1
}

# Registered beside rff_reg() (register_parsnip_models()): parsnip's own
# svm_rbf() gains the engine, its arguments mapped by name.
register_svm_rbf <- function() {
  if (!isNamespaceLoaded("parsnip")) return(invisible(FALSE))
  if ("askrff" %in% parsnip::get_model_env()$svm_rbf$engine) return(invisible(TRUE))
  for (mode in c("classification", "regression")) {
    parsnip::set_model_engine("svm_rbf", mode, "askrff")
    parsnip::set_dependency("svm_rbf", "askrff", "askrff", mode = mode)
    parsnip::set_fit("svm_rbf", mode, "askrff", list(
      interface = "matrix", protect = c("x", "y", "weights"),
      func = c(pkg = "askrff", fun = "rff_svm_train"), defaults = list()
    ))
    parsnip::set_encoding("svm_rbf", mode, "askrff", list(
      predictor_indicators = "one_hot", compute_intercept = FALSE, remove_intercept = TRUE, allow_sparse_x = FALSE
    ))
  }
  # dials' parameter of the tube is svm_margin()
  parameters <- c(cost = "cost", rbf_sigma = "rbf_sigma", margin = "svm_margin")
  for (argument in names(parameters)) {
    parsnip::set_model_arg("svm_rbf", "askrff", parsnip = argument, original = argument,
                           func = list(pkg = "dials", fun = parameters[[argument]]), has_submodel = FALSE)
  }
  parsnip::set_pred("svm_rbf", "classification", "askrff", "class", list(
    pre = NULL, post = NULL, func = c(fun = "predict"),
    args = list(object = quote(object$fit), newdata = quote(new_data), type = "class")
  ))
  parsnip::set_pred("svm_rbf", "classification", "askrff", "prob", list(
    pre = NULL, post = class_probability_columns, func = c(fun = "predict"),
    args = list(object = quote(object$fit), newdata = quote(new_data), type = "response")
  ))
  parsnip::set_pred("svm_rbf", "regression", "askrff", "numeric", list(
    pre = NULL, post = NULL, func = c(fun = "predict"),
    args = list(object = quote(object$fit), newdata = quote(new_data), type = "response")
  ))
  invisible(TRUE)
}
