# Probabilities for a family that gives only decision values (the support
# vector machines): Platt scaling (Platt 1999), a logistic regression of
# each class on its decision value, fitted on out-of-fold decision values so
# that the sigmoid does not learn the fit's own overconfidence, with
# Platt's targets (N+ + 1) / (N+ + 2) and 1 / (N- + 2) in place of 1 and 0
# (a sigmoid never reaches either).

# The sigmoids of a fit of data in memory (`setup$start`, the first and
# only chunk: standardized rows, encoded response, weights in the passes'
# unit and offset): for each of the engine's cross-validation folds, the fit
# at the chosen lambda on the other folds' rows (their weights zero) with
# the fit's map, and its decision values on the fold's rows.
platt_scaling <- function(fit, setup, nfolds, fold_seed) {
  start <- setup$start
  n_threads <- setup$n_threads
  # the fit's lambda is in the given weights (R/model-weight-units.R)
  weights <- start$w * setup$weight_unit
  n <- nrow(start$x)
  folds <- core(.cpp_cv_folds(0, n, nfolds, fold_seed))
  encoded <- start$y
  levels <- start$response$levels
  y <- factor(levels[if (ncol(encoded) == 1L) encoded[, 1L] + 1L else max.col(encoded)], levels = levels)
  fun <- if (identical(fit$fun, "")) NULL else fit$fun
  decision <- matrix(NA_real_, n, ncol(encoded))
  for (f in seq_len(nfolds)) {
    held <- folds == f & start$w > 0
    if (!any(held)) next
    refit <- tryCatch(
      rff_glm.default(start$x, y, fit$map, family = fit$family, lambda = fit$lambda, weights = weights * (folds != f),
                      standardize = FALSE, fun = fun, n_threads = n_threads, offset = start$offset),
      askrff_error = function(e) {
        fail("`probability = TRUE` refits the model without each of its %d folds, and the fit without fold %d failed: %s",
             nfolds, f, conditionMessage(e), class = "data")
      })
    scores <- fit_scores(refit, start$x[held, , drop = FALSE], n_threads, "rff_glm()", NULL)
    decision[held, ] <- if (is.null(start$offset)) scores else scores + start$offset[held, , drop = FALSE]
  }
  kept <- !is.na(decision[, 1L])
  coefficients <- vapply(seq_len(ncol(encoded)), function(k) {
    positive <- encoded[kept, k] == 1
    w <- weights[kept]
    target <- ifelse(positive, (sum(positive) + 1) / (sum(positive) + 2), 1 / (sum(!positive) + 2))
    stats::glm.fit(cbind(1, decision[kept, k]), target, weights = w, family = stats::quasibinomial())$coefficients
  }, numeric(2))
  list(intercept = coefficients[1L, ], slope = coefficients[2L, ])
}

# The probabilities from decision values eta (rows by predictors): of the
# second level for one predictor, else of each class, the classes' sigmoids
# normalized to sum to 1 (one class against the rest gives no joint law).
platt_probabilities <- function(platt, eta) {
  p <- stats::plogis(sweep(sweep(eta, 2L, platt$slope, "*"), 2L, platt$intercept, "+"))
  if (ncol(p) > 1L) p / rowSums(p) else p
}

# A fit's `platt`: NULL, or a finite intercept and slope per predictor.
validate_platt <- function(platt, classes, where) {
  if (is.null(platt)) return(invisible())
  numbers <- function(v) is.double(v) && !is.object(v) && length(v) == classes && all(is.finite(v))
  if (!is.list(platt) || !numbers(platt$intercept) || !numbers(platt$slope)) {
    fail("`%s` must be NULL or a list of a finite `intercept` and `slope` per predictor (%d), as rff_glm(probability = TRUE) makes.",
         where, classes)
  }
}
