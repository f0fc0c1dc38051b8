# The GLM's fit from its passes (R/model-setup.R): the first pass's sums,
# the path the core solves (R/model-glm-solver.R), the scale search
# (R/model-selection.R), a chunk's encoding and work, and the fit object.

# Fits the model on the chunks of `data` (one chunk for data in memory): the
# first chunk fixes the map, the standardization, the response's kind and
# the shifts; a first pass sums the weighted Z'Z (the intercept-only
# model's Hessian up to a factor) and the responses, then the path solver
# in the core asks for its passes (R/model-glm-solver.R). With a scale
# search (`search` from check_scale_search()), the scales are chosen first
# (R/model-glm-scale.R) and the fit is solved at them.
fit_glm <- function(data, family, map_of, standardize, lambda, nfolds, seed, fun, n_threads, search = NULL,
                    scale_by = "evidence", probability = FALSE) {
  traits <- model_family_traits(family)  # checks the name
  probability <- check_flag(probability, "probability")
  if (probability && !identical(traits$mean, "")) {
    fail("`probability = TRUE` calibrates the decision values of a family without probabilities; the \"%s\" family's means are its own.",
         family)
  }
  if (probability && data$streamed) {
    fail("`probability = TRUE` refits the model without each fold of its rows, which needs the data in memory, not a chunk source.")
  }
  lambda <- check_lambda(lambda)
  nfolds <- check_count(nfolds, "nfolds", max = 50)
  if (nfolds < 2L) fail("`nfolds` must be at least 2.")
  if (!is.null(search) && scale_by == "cv" && length(lambda) == 1L) {
    fail("`scale_by = \"cv\"` chooses the scale by the cross-validated deviance, which needs `lambda` NULL or several values; give the kernel's scale with one `lambda`, or use `scale_by = \"evidence\"`.")
  }
  if (!is.null(search) && is.function(data$source)) {
    fail("`scale` needs data it can read once per candidate scale: data in memory or a list of chunks; a function chunk source is read once.")
  }
  encode <- function(chunk, index, arg, model, response) glm_chunk(chunk, index, arg, model, response, family)
  # Z'Z, and per reference its Hessians and their eigenvectors
  setup <- model_setup(data, map_of, standardize, fun, n_threads, memory = 10, encode = encode)
  fold_seed <- resolve_seed(seed)
  # a candidate of a scale search (`final = FALSE`) skips the covariance
  solver_of <- function(problem) {
    run_pass <- model_passes(problem, "rff_glm()")
    function(model, final = TRUE) glm_solution(model, problem, run_pass, family, lambda, nfolds, fold_seed, final)
  }
  solve <- solver_of(setup)
  if (is.null(search)) {
    best <- solve(setup$model)
    selection <- NULL
  } else {
    found <- glm_scale_search(setup, solve, solver_of, search, scale_by, fun, encode, family)
    best <- found$best
    selection <- found$selection
  }
  fit <- glm_fit(best$model, family, setup$start$response, best$solved, best$shifts$z, best$sums, nfolds, fold_seed,
                 best$passes)
  fit$selection <- selection
  if (!setup$streamed) {
    scores <- fit_scores(fit, setup$start$x, setup$n_threads, "rff_glm()", colnames(fit$coefficients))
    fit$linear_predictors <- add_offset(scores, setup$start$offset)
  }
  if (probability) fit$platt <- platt_scaling(fit, setup, nfolds, fold_seed)
  fit
}

# The fit of `model` (its map) on the data of `problem` (a setup), whose
# passes run_pass() runs: the first pass's sums, the path the core solves,
# and the `value` a scale search compares, the cross-validated deviance at
# the chosen lambda.
glm_solution <- function(model, problem, run_pass, family, lambda, nfolds, fold_seed, final = TRUE) {
  start <- problem$start
  threads <- problem$worker_threads
  shifts <- model_shifts(model, start, problem$n_threads)
  sums <- run_pass(ridge_chunk_work(model, list(z = shifts$z, y = rep(0, ncol(start$y))), threads), add_sums, model)
  mean_y <- glm_null_means(family, sums, start$response)
  passes <- 1L
  # with an offset, the intercept-only model takes passes of its own
  null <- if (isTRUE(start$response$offset)) glm_null_model(family, mean_y, function(work) {
    passes <<- passes + 1L
    run_pass(work, add_sums, model)
  })
  pass <- function(coefficients, model_fold, references) {
    passes <<- passes + 1L
    run_pass(glm_pass_work(model, shifts$z, family, nfolds, fold_seed, coefficients, model_fold, references, threads),
             add_glm_sums, model)
  }
  solved <- glm_solve_path(pass, family, sums, mean_y, null, lambda, nfolds, model$columns, hessian = final,
                           unit = problem$weight_unit)
  sums$weight <- sums$weight * problem$weight_unit
  cv <- solved$path$cv
  list(model = model, solved = solved, shifts = shifts, sums = sums, passes = passes, final = final,
       lambda = solved$lambda,
       value = if (is.null(cv)) NA_real_ else min(cv, na.rm = TRUE))
}

