#' Random-feature regression and classification for parsnip
#'
#' `rff_reg()` specifies a kernel machine on random Fourier features for
#' tidymodels: a ridge regression ([rff_ridge()]) for a numeric outcome, or
#' a ridge-penalized logistic or multinomial regression ([rff_glm()]) for a
#' factor, or in the mode `"quantile regression"` a kernel quantile
#' regression ([rff_glm()]'s `"quantile"` family) at the mode's
#' `quantile_levels`. Its one engine, `"askrff"`, fits it with
#' `rff_train()`, which may also be called directly with the same
#' arguments. In a workflow, every argument may be `tune()`d; predictions
#' are of type `"numeric"`, `"conf_int"` and `"pred_int"` (from the ridge
#' fit's Bayesian posterior, see [predict.askrff_ridge()]) for regression,
#' `"class"` and `"prob"` for classification, and `"quantile"` (a column
#' `.pred_quantile` of `hardhat::quantile_pred()`, the levels' predictions
#' in increasing order in every row, so they never cross) for quantile
#' regression.
#'
#' **Arguments.** `penalty` is the \eqn{\lambda} of the fit: of
#' [rff_ridge()] for regression, of [rff_glm()] (deviance plus
#' \eqn{\lambda \|b\|^2}) for classification; left `NULL`, each chooses it
#' itself (exact leave-one-out for the ridge, 5-fold cross-validated
#' deviance for the GLM, the cross-validated check loss for quantiles),
#' which is usually all the tuning the penalty needs. `scale` multiplies the kernel's length scales, by the convention
#' of [kernel_scale]: for a kernel given by name, such as the default
#' `"gaussian"`, they are median distances between the (standardized)
#' training rows, so `scale = 1` is the median heuristic, and the default
#' grid of [rff_scale()] runs from a tenth to ten times it; a kernel object's
#' are in the units of the predictors. `n_features` is the number of
#' frequencies of the map; `kernel` a kernel object or a family name
#' (`"gaussian"`, `"laplace"`, `"exponential"`).
#'
#' **Engine arguments** (`set_engine("askrff", ...)`): `method`,
#' `standardize` (default `TRUE` for a kernel by name, `FALSE` for a kernel
#' object), `criterion` (of the ridge penalty), `nfolds` (of
#' the GLM penalty), `seed` (of the map; `NULL` draws it from R's random
#' number generator, which tune seeds per resample) and `n_threads`.
#' Predictors must be numeric: the model's formula or recipe turns factors
#' into one indicator column per level.
#'
#' The engine is registered with parsnip when askrff is loaded (or, if
#' parsnip is loaded later, when parsnip is), so `rff_reg()` works in
#' `workflows::workflow()`, `tune::tune_grid()` and `tune::last_fit()`,
#' and in parallel tuning once the workers load askrff.
#'
#' @param mode `"unknown"`, `"regression"`, `"classification"` or
#'   `"quantile regression"` (whose levels `parsnip::set_mode()` takes as
#'   `quantile_levels`).
#' @param penalty The penalty \eqn{\lambda}, or `NULL` to let the fit choose it.
#' @param scale The factor of the kernel's length scales (see Details and
#'   [kernel_scale]); default 1.
#' @param n_features The number of frequencies; default 256.
#' @param kernel A kernel object or family name; default `"gaussian"`.
#' @param engine `"askrff"`.
#' @param object,parameters,fresh,... For `update()`: the specification, a
#'   one-row tibble or list of new values, and whether to replace the
#'   arguments (`fresh = TRUE`) or update them; see `parsnip::update_spec()`.
#'   `rff_train()` takes no other arguments: a mistyped engine argument is
#'   an error that names it.
#' @param x,y For `rff_train()`: the predictors (a numeric matrix or data
#'   frame) and the outcome (numeric for regression, a factor for
#'   classification).
#' @param weights Observation weights, or `NULL`.
#' @param quantile_levels For quantile regression, the levels (see `tau` in
#'   [rff_glm()]); `NULL` for the other modes. parsnip passes the mode's.
#' @param method,standardize,criterion,nfolds,seed,n_threads Engine
#'   arguments, passed to [rff_map()], [rff_ridge()] and [rff_glm()].
#' @return `rff_reg()` and `update()`: a parsnip model specification of class
#'   `"rff_reg"`. `rff_train()`: the fit of [rff_ridge()] or [rff_glm()],
#'   whose `map$kernel` is the kernel in the data's units.
#' @family tidymodels
#' @examples
#' if (requireNamespace("parsnip", quietly = TRUE)) {
#'   spec <- rff_reg(scale = 0.5, n_features = 64) |>
#'     parsnip::set_engine("askrff", standardize = TRUE, seed = 1) |>
#'     parsnip::set_mode("regression")
#'   fit <- parsnip::fit(spec, mpg ~ ., data = mtcars)
#'   predict(fit, mtcars[1:3, ])
#'   predict(fit, mtcars[1:3, ], type = "pred_int")
#' }
#' @export
rff_reg <- function(mode = "unknown", penalty = NULL, scale = NULL, n_features = NULL, kernel = NULL,
                    engine = "askrff") {
  require_suggested(c("parsnip", "rlang"), "rff_reg()")
  register_rff_reg()
  args <- list(penalty = rlang::enquo(penalty), scale = rlang::enquo(scale), n_features = rlang::enquo(n_features),
               kernel = rlang::enquo(kernel))
  parsnip::new_model_spec("rff_reg", args = args, eng_args = NULL, mode = mode, user_specified_mode = !missing(mode),
                          method = NULL, engine = engine, user_specified_engine = !missing(engine))
}

