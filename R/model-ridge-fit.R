# Ridge regression's fit from its passes (R/model-setup.R): the sums of a
# pass, the core's path and its lambda by GCV, evidence or leave-one-out
# (a second pass), or for data in memory with fewer rows than feature
# columns the dual form's path from the rows themselves; and the fit object.

# Fits the ridge regression on the chunks of `data` (one chunk for data in
# memory): the first chunk fixes the map (`map_of`, a function of the data's
# columns), the standardization and the kind of response; every chunk's sums
# are then added in order, on this process's threads or, for a chunk source,
# on the workers of the user's future plan. With a scale search (`search`
# from check_scale_search()), each candidate scale takes such a pass
# (R/model-selection.R) and the best one's sums give the fit.
fit_ridge <- function(data, map_of, standardize, lambda, fun, n_threads, criterion = "gcv", search = NULL) {
  lambda <- check_lambda(lambda)
  if (!is.null(search) && is.function(data$source)) {
    fail("`scale` needs data it can read once per candidate scale: data in memory or a list of chunks; a function chunk source is read once.")
  }
  if (criterion == "loo" && length(lambda) != 1L && is.function(data$source)) {
    # (with a scale search too, refused above)
    fail("`criterion = \"loo\"` needs a second pass over the data: data in memory or a list of chunks; a function chunk source is read once (use \"evidence\" or \"gcv\").")
  }
  # Z'Z, its eigenvectors and the copies a chunk's sums pass through
  setup <- model_setup(data, map_of, standardize, fun, n_threads, memory = 4, encode = ridge_chunk)
  start <- setup$start
  passes <- ridge_passes(setup)
  # a scale search's candidates (`final = FALSE`) skip what only the fit
  # needs (ridge_solution())
  solve <- function(model, final = TRUE) ridge_solution(model, passes, lambda, criterion, !is.null(search), final)
  if (is.null(search)) {
    best <- solve(setup$model)
    selection <- NULL
  } else {
    solver_of <- function(problem) {
      problem_passes <- ridge_passes(problem)
      function(model, final = TRUE) ridge_solution(model, problem_passes, lambda, criterion, TRUE, final)
    }
    found <- search_scale(setup, solve, solver_of, search, criterion, fun, ridge_chunk, memory = 4)
    best <- found$best
    selection <- found$selection
  }
  fit <- ridge_fit(best$model, best$path, best$sums, start$response, criterion, best$form)
  fit$selection <- selection
  if (!setup$streamed) {
    scores <- fit_scores(fit, start$x, setup$n_threads, "rff_ridge()", fit$response$names)
    # start$y is y less the offset, which the fitted values get back
    fit$fitted <- add_offset(scores, start$offset)
    fit$residuals <- start$y - scores
    if (!is.null(start$offset)) fit$offset_values <- drop(start$offset)
    if (any(start$given_w != 1)) fit$weights <- start$given_w
  }
  fit
}

# Passes over the data for a model (its map): `sums(model)` returns the sums
# of its features and the shifts they were taken from, `loo(model, path)`
# the leave-one-out sums along the path; for data in memory, `dual(...)`
# solves on the rows themselves (ridge_dual()), `rows` of positive weight.
# Chunks are checked against each pass's map.
ridge_passes <- function(setup) {
  pass <- model_passes(setup, "rff_ridge()")
  start <- setup$start
  threads <- setup$worker_threads
  list(
    unit = setup$weight_unit,
    sums = function(model) {
      check_map_data(model$map, start$x, if (setup$streamed) sprintf("`x` of chunk %d", setup$first$index) else "x")
      shifts <- model_shifts(model, start, setup$n_threads)
      sums <- pass(ridge_chunk_work(model, shifts, threads), add_sums, model)
      check_ridge_rows(sums$n)
      list(sums = sums, shifts = shifts)
    },
    loo = function(model, path) pass(ridge_loo_work(model, path, threads), add_sums, model),
    dual = if (!setup$streamed) function(model, ...) ridge_dual(model, start, threads, ...),
    rows = sum(start$w > 0))
}

