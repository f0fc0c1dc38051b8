#' Cox proportional hazards on random features for parsnip
#'
#' The engine `"askrff"` of parsnip's `proportional_hazards()` (mode
#' `"censored regression"`) fits a Cox model on random Fourier features with
#' `rff_cox_train()` (which may also be called directly): [rff_glm()] with
#' the `"cox"` family, whose section on the Cox model says how the partial
#' likelihood, ties, chunks and the baseline hazard are handled. It is an
#' extension of parsnip alone: censored, whose engines `"survival"` and
#' `"glmnet"` this one sits beside, need not be installed.
#'
#' **Arguments as glmnet reads them.** `penalty` is glmnet's \eqn{\lambda}
#' with `alpha = 0`, as censored's `"glmnet"` engine passes it: glmnet
#' minimizes \eqn{-\ell / N + \lambda_g \|b\|^2 / 2}, [rff_glm()]
#' \eqn{-2\ell + \lambda \|b\|^2}, the same minimizer at \eqn{\lambda = N
#' \lambda_g} (\eqn{N} the rows fitted, or the sum of their weights), so a
#' workflow moves from glmnet's linear Cox model to a kernel one by changing
#' the engine. `mixture` must be 0 (or left `NULL`): the engine's penalty is
#' the ridge's; a lasso part is refused.
#'
#' **Defaults.** Left `NULL`, `penalty` is chosen by `nfolds`-fold
#' cross-validation of the partial likelihood (Verweij and van Houwelingen's,
#' as [rff_glm()] does), and the Gaussian kernel's length scale by the data
#' (see [kernel_scale]).
#'
#' **Predictions.** `type = "survival"` gives, per row, a tibble of
#' `.eval_time` and `.pred_survival`, \eqn{\exp(-\Lambda_0(t) e^{\eta})}
#' with Breslow's baseline \eqn{\Lambda_0}; `type = "time"` the restricted
#' mean survival time, the area under that curve from 0 to the fit's last
#' event time (later times have no baseline to extrapolate); `type =
#' "linear_pred"` the linear predictor \eqn{\eta}, by parsnip's convention
#' negated unless `increasing = FALSE`, so that it increases with the
#' survival time as other censored regression models' do. `tune_grid()`
#' scores them by `yardstick::concordance_survival()` (of the `"time"`
#' predictions) as they are; the Brier score and the other dynamic metrics
#' need parsnip's censoring weights, for which parsnip requires censored.
#'
#' **Engine arguments** (`set_engine("askrff", ...)`): `ties` (`"efron"`,
#' the default as `survival::coxph()`'s, or `"breslow"`), `kernel` (a
#' family name or a kernel object, see [rff_glm()]), `n_features` (default
#' 256), `method`, `standardize`, `nfolds`, `seed` (of the map and the
#' folds; `NULL` draws it from R's random number generator, which tune
#' seeds per resample) and `n_threads`.
#'
#' @param formula A formula with a `survival::Surv(time, event)` response of
#'   right-censored times.
#' @param data A data frame.
#' @param weights Case weights (nonnegative numbers, one per row of `data`),
#'   or `NULL`.
#' @param penalty glmnet's \eqn{\lambda} (positive), or `NULL` to choose it.
#' @param mixture `NULL` or 0: the engine fits ridge penalties only.
#' @param ties,kernel,n_features,method,standardize,nfolds,seed,n_threads
#'   Passed to [rff_glm()].
#' @param ... Not used: a mistyped engine argument is an error that names it.
#' @return `rff_cox_train()`, the fit of [rff_glm()].
#' @family tidymodels
#' @examples
#' if (requireNamespace("parsnip", quietly = TRUE) && requireNamespace("survival", quietly = TRUE)) {
#'   spec <- parsnip::proportional_hazards(penalty = 0.01) |>
#'     parsnip::set_engine("askrff", n_features = 64, seed = 1)
#'   fit <- parsnip::fit(spec, survival::Surv(time, status) ~ age + ph.ecog, data = survival::lung)
#'   predict(fit, survival::lung[1:3, ], type = "survival", eval_time = c(180, 365))$.pred[[1]]
#'   predict(fit, survival::lung[1:3, ], type = "time")
#' }
#' @export
rff_cox_train <- function(formula, data, weights = NULL, penalty = NULL, mixture = NULL, ties = "efron", kernel = NULL,
                          n_features = 256L, method = "iid", standardize = NULL, nfolds = 5, seed = NULL,
                          n_threads = NULL, ...) {
  check_no_dots(...)
  if (!is.null(mixture) && !(is_single_number(mixture) && mixture == 0)) {
    fail("`mixture` must be 0 (or NULL): the \"askrff\" engine of proportional_hazards() fits a ridge penalty, not a lasso part.")
  }
  if (!is.data.frame(data)) fail("`data` must be a data frame.")
  if (!is.null(weights)) weights <- check_case_weights(weights, nrow(data))
  lambda <- if (!is.null(penalty)) check_positive_number(penalty, "penalty") * fitted_weight(formula, data, weights)
  # the weights enter the call as values: a name would be looked up in
  # `data` first, as model.frame() does
  fit <- eval(bquote(rff_glm(formula, data, family = "cox", weights = .(weights), lambda = lambda, ties = ties,
                             kernel = kernel, n_features = n_features, method = method, standardize = standardize,
                             nfolds = nfolds, seed = seed, n_threads = n_threads)))
  fit$call <- match.call()
  fit
}

# Case weights as parsnip hands them (hardhat's classes, or numbers), one
# per row of the data.
check_case_weights <- function(weights, n) {
  weights <- unclass(weights)
  if (!is.numeric(weights) || length(weights) != n || anyNA(weights) || any(!is.finite(weights)) || any(weights < 0)) {
    fail("`weights` must be %d finite nonnegative numbers, one per row of `data`.", n)
  }
  as.double(weights)
}

