# broom's tidiers for rff_ridge() and rff_glm() fits: their help page and
# augment() (the rows described, their predictions, intervals and residuals;
# deviance residuals for a GLM). tidy() and glance() are in
# R/model-broom-tidy.R; roxygen reads this file first.
# generics and tibble are suggested, not imported: the methods are
# registered on generics' generics when that package loads, and build their
# tibbles after require_suggested() has found tibble.

#' Tidy, glance at and augment random-feature fits
#'
#' Methods of broom's generics ([generics::tidy()], [generics::glance()],
#' [generics::augment()]) for fits of [rff_ridge()] and [rff_glm()]: the
#' coefficients one row per feature column, a one-row summary of the fit,
#' and data with the fitted values and residuals (and for ridge fits
#' standard errors and intervals). Each returns a tibble. They are
#' available once generics (or broom, or tidymodels) is loaded; the tibble
#' package must be installed.
#'
#' **tidy().** One row per coefficient: `term` is `"(Intercept)"` and then
#' the feature columns' names (`z1`, `z2`, ..., as [coef()] gives them),
#' `estimate` the coefficient. A fit to several responses (a numeric matrix)
#' has a `response` column, and one to a factor (ridge, one against the rest)
#' or a multinomial GLM a `class` column, naming the response or level, and
#' lists each one's terms in turn. For a ridge fit to a numeric
#' vector or matrix, `std.error` is the posterior standard deviation of the
#' coefficient in the Bayesian linear model the fit is the posterior mean
#' of (see [predict.askrff_ridge()]): the feature coefficients' posterior
#' covariance is \eqn{\sigma^2 (G + \lambda I)^{-1}} and the intercept's
#' variance \eqn{\sigma^2 (1 / \sum_i w_i + \bar z' (G + \lambda I)^{-1}
#' \bar z)}, the variance `predict(se.fit = TRUE)` gives at a point whose
#' features are all zero, computed from the eigendecomposition the fit
#' keeps, with \eqn{\sigma^2} estimated as \eqn{RSS / (n - df)} for each
#' response. With `conf.int = TRUE`, `conf.low` and `conf.high` are the
#' estimate minus and plus the \eqn{t} quantile on \eqn{n - df} degrees of
#' freedom times `std.error`, as `predict(interval = "confidence")` forms
#' its intervals: credible intervals of the posterior, which is centered on
#' the shrunken estimate, not frequentist confidence intervals of an
#' unbiased one, so no test statistics or p-values are given. Several
#' responses each have their own, at their own \eqn{\lambda} and
#' \eqn{\sigma^2}. A fit to a
#' factor has no standard errors: its indicator columns are not Gaussian
#' responses, and [predict.askrff_ridge()] refuses `se.fit` for it likewise.
#' Nor has a GLM: its penalized estimate has no closed-form posterior, a
#' Laplace approximation would need the Hessian at the fit, \eqn{D^2}
#' numbers per class for \eqn{D} feature columns, which the fit does not
#' keep, and sampling standard errors would ignore the penalty's bias.
#'
#' **glance().** One row; for a ridge fit whose responses have their own
#' \eqn{\lambda} (see [rff_ridge()]), one per response, led by its
#' `response`, with its own `sigma` and `deviance`. For a ridge fit:
#' `lambda`; `df`, the effective
#' degrees of freedom at `lambda` (intercept included); `criterion`, the
#' criterion that chose `lambda` (`"loo"`, `"evidence"` or `"gcv"`; when
#' `lambda` was given as one value it chose nothing); the criteria's values
#' at `lambda`: `gcv`, `evidence` (the log evidence) and, when the path has
#' it, `loo`; `sigma`, the estimate \eqn{\hat\sigma} of
#' [predict.askrff_ridge()] (for several responses that share \eqn{\lambda}
#' or a factor's indicator columns, pooled: the root of their summed
#' residual sums of squares over their number times \eqn{n - df});
#' `deviance`, the weighted residual sum of squares (summed over responses
#' that share \eqn{\lambda}); `df.residual`, \eqn{n - df};
#' `nobs`, the rows of positive weight; `n_features`, the number of feature
#' columns. No \eqn{R^2}: a fit from streamed data does not keep the
#' response's total sum of squares. For a GLM: `lambda`; `family`;
#' `deviance` and `null.deviance` of the fit on all rows; when `lambda` was
#' chosen by cross-validation, `cv` and `cv_se`, the cross-validated deviance
#' per unit weight at `lambda` and its standard error across folds, and
#' `nfolds`; `converged`, whether every fit at `lambda` converged; `nobs`
#' and `n_features`.
#'
#' **augment().** The rows of `newdata`, or else of `data`, as a tibble
#' (with a `.rownames` column when they have row names), and the
#' predictions of [predict.askrff_ridge()] or [predict.askrff_glm()] for
#' them; rows with a missing predictor get `NA`. When `data` has the fit's
#' predictors and as many rows as the fit kept fitted values (one per row
#' fitted and per row [na.exclude()] left out), it is taken to be the data
#' fitted and gets the fit's own fitted values and (ridge) residuals;
#' otherwise it is predicted like `newdata`. Without either, a fit of data in memory gives the
#' fitted values and residuals alone; a fit of streamed data needs rows.
#' The columns added:
#' * `.fitted`: the prediction (for `type.predict = "class"` the predicted
#'   level, a factor); for several responses, a factor's scores or the
#'   multinomial family's link or probabilities, one column
#'   `.fitted_<name>` per response or level instead.
#' * `.resid`: for a ridge fit to a numeric response (`.resid_<name>` for
#'   several), the response less `.fitted`: the fit's residuals for the
#'   data fitted, else where the rows hold the response of a formula fit.
#'   For binomial and Poisson GLMs, the deviance residuals (as [glm()]'s
#'   default, with weight 1) where the rows hold the response of a formula
#'   fit: \eqn{sign(y - \mu) \sqrt{d}} with \eqn{d} the row's deviance; a
#'   binomial response may be a factor, logical or 0/1 vector whose values
#'   are the fit's levels. Factors and the multinomial family get none, as
#'   broom's classifiers do.
#' * `.se.fit` (with `se_fit = TRUE`), `.lower` and `.upper` (with an
#'   `interval`): the standard error and interval of
#'   [predict.askrff_ridge()], for ridge fits to numeric responses
#'   (`.se.fit_<name>`, `.lower_<name>` and `.upper_<name>` for several).
#'
#' @param x A fit of [rff_ridge()] or [rff_glm()].
#' @param conf.int `TRUE` to add the columns `conf.low` and `conf.high`
#'   (ridge fits to numeric responses).
#' @param conf.level The coverage probability of the intervals, between 0
#'   and 1.
#' @param data The data fitted: a data frame (a formula fit) or a numeric
#'   matrix or data frame of the fit's columns, or `NULL`.
#' @param newdata New rows to predict, as `data`, or `NULL`.
#' @param type.predict For ridge fits `"response"` (the scores) or `"class"`
#'   (the level of largest score, for a factor response); for GLMs `"link"`,
#'   `"response"` or `"class"` (binomial and multinomial), as `type` in
#'   [predict.askrff_glm()].
#' @param interval `"none"`, `"confidence"` or `"prediction"`, as in
#'   [predict.askrff_ridge()].
#' @param se_fit `TRUE` to add the standard errors `.se.fit`.
#' @param offset For a fit of the default method whose rows carried an
#'   offset, the offset of the rows of `newdata` or `data`, which are then
#'   predicted, as `offset` in [predict.askrff_ridge()]; `NULL` otherwise (a
#'   formula fit evaluates its own in the rows).
#' @param ... Not used; an unknown argument is an error.
#' @return A tibble: for `tidy()` one row per coefficient (and response or
#'   class), for `glance()` one row, for `augment()` one row per row of the
#'   data, with the columns described in Details.
#' @family models
#' @examplesIf requireNamespace("generics", quietly = TRUE) && requireNamespace("tibble", quietly = TRUE)
#' fit <- rff_ridge(mpg ~ wt + hp, mtcars, kernel = gaussian_kernel(1), n_features = 16,
#'                  standardize = TRUE, seed = 1)
#' generics::tidy(fit, conf.int = TRUE)
#' generics::glance(fit)
#' generics::augment(fit, data = mtcars[, c("mpg", "wt", "hp")], interval = "prediction")
#' glm <- rff_glm(Species ~ ., iris, family = "multinomial", kernel = gaussian_kernel(1),
#'                n_features = 8, standardize = TRUE, seed = 1)
#' generics::glance(glm)
#' head(generics::augment(glm, data = iris, type.predict = "class"))
#' @name askrff_tidiers
NULL