check_ridge_rows <- function(n) {
  if (n < 2) {
    fail("Ridge regression needs at least two rows of positive weight (`weights`, or the chunks' `w`); the data have %d.",
         n, class = "data")
  }
}

# The form that solves a model's ridge regression: the dual on data in
# memory with fewer rows of positive weight than feature columns, if its
# features fit in memory, else the primal. Internal:
# options(askrff.ridge_form = "primal") forces the primal, for the tests and
# benchmarks that compare the two.
ridge_form <- function(passes, model) {
  forced <- check_choice(getOption("askrff.ridge_form", "auto"), c("auto", "primal"), "options(askrff.ridge_form)")
  dual <- forced == "auto" && !is.null(passes$dual) && passes$rows < model$columns
  if (dual && dual_fits(passes$rows, model$columns)) "dual" else "primal"
}

# Whether the dual's peak fits in the memory available: its n x D features
# and the eigenvectors it returns, and three n x n matrices (assumed to
# when the system does not tell).
dual_fits <- function(rows, columns) {
  bytes <- 8 * (2 * as.double(rows) * columns + 3 * as.double(rows)^2)
  if (bytes < 2^26) return(TRUE)
  available <- available_memory()
  is.na(available) || bytes <= available
}

# The model's path in the form ridge_form() picks: every lambda's criteria,
# and the coefficients at the lambda `criterion` prefers. Leave-one-out
# needs the leverages when it chooses something, lambda or the scale
# (`searching`): a second pass in the primal form, over the path the core
# refined for GCV. A candidate of a scale search (not `final`) skips the
# dual's eigenvectors and coefficients, which only the fit needs.
ridge_solution <- function(model, passes, lambda, criterion, searching, final = TRUE) {
  loo <- criterion == "loo" && (is.null(lambda) || length(lambda) > 1L || searching)
  form <- ridge_form(passes, model)
  # solved in the passes' unit weights (R/model-weight-units.R)
  unit_lambda <- if (is.null(lambda)) numeric() else lambda / passes$unit
  if (form == "dual") {
    dual <- passes$dual(model, unit_lambda, criterion, loo, final)
    path <- dual$path
    sums <- dual$sums
    loo_sums <- dual$loo
  } else {
    summed <- passes$sums(model)
    sums <- summed$sums
    path <- core(.cpp_ridge_path(sums, summed$shifts$z, summed$shifts$y, unit_lambda,
                                 if (criterion == "loo") "gcv" else criterion, eigen_progress(model$columns)))
    loo_sums <- if (loo) passes$loo(model, path)
  }
  if (loo) path <- choose_by_loo(path, loo_sums, sums$n)
  given <- ridge_path_in_given_weights(path, sums, passes$unit)
  list(model = model, sums = given$sums, path = given$path, value = given$path[[criterion]][given$path$chosen],
       form = form, final = form == "primal" || final)
}

# The dual form's path (src/core/models/ridge_dual.*) on the rows of data
# in memory (`start`), with the leave-one-out sums when `loo`, and the sums
# the fit keeps (n, log_weight, weight); the eigenvectors and coefficients
# only when `final`.
ridge_dual <- function(model, start, threads, lambda, criterion, loo, final) {
  check_ridge_rows(sum(start$w > 0))
  check_map_data(model$map, start$x, "x")
  input <- core_input(model$map, start$x, "left", threads)
  path <- core(.cpp_ridge_dual(input$map, model$fun, input$x, start$y, start$w, lambda,
                               if (criterion == "loo") "gcv" else criterion,
                               loo, final, eigen_progress(nrow(start$x)), threads))
  list(path = path, sums = list(n = path$n, log_weight = path$log_weight, weight = path$weight),
       loo = if (loo) list(press = path$press, rss = path$rss_loo))
}