# glmnet's N: the weight of the rows the fit keeps (those of `formula`'s
# variables without NA).
fitted_weight <- function(formula, data, weights) {
  complete <- tryCatch(stats::complete.cases(stats::model.frame(formula, data, na.action = stats::na.pass)),
                       error = function(e) fail("The model frame of `formula` in `data` could not be built: %s",
                                                conditionMessage(e)))
  if (is.null(weights)) sum(complete) else sum(weights[complete])
}

#' @rdname rff_cox_train
#' @param object For `rff_cox_predict()`, a Cox fit of [rff_glm()] (the
#'   engine's `fit`).
#' @param new_data For `rff_cox_predict()`, the data to predict (as for
#'   [predict.askrff_glm()]'s `newdata`).
#' @param type For `rff_cox_predict()`: `"survival"` or `"time"`.
#' @param eval_time For `type = "survival"`, the finite times at which to
#'   give the survival probabilities.
#' @return `rff_cox_predict()`, the function the engine's `"survival"` and
#'   `"time"` predictions call: for `"survival"` a tibble whose `.pred` holds
#'   a tibble of `.eval_time` (`eval_time` as given) and `.pred_survival`
#'   per row, for `"time"` the restricted mean survival times (NA for rows
#'   with a missing predictor).
#' @export
rff_cox_predict <- function(object, new_data, type = c("survival", "time"), eval_time = NULL) {
  object <- validate_glm(object, "object")
  if (!is_cox_fit(object)) fail("`object` must be a Cox fit of rff_glm(); this one's family is \"%s\".", object$family)
  type <- check_choice(type, c("survival", "time"), "type")
  times <- object$baseline$time
  if (type == "time") {
    if (!is.null(eval_time)) fail("`eval_time` is for `type = \"survival\"`; the restricted mean needs none.")
    if (times[1L] < 0) fail("The fit has event times before 0, from which the restricted mean survival time is measured.")
  } else if (!is.numeric(eval_time) || is.object(eval_time) || length(eval_time) < 1L || anyNA(eval_time) ||
             any(!is.finite(eval_time))) {
    fail("`eval_time` must be one or more finite times at which to give the survival probabilities.")
  }
  in_new_data <- function(e) fail("%s (in `new_data`)", conditionMessage(e))
  at <- if (type == "time") times else eval_time
  survival <- tryCatch(stats::predict(object, new_data, type = "survival", times = at), askrff_error = in_new_data)
  if (type == "time") {
    # the area under each row's step function from 0 to the last event
    # time: 1 until the first, then the survival at each until the next
    return(unname(drop(cbind(1, survival[, -length(times), drop = FALSE]) %*% diff(c(0, times)))))
  }
  require_suggested("tibble", "the survival predictions of the \"askrff\" engine")
  rows <- lapply(seq_len(nrow(survival)), function(i) {
    tibble::new_tibble(list(.eval_time = eval_time, .pred_survival = unname(survival[i, ])), nrow = length(eval_time))
  })
  tibble::new_tibble(list(.pred = rows), nrow = length(rows))
}

# parsnip's class of an engine fit is the fit's first class after "_",
# which R's namespace parser needs quoted
#' @rawNamespace S3method(parsnip::predict_linear_pred, "_askrff_glm")
`predict_linear_pred._askrff_glm` <- function(object, new_data, ..., increasing = TRUE) {
  eta <- NextMethod()
  if (check_flag(increasing, "increasing")) -eta else eta
}

# Registered beside rff_reg() (register_parsnip_models()): parsnip's own
# proportional_hazards() gains the engine where parsnip has that model.
register_proportional_hazards <- function() {
  if (!isNamespaceLoaded("parsnip")) return(invisible(FALSE))
  models <- parsnip::get_model_env()
  if (!"proportional_hazards" %in% models$models) return(invisible(FALSE))
  if ("askrff" %in% models$proportional_hazards$engine) return(invisible(TRUE))
  mode <- "censored regression"
  parsnip::set_model_engine("proportional_hazards", mode, "askrff")
  parsnip::set_dependency("proportional_hazards", "askrff", "askrff", mode = mode)
  parsnip::set_dependency("proportional_hazards", "askrff", "survival", mode = mode)
  parsnip::set_fit("proportional_hazards", mode, "askrff", list(
    interface = "formula", protect = c("formula", "data", "weights"),
    func = c(pkg = "askrff", fun = "rff_cox_train"), defaults = list()
  ))
  parsnip::set_encoding("proportional_hazards", mode, "askrff", list(
    predictor_indicators = "none", compute_intercept = FALSE, remove_intercept = FALSE, allow_sparse_x = FALSE
  ))
  for (argument in c("penalty", "mixture")) {
    parsnip::set_model_arg("proportional_hazards", "askrff", parsnip = argument, original = argument,
                           func = list(pkg = "dials", fun = argument), has_submodel = FALSE)
  }
  parsnip::set_pred("proportional_hazards", mode, "askrff", "linear_pred", list(
    pre = NULL, post = NULL, func = c(fun = "predict"),
    args = list(object = quote(object$fit), newdata = quote(new_data), type = "link")
  ))
  for (type in c("survival", "time")) {
    parsnip::set_pred("proportional_hazards", mode, "askrff", type, list(
      pre = NULL, post = NULL, func = c(pkg = "askrff", fun = "rff_cox_predict"),
      args = c(list(object = quote(object$fit), new_data = quote(new_data), type = type),
               if (type == "survival") list(eval_time = quote(eval_time)))
    ))
  }
  invisible(TRUE)
}