#' @rdname askrff_tidiers
#' @exportS3Method generics::augment
augment.askrff_ridge <- function(x, data = NULL, newdata = NULL, type.predict = c("response", "class"),
                                 interval = c("none", "confidence", "prediction"), conf.level = 0.95, se_fit = FALSE,
                                 offset = NULL, ...) {
  x <- validate_ridge(x, "x")
  check_no_dots(...)
  type.predict <- check_choice(type.predict, c("response", "class"), "type.predict")
  interval <- check_choice(interval, c("none", "confidence", "prediction"), "interval")
  check_flag(se_fit, "se_fit")
  check_conf_level(conf.level)
  kind <- x$response$kind
  uncertain <- se_fit || interval != "none"
  if (uncertain && kind == "factor") {
    fail("`se_fit` and `interval` need a fit to numeric responses; this fit's response is a %s.",
         response_text(x$response))
  }
  if (type.predict == "class" && kind != "factor") fail("`type.predict = \"class\"` needs a fit to a factor response.")
  require_suggested("tibble", "`augment()` of a random-feature fit")
  kept <- if (is.null(x$fitted)) NULL else nrow(stats::naresid(x$design$na_action, x$fitted))
  rows <- augment_rows(x, data, newdata, kept, offset)
  if (uncertain && is.null(rows$table)) {
    fail("`se_fit` and `interval` need `data` or `newdata`: the fit keeps no training rows.")
  }
  out <- augment_table(rows$table, kept)
  if (uncertain) {
    predicted <- predict_rows(x, rows, se.fit = se_fit, interval = interval, level = conf.level, offset = offset)
    fit <- if (se_fit) predicted$fit else predicted
    # an interval's column of each response (an array's for several)
    part <- function(k) if (length(dim(fit)) == 3L) matrix(fit[, k, ], dim(fit)[1L]) else fit[, k]
    names <- x$response$names
    if (interval == "none") {
      out <- add_fitted(out, fit, names)
    } else {
      columns <- c(fit = ".fitted", lwr = ".lower", upr = ".upper")
      for (k in names(columns)) out <- add_fitted(out, part(k), names, columns[[k]])
    }
    if (se_fit) out <- add_fitted(out, predicted$se.fit, names, ".se.fit")
  } else {
    predicted <- if (rows$stored) stats::predict(x, type = type.predict) else {
      predict_rows(x, rows, type = type.predict, offset = offset)
    }
    out <- add_fitted(out, predicted, x$response$names)
  }
  if (kind == "factor") return(out)
  observed <- if (rows$stored) NULL else formula_response(x$design, rows$table)
  residuals <- if (rows$stored) stats::residuals(x) else if (is.numeric(observed)) {
    fitted <- if (kind == "numeric") out$.fitted else as.matrix(out[paste0(".fitted_", x$response$names)])
    if (length(observed) == length(fitted)) observed - fitted
  }
  if (is.null(residuals)) return(out)
  add_fitted(out, residuals, x$response$names, ".resid")
}

