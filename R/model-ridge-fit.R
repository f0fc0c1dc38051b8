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
fit_ridge <- function(data, map_of, standardize, lambda, fun, n_threads, criterion = "gcv", search = NULL,
                      shared_lambda = NULL) {
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
  shared <- resolve_shared_lambda(shared_lambda, start$response)
  passes <- ridge_passes(setup)
  # a scale search's candidates (`final = FALSE`) skip what only the fit
  # needs (ridge_solution())
  solve <- function(model, final = TRUE) {
    ridge_solution(model, passes, lambda, criterion, !is.null(search), final, shared)
  }
  if (is.null(search)) {
    best <- solve(setup$model)
    selection <- NULL
  } else {
    solver_of <- function(problem) {
      problem_passes <- ridge_passes(problem)
      function(model, final = TRUE) ridge_solution(model, problem_passes, lambda, criterion, TRUE, final, shared)
    }
    found <- search_scale(setup, solve, solver_of, search, criterion, fun, ridge_chunk, memory = 4)
    best <- found$best
    selection <- found$selection
  }
  fit <- ridge_fit(best$model, best$path, best$sums, start$response, criterion, best$form, shared)
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
# and the coefficients at the lambdas `criterion` prefers: one for all
# responses when `shared`, else one per response (R/model-ridge-path.R).
# Leave-one-out needs the leverages when it chooses something, lambda or
# the scale (`searching`): a second pass in the primal form, over the paths
# the core refined for GCV. A candidate of a scale search (not `final`)
# skips the dual's eigenvectors and coefficients, which only the fit needs.
ridge_solution <- function(model, passes, lambda, criterion, searching, final, shared) {
  loo <- criterion == "loo" && (is.null(lambda) || length(lambda) > 1L || searching)
  form <- ridge_form(passes, model)
  # solved in the passes' unit weights (R/model-weight-units.R)
  unit_lambda <- if (is.null(lambda)) numeric() else lambda / passes$unit
  by <- if (criterion == "loo") "gcv" else criterion
  if (form == "dual") {
    dual <- passes$dual(model, unit_lambda, by, shared, loo, final)
    path <- dual$path
    sums <- dual$sums
    loo_sums <- dual$loo
  } else {
    summed <- passes$sums(model)
    sums <- summed$sums
    path <- core(.cpp_ridge_path(sums, summed$shifts$z, summed$shifts$y, unit_lambda, by, shared,
                                 eigen_progress(model$columns)))
    loo_sums <- if (loo) passes$loo(model, path)
  }
  path <- path_rows(path)
  if (loo) path <- choose_by_loo(path, loo_sums, sums$n)
  given <- ridge_path_in_given_weights(path, sums, passes$unit)
  list(model = model, sums = given$sums, path = given$path, lambda = given$path$frame$lambda[given$path$chosen],
       value = criterion_value(given$path, criterion), form = form, final = form == "primal" || final)
}

# The dual form's path (src/core/models/ridge_dual.*) on the rows of data
# in memory (`start`), with the leave-one-out sums when `loo`, and the sums
# the fit keeps (n, log_weight, weight); the eigenvectors and coefficients
# only when `final`.
ridge_dual <- function(model, start, threads, lambda, criterion, shared, loo, final) {
  check_ridge_rows(sum(start$w > 0))
  check_map_data(model$map, start$x, "x")
  input <- core_input(model$map, start$x, "left", threads)
  path <- core(.cpp_ridge_dual(input$map, model$fun, input$x, start$y, start$w, lambda, criterion, shared, loo, final,
                               eigen_progress(nrow(start$x)), threads))
  list(path = path, sums = list(n = path$n, log_weight = path$log_weight, weight = path$weight),
       loo = if (loo) list(press = path$press, rss = path$rss_loo))
}

# The fit object from the core's path, solved in `form` ("primal" or
# "dual"), with one lambda for all responses (`shared`) or one each;
# `offset` says whether its rows carried one, which predictions for new rows
# then need.
ridge_fit <- function(model, path, sums, response, criterion, form, shared) {
  offset <- isTRUE(response$offset)
  response$offset <- NULL
  coefficients <- path$coefficients
  dimnames(coefficients) <- list(paste0("z", seq_len(nrow(coefficients))), response$names)
  lambda <- path$frame$lambda[path$chosen]
  if (!shared) names(lambda) <- response$names
  rank <- ncol(path$vectors)
  structure(list(
    map = model$map, fun = model$fun, scaling = model$scaling, coefficients = coefficients,
    intercept = stats::setNames(path$intercept, response$names), lambda = lambda,
    criterion = criterion, form = form, path = ridge_path_frame(path, shared, response$names), offset = offset,
    n = sums$n, log_weight = sums$log_weight, response = response, rss = stats::setNames(path$rss, response$names),
    posterior = list(values = path$eigenvalues[seq_len(rank)], vectors = path$vectors, z_mean = path$z_mean,
                     weight = path$weight)
  ), class = "askrff_ridge")
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

# One chunk's leave-one-out sums along the paths (.cpp_ridge_loo; the core's
# `lambda`, a column per group of responses that share one): what
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