#' @rdname rff_reg
#' @exportS3Method stats::update
update.rff_reg <- function(object, parameters = NULL, penalty = NULL, scale = NULL, n_features = NULL, kernel = NULL,
                           fresh = FALSE, ...) {
  require_suggested(c("parsnip", "rlang"), "update() of rff_reg()")
  args <- list(penalty = rlang::enquo(penalty), scale = rlang::enquo(scale), n_features = rlang::enquo(n_features),
               kernel = rlang::enquo(kernel))
  parsnip::update_spec(object = object, parameters = parameters, args_enquo_list = args, fresh = fresh,
                       cls = "rff_reg", ...)
}

#' @export
print.rff_reg <- function(x, ...) {
  parsnip::print_model_spec(x, desc = "Random-feature kernel machine", ...)
  invisible(x)
}

#' @rdname rff_reg
#' @export
rff_train <- function(x, y, weights = NULL, penalty = NULL, scale = 1, n_features = 256L, kernel = "gaussian",
                      method = "iid", standardize = NULL, criterion = c("loo", "evidence", "gcv"), nfolds = 5,
                      seed = NULL, n_threads = NULL, quantile_levels = NULL, ...) {
  # set_engine()'s arguments arrive here: a mistyped one is named
  check_no_dots(...)
  x <- check_data(x, "x")
  # settings only one of the two fits reads are checked for both
  criterion <- check_choice(criterion, c("loo", "evidence", "gcv"), "criterion")
  check_count(nfolds, "nfolds")
  if (!is.null(quantile_levels)) quantile_levels <- check_tau(quantile_levels, model_family_traits("quantile"), "quantile_levels")
  if (!is.null(penalty) && (!is.numeric(penalty) || is.object(penalty) || length(penalty) < 1L ||
                            any(!is.finite(penalty)) || any(penalty <= 0))) {
    fail("`penalty` must be NULL or positive finite numbers: the lambda of rff_ridge() or rff_glm().")
  }
  scaled <- engine_scaling(standardize, kernel, x)
  kernel <- kernel_for_data(kernel, scale, scaled$x, seed)
  standardize <- if (is.null(scaled$scaling)) FALSE else scaled$scaling
  if (is.factor(y) || !is.null(quantile_levels)) {
    if (!is.null(quantile_levels) && is.factor(y)) {
      fail("`quantile_levels` are for a numeric outcome; `y` is a factor.")
    }
    family <- if (!is.null(quantile_levels)) "quantile" else if (nlevels(y) == 2L) "binomial" else "multinomial"
    return(rff_glm(x, y, family = family, tau = quantile_levels, lambda = penalty, nfolds = nfolds, weights = weights,
                   kernel = kernel, n_features = n_features, method = method, seed = seed, standardize = standardize,
                   n_threads = n_threads))
  }
  rff_ridge(x, y, lambda = penalty, weights = weights, kernel = kernel, n_features = n_features, method = method,
            seed = seed, standardize = standardize, criterion = criterion, n_threads = n_threads)
}

# The standardization of a parsnip engine's predictors and the predictors
# standardized; its refusals are about the data, so they name `x`.
engine_scaling <- function(standardize, kernel, x) {
  in_x <- function(e) fail("%s (in `x`)", conditionMessage(e))
  scaling <- tryCatch(column_scaling(resolve_standardize(standardize, NULL, kernel, FALSE), x), askrff_error = in_x)
  list(scaling = scaling, x = tryCatch(apply_scaling(x, scaling), askrff_error = in_x))
}

