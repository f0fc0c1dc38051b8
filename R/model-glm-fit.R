# The GLM's fit from its passes (R/model-setup.R): the first pass's sums,
# the path the core solves (R/model-glm-solver.R), the scale search
# (R/model-selection.R), a chunk's encoding and work, and the fit object.

# Fits the model on the chunks of `data` (one chunk for data in memory): the
# first chunk fixes the map, the standardization, the response's kind and
# the shifts; a first pass sums the weighted Z'Z (the intercept-only
# model's Hessian up to a factor) and the responses, then the path solver
# in the core asks for its passes (R/model-glm-solver.R). With a scale
# search (`search` from check_scale_search()), the scales are chosen first
# (R/model-glm-scale.R) and the fit is solved at them. `tau` holds the
# levels of a family of values (check_tau()), NULL for the others, `epsilon`
# the tube of a family of real numbers (check_epsilon()), NULL for the others; `ties`
# a Cox model's (check_ties()), whose event times are read first
# (R/model-glm-cox.R).
fit_glm <- function(data, family, tau, epsilon, map_of, standardize, lambda, nfolds, seed, fun, n_threads, search = NULL,
                    scale_by = "evidence", probability = FALSE, ties = NULL) {
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
  times <- if (traits$response == "survival") cox_event_times(data)
  encode <- function(chunk, index, arg, model, response) glm_chunk(chunk, index, arg, model, response, family, tau, times)
  # Z'Z, and per reference its Hessians and their eigenvectors
  setup <- model_setup(data, map_of, standardize, fun, n_threads, memory = 10, encode = encode)
  fold_seed <- resolve_seed(seed)
  # a candidate of a scale search (`final = FALSE`) skips the chosen
  # lambda's fit and its covariance
  solver_of <- function(problem) {
    run_pass <- model_passes(problem, "rff_glm()")
    function(model, final = TRUE) {
      glm_solution(model, problem, run_pass, family, tau, epsilon, lambda, nfolds, fold_seed, final,
                   list(times = times, ties = ties))
    }
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
  fit <- glm_fit(best$model, family, tau, epsilon, setup$start$response, best$solved, best$shifts$z, best$sums, nfolds,
                 fold_seed, best$passes)
  fit$selection <- selection
  fit$path_rows <- best$path_rows
  if (!is.null(ties)) fit[c("ties", "baseline")] <- list(ties, best$baseline$hazard)
  if (!setup$streamed) {
    scores <- fit_scores(fit, setup$start$x, setup$n_threads, "rff_glm()", colnames(fit$coefficients))
    fit$linear_predictors <- add_offset(scores, setup$start$offset)
    if (!is.null(ties)) {
      y <- data$source[[1L]]$y
      w <- if (is.null(setup$start$given_w)) rep(1, nrow(y)) else setup$start$given_w
      fit$concordance <- cox_concordance(y, fit$linear_predictors[, 1L], setup$start$given_w)
      fit$likelihood <- cox_likelihood(fit, fit$likelihood, setup$start$x, y, w, times, ties, setup$n_threads)
    }
  }
  if (probability) fit$platt <- platt_scaling(fit, setup, nfolds, fold_seed)
  fit
}

# The fit of `model` (its map) on the data of `problem` (a setup), whose
# passes run_pass() runs: the first pass's sums, the path the core solves,
# and the `value` a scale search compares, the cross-validated deviance at
# the chosen lambda. The intercept-only model the path starts from follows
# from the responses' means, unless an offset moves it or the family's
# response is numbers (a quantile, an expectile or support vector
# regression's intercept is no function of the mean):
# then it is fitted first (R/model-glm-null.R). A Cox model (`cox`: its
# event `times` and `ties`) starts at b = 0, whatever its offset, runs each
# of the solver's passes as two over the data (cox_engine_pass()) and ends
# with its baseline hazard. One lambda's fit may start `from` the solution
# of another problem on the same model (its `solved$coefficients` and
# `shifts$z`, start_on_shift()).
glm_solution_at <- function(model, problem, run_pass, family, tau, epsilon, lambda, nfolds, fold_seed, final = TRUE,
                            cox = NULL, from = NULL) {
  start <- problem$start
  threads <- problem$worker_threads
  traits <- model_family_traits(family)
  shifts <- model_shifts(model, start, problem$n_threads)
  # numbers are summed less the first row's, so that their variance does not cancel
  y_shift <- if (numeric_response(traits)) shifts$y else rep(0, ncol(start$y))
  every <- if (problem$streamed) 1L else hessian_sample(sum(start$w > 0))
  sums <- run_pass(glm_first_work(model, list(z = shifts$z, y = y_shift), every, fold_seed, threads), add_sums, model)
  mean_y <- glm_null_means(family, sums, start$response, y_shift)
  parameters <- list(tau = if (is.null(tau)) numeric() else tau, epsilon = if (is.null(epsilon)) 0 else epsilon,
                     width = smoothing_width(traits, sums))
  passes <- 1L
  offset <- isTRUE(start$response$offset)
  survival <- traits$response == "survival"
  null <- if ((offset && !survival) || numeric_response(traits)) {
    glm_null_model(family, parameters, mean_y, offset, function(work) {
      passes <<- passes + 1L
      run_pass(work, add_sums, model)
    })
  }
  glm_work <- function(request) glm_pass_work(model, shifts$z, family, tau, epsilon, nfolds, fold_seed, request, threads)
  risk_work <- function(request) {
    cox_risk_work(model, shifts$z, length(cox$times), nfolds, fold_seed, request, threads)
  }
  first <- TRUE
  pass <- function(request) {
    if (!survival) {
      passes <<- passes + 1L
      return(run_pass(glm_work(request), add_glm_sums, model))
    }
    passes <<- passes + 2L
    sums <- cox_engine_pass(request, run_pass, risk_work, glm_work, cox$ties, model, first)
    first <<- FALSE
    sums
  }
  solved <- glm_solve_path(pass, family, parameters, sums, mean_y, null, lambda, nfolds, model$columns,
                           final = final, unit = problem$weight_unit, start = start_on_shift(from, shifts$z))
  baseline <- if (survival && final) {
    passes <- passes + 1L
    cox_baseline(solved$coefficients[-1L, 1L], shifts$z, cox$times, cox$ties, risk_work, run_pass, model,
                 problem$weight_unit)
  }
  if (!is.null(baseline)) solved$saturated <- baseline$saturated
  sums$weight <- sums$weight * problem$weight_unit
  sums$gram_weight <- NULL
  cv <- solved$path$cv
  list(model = model, solved = solved, shifts = shifts, sums = sums, passes = passes, final = final,
       lambda = solved$lambda, baseline = baseline,
       value = if (is.null(cv)) NA_real_ else min(cv, na.rm = TRUE))
}

# The width a loss with kinks is smoothed at along its path, which the core
# then shrinks for the chosen lambda's fit (src/core/models/glm_path.h): a
# share of the residuals' scale, the margin (1) for classes and the
# responses' standard deviation for numbers (1 if they are constant), from
# the first pass's sums `sums` (of the numbers less the first row's); 0 for
# a family without kinks. The epsilon-insensitive loss takes the quantiles'
# width whatever its epsilon: a residual's scale is the responses' either
# way, and where epsilon < h its two bands overlap near r = 0, which adds
# their excesses (at most h / 2 in all, model_families.cpp) but keeps the
# loss convex; the path shrinks h to the exact fit.
smoothing_width <- function(traits, sums) {
  if (!traits$kinked) return(0)
  if (!numeric_response(traits)) return(kinked_width)
  mean <- sums$y_sum[1L] / sums$weight
  sd <- sqrt(max(sums$y_squares[1L] / sums$weight - mean^2, 0))
  kinked_width * (if (sd > 0) sd else 1)
}

# The share of the residuals' scale the path of a loss with kinks is
# smoothed at (bench/kinks.R measured it: smaller widths make the
# cross-validation fits slower to converge for the same choice of lambda).
kinked_width <- 0.25

# A chunk's data, checked and standardized, its response encoded for the
# family (`response` NULL for the first chunk, which sets the kind and
# levels the others must match, and whether they carry an offset), its
# weights and its offset (a column per predictor, or NULL: one given for
# the levels of values is every level's).
glm_chunk <- function(chunk, index, arg, model, response, family, tau, times = NULL) as_condition_class("data", {
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
  encoded <- if (is.null(times)) glm_response(chunk$y, nrow(x), where, response, family, tau) else
    cox_response(chunk$y, nrow(x), where, times)
  offset <- check_offset(chunk$offset, nrow(x), offset_columns(family, ncol(encoded$y)), o_where)
  encoded$response$offset <- check_offset_presence(offset, response$offset, o_where)
  # one offset for every level's predictor
  if (!is.null(offset) && ncol(offset) < ncol(encoded$y)) offset <- offset[, rep(1L, ncol(encoded$y)), drop = FALSE]
  list(x = x, y = encoded$y, w = check_weights(chunk$w, nrow(x), w_where), offset = offset, response = encoded$response,
       rank = if (is.null(encoded$rank)) integer() else encoded$rank,
       where = if (is.null(arg)) "the data" else sprintf("chunk %d", index))
})

# One chunk's sums of the GLM's first pass: those of .cpp_cross_products
# (ridge_chunk_work()), whose Z'WZ, Z'Wy and column sums take one row in
# `every` weighted by `every` (the rows the path's sampled Hessians sum,
# .cpp_hessian_rows(): its first reference, the intercept-only model's
# Hessian, is a preconditioner as theirs are, and all rows' Z'WZ would cost
# n D^2, at a million rows and 2,048 columns a minute), and whose responses'
# sums, weights and rows are every row's; `gram_weight` is the weight the
# sampled sums carry, with which the path centres them (glm_solve_path()).
glm_first_work <- function(model, shifts, every, fold_seed, n_threads) {
  sums_of <- ridge_chunk_work(model, shifts, n_threads)
  force(every)
  force(fold_seed)
  all_rows <- function(chunk) {
    sums <- sums_of(chunk)
    c(sums, list(gram_weight = sums$weight))
  }
  function(chunk) {
    rows <- if (every > 1L) core(.cpp_hessian_rows(chunk$first_row, nrow(chunk$x), every, fold_seed))
    # a sample without weight (options(askrff.hessian_rows) near 1) has no Hessian
    if (every == 1L || !any(chunk$w[rows] > 0)) return(all_rows(chunk))
    sample <- list(x = chunk$x[rows, , drop = FALSE], y = chunk$y[rows, , drop = FALSE], w = chunk$w[rows] * every)
    sums <- sums_of(sample)
    y <- sweep(chunk$y, 2L, shifts$y)
    positive <- chunk$w > 0
    c(sums[c("zz", "zy", "z_sum")],
      list(y_sum = colSums(y * chunk$w), y_squares = colSums(y^2 * chunk$w), weight = sum(chunk$w),
           log_weight = sum(log(chunk$w[positive])), n = sum(positive), gram_weight = sums$weight))
  }
}

# One chunk's pass sums, of what the path solver's `request` asks for
# (.cpp_glm_path_next; a Cox model's with its `log_hazard`, R/model-glm-cox.R).
# Made here so that what travels to a worker is the model, the shift and
# the request, not the caller's data.
glm_pass_work <- function(model, shift, family, tau, epsilon, nfolds, fold_seed, request, n_threads) {
  force(model)
  force(shift)
  force(request)
  tau <- if (is.null(tau)) numeric() else tau
  epsilon <- if (is.null(epsilon)) 0 else epsilon
  function(chunk) {
    input <- core_input(model$map, chunk$x, "left", n_threads)
    core(.cpp_glm_pass(input$map, model$fun, input$x, chunk$y, chunk$w, glm_offset_columns(chunk), chunk$first_row,
                       nfolds, fold_seed, shift, family, tau, epsilon, request$width, request$coefficients, request$fold,
                       request$references, request$directions, request$steps, request$probes, request$hessian_every,
                       chunk$rank, if (is.null(request$log_hazard)) matrix(0, 0L, 0L) else request$log_hazard,
                       n_threads))
  }
}

# A chunk's offset as the core reads it: no columns for none.
glm_offset_columns <- function(chunk) if (is.null(chunk$offset)) matrix(0, nrow(chunk$x), 0L) else chunk$offset

# The columns an offset given for `predictors` linear predictors has: one
# per class for several classes (one for all would cancel in the softmax),
# one for the levels of values (every level's).
offset_columns <- function(family, predictors) {
  if (model_family_traits(family)$response == "values") 1L else predictors
}

add_glm_sums <- function(total, sums) {
  if (is.null(total)) return(sums)
  for (name in setdiff(names(total), "hessians")) total[[name]] <- total[[name]] + sums[[name]]
  total$hessians <- Map(add_sums, total$hessians, sums$hessians)
  total
}

# The fit object from the solver's result, with the intercepts of the
# unshifted features; `offset` says whether its rows carried one, which
# predictions for new rows then need.
glm_fit <- function(model, family, tau, epsilon, response, solved, shift, setup, nfolds, fold_seed, passes) {
  offset <- isTRUE(response$offset)
  response$offset <- NULL
  classes <- predictor_names(model_family_traits(family), response$levels, tau)
  coefficients <- solved$coefficients[-1L, , drop = FALSE]
  dimnames(coefficients) <- list(paste0("z", seq_len(nrow(coefficients))), classes)
  # the partial likelihood has no intercept: the baseline hazard holds it
  intercept <- if (model_family_traits(family)$response == "survival") stats::setNames(0, classes) else
    stats::setNames(solved$coefficients[1L, ] - drop(shift %*% coefficients), classes)
  fit <- structure(list(
    map = model$map, fun = model$fun, scaling = model$scaling, family = family, response = response,
    coefficients = coefficients, intercept = intercept, lambda = solved$lambda, path = solved$path,
    deviance = solved$deviance, null_deviance = solved$null_deviance, n = setup$n, weight = setup$weight,
    nfolds = nfolds, fold_seed = fold_seed, passes = passes, offset = offset, likelihood = glm_likelihood(solved, shift)
  ), class = "askrff_glm")
  # a family of values keeps its levels, of real numbers its tube, a loss
  # with kinks its smoothing
  fit$tau <- tau
  fit$epsilon <- epsilon
  if (!is.null(solved$smoothing)) fit$smoothing <- as.data.frame(solved$smoothing)
  fit
}
