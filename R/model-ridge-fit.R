# Ridge regression's fit from its passes (R/model-setup.R): the sums of a
# pass, the core's path and its lambda by GCV, evidence or leave-one-out
# (a second pass), and the fit object.

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
  # (ridge's fit is final at every candidate: `final` changes nothing)
  solve <- function(model, final = TRUE) ridge_solution(model, passes, lambda, criterion, !is.null(search))
  if (is.null(search)) {
    best <- solve(setup$model)
    selection <- NULL
  } else {
    solver_of <- function(problem) {
      problem_passes <- ridge_passes(problem)
      function(model, final = TRUE) ridge_solution(model, problem_passes, lambda, criterion, TRUE)
    }
    found <- search_scale(setup, solve, solver_of, search, criterion, fun, ridge_chunk, memory = 4)
    best <- found$best
    selection <- found$selection
  }
  fit <- ridge_fit(best$model, best$path, best$sums, start$response, criterion)
  fit$selection <- selection
  if (!setup$streamed) {
    fit$fitted <- fit_scores(fit, start$x, setup$n_threads, "rff_ridge()", fit$response$names)
    fit$residuals <- start$y - fit$fitted
    if (any(start$given_w != 1)) fit$weights <- start$given_w
  }
  fit
}

# Passes over the data for a model (its map): `sums(model)` returns the sums
# of its features and the shifts they were taken from, `loo(model, path)`
# the leave-one-out sums along the path. Chunks are checked against each
# pass's map.
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
      if (sums$n < 2) fail("Ridge regression needs at least two rows of positive weight (`weights`, or the chunks' `w`); the data have %d.",
                           sums$n, class = "data")
      list(sums = sums, shifts = shifts)
    },
    loo = function(model, path) pass(ridge_loo_work(model, path, threads), add_sums, model))
}

# The model's path from a pass's sums: every lambda's criteria, and the
# coefficients at the lambda `criterion` prefers. Leave-one-out takes a
# second pass, over the path the core refined for GCV, when it chooses
# something: lambda, or the scale (`searching`).
ridge_solution <- function(model, passes, lambda, criterion, searching) {
  summed <- passes$sums(model)
  # solved in the passes' unit weights (R/model-weight-units.R)
  path <- core(.cpp_ridge_path(summed$sums, summed$shifts$z, summed$shifts$y,
                               if (is.null(lambda)) numeric() else lambda / passes$unit,
                               if (criterion == "loo") "gcv" else criterion, eigen_progress(model$columns)))
  if (criterion == "loo" && (length(path$lambda) > 1L || searching)) {
    path <- choose_by_loo(path, passes$loo(model, path), summed$sums$n)
  }
  given <- ridge_path_in_given_weights(path, summed$sums, passes$unit)
  list(model = model, sums = given$sums, path = given$path, value = given$path[[criterion]][given$path$chosen])
}

# The path at the lambda of least leave-one-out error, PRESS / (n q) (the
# largest lambda among ties): its coefficients b = V (c / (s + lambda)),
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
  rank <- ncol(path$vectors)
  shrink <- 1 / (path$eigenvalues[seq_len(rank)] + path$lambda[chosen])
  path$coefficients <- path$vectors %*% (path$projections * shrink)
  path$intercept <- drop(path$y_mean - crossprod(path$coefficients, path$z_mean))
  path$rss <- pmax(loo$rss[, chosen], 0)
  path$chosen <- chosen
  path
}

# The fit object from the core's path.
ridge_fit <- function(model, path, sums, response, criterion) {
  coefficients <- path$coefficients
  dimnames(coefficients) <- list(paste0("z", seq_len(nrow(coefficients))), response$names)
  chosen <- path$chosen
  rank <- ncol(path$vectors)
  structure(list(
    map = model$map, fun = model$fun, scaling = model$scaling, coefficients = coefficients,
    intercept = stats::setNames(path$intercept, response$names), lambda = path$lambda[chosen],
    criterion = criterion, path = ridge_path_frame(path),
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