# parsnip's registry lives in its namespace, so the models are registered
# when both packages are loaded: from .onLoad() if parsnip already is, else
# from a hook on parsnip's loading (and rff_reg() again, harmlessly, by
# rff_reg()).
register_parsnip_models <- function() {
  register_rff_reg()
  register_svm_rbf()
  register_proportional_hazards()
}

register_rff_reg <- function() {
  if (!isNamespaceLoaded("parsnip")) return(invisible(FALSE))
  if ("rff_reg" %in% parsnip::get_model_env()$models) return(invisible(TRUE))
  parsnip::set_new_model("rff_reg")
  for (mode in c("regression", "classification", "quantile regression")) {
    parsnip::set_model_mode("rff_reg", mode)
    parsnip::set_model_engine("rff_reg", mode, "askrff")
    parsnip::set_dependency("rff_reg", "askrff", "askrff", mode = mode)
    # parsnip evaluates the defaults where the mode's levels are bound
    levels <- if (mode == "quantile regression") list(quantile_levels = quote(quantile_levels)) else list()
    parsnip::set_fit("rff_reg", mode, "askrff", list(
      interface = "matrix", protect = c("x", "y", "weights"),
      func = c(pkg = "askrff", fun = "rff_train"), defaults = levels
    ))
    parsnip::set_encoding("rff_reg", mode, "askrff", list(
      predictor_indicators = "one_hot", compute_intercept = FALSE, remove_intercept = TRUE, allow_sparse_x = FALSE
    ))
  }
  arguments <- list(penalty = c("penalty", "dials", "penalty"), scale = c("scale", "askrff", "rff_scale"),
                    n_features = c("n_features", "askrff", "rff_num_features"),
                    kernel = c("kernel", "askrff", "rff_kernel_family"))
  for (argument in arguments) {
    parsnip::set_model_arg("rff_reg", "askrff", parsnip = argument[[1L]], original = argument[[1L]],
                           func = list(pkg = argument[[2L]], fun = argument[[3L]]), has_submodel = FALSE)
  }
  fit_of <- quote(object$fit)
  data_of <- quote(new_data)
  parsnip::set_pred("rff_reg", "regression", "askrff", "numeric", list(
    pre = NULL, post = NULL, func = c(fun = "predict"),
    args = list(object = fit_of, newdata = data_of, type = "response")
  ))
  for (kind in c("confidence", "prediction")) {
    parsnip::set_pred("rff_reg", "regression", "askrff", if (kind == "confidence") "conf_int" else "pred_int", list(
      pre = NULL, post = interval_columns, func = c(fun = "predict"),
      args = list(object = fit_of, newdata = data_of, interval = kind, level = quote(level))
    ))
  }
  parsnip::set_pred("rff_reg", "quantile regression", "askrff", "quantile", list(
    pre = NULL, post = quantile_column, func = c(fun = "predict"),
    args = list(object = fit_of, newdata = data_of, type = "response")
  ))
  parsnip::set_pred("rff_reg", "classification", "askrff", "class", list(
    pre = NULL, post = NULL, func = c(fun = "predict"),
    args = list(object = fit_of, newdata = data_of, type = "class")
  ))
  parsnip::set_pred("rff_reg", "classification", "askrff", "prob", list(
    pre = NULL, post = class_probability_columns, func = c(fun = "predict"),
    args = list(object = fit_of, newdata = data_of, type = "response")
  ))
  invisible(TRUE)
}

# predict(interval = ) gives the columns fit, lwr and upr.
interval_columns <- function(results, object) {
  tibble::tibble(.pred_lower = unname(results[, "lwr"]), .pred_upper = unname(results[, "upr"]))
}

# The levels' predictions, already increasing in each row, as parsnip's
# quantile predictions.
quantile_column <- function(results, object) {
  tibble::tibble(.pred_quantile = hardhat::quantile_pred(unname(results), object$fit$tau))
}

# One column per class, named by its level (parsnip adds ".pred_"); a
# binomial fit predicts the second level's probability.
class_probability_columns <- function(results, object) {
  levels <- object$lvl
  if (!is.matrix(results)) results <- cbind(1 - results, results)
  results <- as.data.frame(unname(results))
  names(results) <- levels
  tibble::as_tibble(results)
}