# A chunk's data, checked and standardized, its response encoded for the
# family (`response` NULL for the first chunk, which sets the kind and
# levels the others must match, and whether they carry an offset), its
# weights and its offset (a column per predictor, or NULL).
glm_chunk <- function(chunk, index, arg, model, response, family) as_condition_class("data", {
  if (is.null(arg)) {
    x <- check_data(chunk$x, "x", model$d)
    where <- "`y`"
    w_where <- "`weights`"
    o_where <- "`offset`"
  } else {
    checked <- check_chunk(chunk, index, arg, model$d)
    x <- checked$x
    where <- sprintf("`y` of %s", checked$where)
    w_where <- sprintf("`w` of %s", checked$where)
    o_where <- sprintf("`offset` of %s", checked$where)
  }
  x <- apply_scaling(x, model$scaling)
  check_map_data(model$map, x, if (is.null(arg)) "x" else sprintf("`x` of chunk %d", index))
  encoded <- glm_response(chunk$y, nrow(x), where, response, family)
  offset <- check_offset(chunk$offset, nrow(x), ncol(encoded$y), o_where)
  encoded$response$offset <- check_offset_presence(offset, response$offset, o_where)
  list(x = x, y = encoded$y, w = check_weights(chunk$w, nrow(x), w_where), offset = offset, response = encoded$response,
       where = if (is.null(arg)) "the data" else sprintf("chunk %d", index))
})

# One chunk's pass sums. Made here so that what travels to a worker is the
# model, the shift and the coefficients, not the caller's data.
glm_pass_work <- function(model, shift, family, nfolds, fold_seed, coefficients, model_fold, references, n_threads) {
  force(model)
  force(shift)
  force(coefficients)
  force(references)
  function(chunk) {
    input <- core_input(model$map, chunk$x, "left", n_threads)
    core(.cpp_glm_pass(input$map, model$fun, input$x, chunk$y, chunk$w, glm_offset_columns(chunk), chunk$first_row,
                       nfolds, fold_seed, shift, family, coefficients, model_fold, references, n_threads))
  }
}

# A chunk's offset as the core reads it: no columns for none.
glm_offset_columns <- function(chunk) if (is.null(chunk$offset)) matrix(0, nrow(chunk$x), 0L) else chunk$offset

add_glm_sums <- function(total, sums) {
  if (is.null(total)) return(sums)
  for (name in setdiff(names(total), "hessians")) total[[name]] <- total[[name]] + sums[[name]]
  total$hessians <- Map(add_sums, total$hessians, sums$hessians)
  total
}

# The fit object from the solver's result, with the intercepts of the
# unshifted features; `offset` says whether its rows carried one, which
# predictions for new rows then need.
glm_fit <- function(model, family, response, solved, shift, setup, nfolds, fold_seed, passes) {
  offset <- isTRUE(response$offset)
  response$offset <- NULL
  classes <- if (family_predictors(model_family_traits(family), response$levels) > 1L) response$levels else "y"
  coefficients <- solved$coefficients[-1L, , drop = FALSE]
  dimnames(coefficients) <- list(paste0("z", seq_len(nrow(coefficients))), classes)
  intercept <- stats::setNames(solved$coefficients[1L, ] - drop(shift %*% coefficients), classes)
  structure(list(
    map = model$map, fun = model$fun, scaling = model$scaling, family = family, response = response,
    coefficients = coefficients, intercept = intercept, lambda = solved$lambda, path = solved$path,
    deviance = solved$deviance, null_deviance = solved$null_deviance, n = setup$n, weight = setup$weight,
    nfolds = nfolds, fold_seed = fold_seed, passes = passes, offset = offset, likelihood = glm_likelihood(solved, shift)
  ), class = "askrff_glm")
}