# The path at the lambda of least leave-one-out error, PRESS / (n q) (the
# largest lambda among ties): its coefficients (ridge_coefficients()),
# the intercept and the residual sums. Penalties at which a row's leverage
# rounds to 1 (the fit interpolates it, so its leave-one-out residual is
# unbounded) leave the path.
choose_by_loo <- function(path, loo, n) {
  path$loo <- loo$press / (n * ncol(path$projections))
  defined <- is.finite(path$loo)
  if (!any(defined)) {
    fail("Leave-one-out is undefined at every lambda: the fit interpolates some row at each. Give larger `lambda` values, or use `criterion = \"evidence\"` or \"gcv\".")
  }
  for (name in c("lambda", "df", "gcv", "evidence", "loo")) path[[name]] <- path[[name]][defined]
  loo$rss <- loo$rss[, defined, drop = FALSE]
  chosen <- which.min(path$loo)
  # (a dual path without its eigenvectors has no coefficients either)
  if (!is.null(path$vectors)) {
    path$coefficients <- ridge_coefficients(path, path$lambda[chosen])
    path$intercept <- drop(path$y_mean - crossprod(path$coefficients, path$z_mean))
  }
  path$rss <- pmax(loo$rss[, chosen], 0)
  path$chosen <- chosen
  path
}

# b = V (c / (s + lambda)) of a path at `lambda`, with the part along the
# directions the dual form leaves out of V (its remainder, ridge.h).
ridge_coefficients <- function(path, lambda) {
  rank <- ncol(path$vectors)
  b <- path$vectors %*% (path$projections / (path$eigenvalues[seq_len(rank)] + lambda))
  if (length(path$remainder_values) > 0L) {
    b <- b + path$remainder_vectors %*% (path$remainder_projections / (path$remainder_values + lambda))
  }
  b
}

# The fit object from the core's path, solved in `form` ("primal" or
# "dual"); `offset` says whether its rows carried one, which predictions
# for new rows then need.
ridge_fit <- function(model, path, sums, response, criterion, form) {
  offset <- isTRUE(response$offset)
  response$offset <- NULL
  coefficients <- path$coefficients
  dimnames(coefficients) <- list(paste0("z", seq_len(nrow(coefficients))), response$names)
  chosen <- path$chosen
  rank <- ncol(path$vectors)
  structure(list(
    map = model$map, fun = model$fun, scaling = model$scaling, coefficients = coefficients,
    intercept = stats::setNames(path$intercept, response$names), lambda = path$lambda[chosen],
    criterion = criterion, form = form, path = ridge_path_frame(path), offset = offset,
    n = sums$n, log_weight = sums$log_weight, response = response, rss = stats::setNames(path$rss, response$names),
    posterior = list(values = path$eigenvalues[seq_len(rank)], vectors = path$vectors, z_mean = path$z_mean,
                     weight = path$weight)
  ), class = "askrff_ridge")
}

# The path as the fit keeps it: leave-one-out only where it was computed.
ridge_path_frame <- function(path) {
  frame <- data.frame(lambda = path$lambda, df = path$df, gcv = path$gcv, evidence = path$evidence)
  if (!is.null(path$loo)) frame$loo <- path$loo
  frame
}

# One chunk's sums. Made here so that what travels to a worker is the model
# and the shifts, not the caller's data.
ridge_chunk_work <- function(model, shifts, n_threads) {
  force(model)
  force(shifts)
  force(n_threads)
  function(chunk) {
    input <- core_input(model$map, chunk$x, "left", n_threads)
    core(.cpp_cross_products(input$map, model$fun, input$x, chunk$y, chunk$w, shifts$z, shifts$y, n_threads))
  }
}

# One chunk's leave-one-out sums along the path (.cpp_ridge_loo): what
# travels to a worker is the model and the path's eigenvectors.
ridge_loo_work <- function(model, path, n_threads) {
  force(model)
  force(n_threads)
  rank <- ncol(path$vectors)
  path <- list(vectors = path$vectors, values = path$eigenvalues[seq_len(rank)], projections = path$projections,
               z_mean = path$z_mean, y_mean = path$y_mean, weight = path$weight, lambda = path$lambda)
  function(chunk) {
    input <- core_input(model$map, chunk$x, "left", n_threads)
    core(.cpp_ridge_loo(input$map, model$fun, input$x, chunk$y, chunk$w, path$vectors, path$values, path$projections,
                        path$z_mean, path$y_mean, path$weight, path$lambda, n_threads))
  }
}