#' @rdname askrff_tidiers
#' @exportS3Method generics::augment
augment.askrff_glm <- function(x, data = NULL, newdata = NULL, type.predict = c("link", "response", "class"),
                               offset = NULL, ...) {
  x <- validate_glm(x, "x")
  check_no_dots(...)
  type.predict <- check_choice(type.predict, c("link", "response", "class"), "type.predict")
  check_glm_prediction(x, type.predict, "type.predict")
  require_suggested("tibble", "`augment()` of a random-feature fit")
  kept <- if (is.null(x$linear_predictors)) NULL else nrow(stats::naresid(x$design$na_action, x$linear_predictors))
  rows <- augment_rows(x, data, newdata, kept, offset)
  predict_glm <- function(type) {
    if (rows$stored) stats::predict(x, type = type) else predict_rows(x, rows, type = type, offset = offset)
  }
  fitted <- predict_glm(type.predict)
  out <- add_fitted(augment_table(rows$table, kept), fitted, colnames(x$coefficients))
  if (ncol(x$coefficients) > 1L) return(out)
  observed <- formula_response(x$design, rows$table)
  if (is.null(observed) || NROW(observed) != nrow(out) || !is.null(dim(observed))) return(out)
  y <- glm_observed(x, observed, if (is.null(newdata)) "data" else "newdata")
  eta <- if (type.predict == "link") fitted else predict_glm("link")
  out$.resid <- deviance_residuals(x$family, x$tau, x$epsilon, y, unname(eta))
  # rows without a response or a prediction (a predictor missing) stay NA
  if (any(!is.finite(out$.resid[!is.na(y) & !is.na(eta)]))) {
    fail("The deviance residuals overflow (linear predictors up to %s); the fit's `coefficients` are too large for these data.",
         format(max(abs(eta), na.rm = TRUE), digits = 3))
  }
  out
}

# The rows augment() describes: `newdata`, else `data`, else none (the fit's
# own fitted values only). `stored` says whether the fit's fitted values
# are theirs: no newdata and no `offset` given for them, and data with as
# many rows as the fit kept (`kept`, NULL for a streamed fit) and the fit's
# predictors (the formula's variables, or the map's number of columns);
# other data are predicted, and refused by predict() if they do not fit.
augment_rows <- function(fit, data, newdata, kept, offset = NULL) {
  source <- if (!is.null(newdata)) "newdata" else if (!is.null(data)) "data" else NULL
  if (is.null(source)) {
    no_offset_without_rows(offset)
    if (is.null(kept)) {
      fail("`newdata` or `data` must be given: this fit streamed its data, so it keeps no fitted values.")
    }
    return(list(table = NULL, source = NULL, stored = TRUE))
  }
  table <- if (source == "newdata") newdata else data
  if (isS4(table) && methods::is(table, "Matrix")) table <- as.matrix(table)
  if (!is.data.frame(table) && !is_matrix(table)) fail("`%s` must be a data frame or a matrix.", source)
  predictors <- if (is.null(fit$design)) ncol(table) == fit$map$d else {
    is.data.frame(table) && all(all.vars(fit$design$terms) %in% names(table))
  }
  stored <- source == "data" && !is.null(kept) && nrow(table) == kept && predictors && is.null(offset)
  list(table = table, source = source, stored = stored)
}

# The rows as a tibble, with their row names as broom's augment() keeps
# them; no rows: a tibble of the `kept` rows fitted, without columns.
augment_table <- function(table, kept) {
  if (is.null(table)) return(tibble::tibble(.rows = kept))
  frame <- if (is.data.frame(table)) table else as.data.frame(table)
  out <- tibble::as_tibble(frame, .name_repair = "minimal")
  if (.row_names_info(frame) > 0L) out <- tibble::add_column(out, .rownames = rownames(frame), .before = 1L)
  out
}

# predict() on the rows; its errors about `newdata` name `data` when the
# rows came as `data`.
predict_rows <- function(x, rows, ...) {
  if (rows$source == "newdata") return(stats::predict(x, rows$table, ...))
  tryCatch(stats::predict(x, rows$table, ...), askrff_error = function(e) {
    fail("%s", gsub("`newdata`", "`data`", conditionMessage(e), fixed = TRUE))
  })
}

# A prediction as `.fitted` (a vector or factor), or a matrix as one
# column `<prefix>_<name>` per column, named by the fit's responses or levels.
add_fitted <- function(out, values, names, prefix = ".fitted") {
  if (!is.matrix(values)) {
    out[[prefix]] <- if (is.factor(values)) stats::setNames(values, NULL) else unname(values)
    return(out)
  }
  for (j in seq_len(ncol(values))) out[[paste0(prefix, "_", names[j])]] <- unname(values[, j])
  out
}

# The response of a formula fit in the rows `table`, or NULL when the fit
# has no formula or the rows do not hold its variables: the formula's own
# expression (kept by formula_design() as a language object, never parsed
# from a string), evaluated in the rows as model.frame() evaluates the
# predictors'; a response that fails to evaluate is left out with the
# residuals.
formula_response <- function(design, table) {
  if (is.null(design) || is.null(table) || !is.data.frame(table)) return(NULL)
  expression <- design$response
  if (!is.symbol(expression) && !is.call(expression)) return(NULL)
  if (!all(all.vars(expression) %in% names(table))) return(NULL)
  env <- environment(design$terms)
  tryCatch(eval(expression, table, if (is.null(env)) baseenv() else env), error = function(e) NULL,
           warning = function(w) NULL)
}
