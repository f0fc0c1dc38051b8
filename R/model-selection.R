# The scale search of rff_ridge(): the kernel's length scales chosen by the
# fit's criterion (GCV, evidence or leave-one-out, each at its best lambda;
# with one lambda per response, their criterion_value()). The map is
# drawn once for the kernel as given, and every candidate rescales its
# frequencies (rescale_map(), scale_kernel()): common random numbers, so the
# criterion is a smooth function of the scales. Each candidate costs one
# pass over the data and one eigendecomposition.

# Bounds of the search, as multiples of the kernel's own scales.
scale_limits <- c(1e-3, 1e3)

# `scale` and `ard`, checked before any data are read: NULL for no search,
# else the `method` ("grid" or "optimize"), `ard`, and for a grid the
# `candidates`, one row each (one column, or one per coordinate with ARD).
# `scale = NULL` searches ("optimize") for a kernel by name (`by_name`),
# whose scale comes from the data, and keeps a kernel object's.
check_scale_search <- function(scale, ard, by_name = FALSE) {
  check_flag(ard, "ard")
  if (is.null(scale) && by_name) scale <- "optimize"
  if (is.null(scale)) {
    if (ard) fail("`ard = TRUE` needs `scale = \"optimize\"`, or a matrix of candidate scales with one column per coordinate.")
    return(NULL)
  }
  if (identical(scale, "optimize")) return(list(method = "optimize", ard = ard, candidates = NULL))
  if (!is.numeric(scale) || is.object(scale) || length(scale) < 1L || anyNA(scale) || any(!is.finite(scale)) ||
      any(scale <= 0) || !(is.null(dim(scale)) || is_matrix(scale))) {
    fail("`scale` must be NULL, \"optimize\", or positive finite candidate scales (multiplying the kernel's own).")
  }
  check_scale_factor(scale)
  if (ard && !is.matrix(scale)) {
    fail("With `ard = TRUE`, `scale` must be \"optimize\" or a matrix of candidate scales, one row per candidate and one column per coordinate.")
  }
  if (!ard && is.matrix(scale) && ncol(scale) != 1L) {
    fail("`scale` has %d columns: per-coordinate candidates need `ard = TRUE`.", ncol(scale))
  }
  candidates <- if (is.matrix(scale)) scale else matrix(scale)
  storage.mode(candidates) <- "double"
  list(method = "grid", ard = ard, candidates = unname(candidates))
}

# A search runs on a smaller problem than the fit's: at most search_rows of
# data in memory and, for a map drawn from a kernel, first on
# search_frequencies frequencies, then refined by a common factor on all of
# them (fewer frequencies favour larger scales) and on an eighth of the rows
# if that is more (refine_rows()); the fit then takes the chosen scales.
# bench/scale-search.R measures what this loses.
search_rows <- 2000L
search_frequencies <- 64L

# The rows of the refinement on all frequencies, for n rows: a criterion on
# 2,000 rows can be flat over scales between which one on all rows still
# chooses (its best scale moves with n), so the refinement grows with the
# data; its 5 to 8 candidates on an eighth of the rows cost about one fit.
refine_rows <- function(n) max(search_rows, as.integer(ceiling(n / 8)))

# The setup of a search's problem: at most `rows` evenly spaced rows of data
# in memory (a response sorted by time or size is still covered) with the
# fit's standardization, and the fit's map thinned to `frequencies`
# (thin_map()). `encode` and `memory` as for model_setup(); NULL when the
# problem is the fit's own.
search_setup <- function(setup, fun, encode, memory, frequencies, rows = search_rows) {
  data <- setup$data
  chunk <- setup$first$chunk
  n <- nrow(chunk$x)
  thinned <- thin_map(setup$model$map, frequencies)
  fewer_rows <- !setup$streamed && n > rows
  if (!fewer_rows && identical(thinned, setup$model$map)) return(NULL)
  if (fewer_rows) {
    rows <- unique(round(seq(1, n, length.out = rows)))
    take <- function(v) if (is.null(dim(v))) v[rows] else v[rows, , drop = FALSE]
    data$source <- list(list(x = take(chunk$x), y = take(chunk$y), w = take(chunk$w), offset = take(chunk$offset)))
  }
  scaling <- if (is.null(setup$model$scaling)) FALSE else setup$model$scaling
  model_setup(data, function(x, what) thinned, scaling, fun, setup$n_threads, memory, encode)
}

# Runs the scale search of a fit (`setup`, whose `solve(model)` passes over
# its data and returns the path with the criterion's `value`) on the
# search's problems, whose solvers `solver_of(setup)` makes. Returns the
# `best` solution of the fit's own problem at the chosen scales and the
# `selection` record.
search_scale <- function(setup, solve, solver_of, search, criterion, fun, encode, memory) {
  found <- find_scale(setup, solve, solver_of, search, criterion, fun, encode, memory)
  # the candidates' solutions skip what only the fit needs (`final`); the
  # fit is solved again at the chosen scales unless its own already was
  if (!found$own || isFALSE(found$best$final)) found$best <- solve(chosen_model(setup, found$selection))
  found
}

# The model of `setup` at the scales a search chose.
chosen_model <- function(setup, selection) scaled_model(setup$model, selection$scales[selection$chosen, ])

# The search of search_scale() without the fit: the `selection` record, the
# `best` candidate's solution and whether it was solved on the fit's `own`
# problem.
find_scale <- function(setup, solve, solver_of, search, criterion, fun, encode, memory) {
  if (search$ard && !is.null(search$candidates) && ncol(search$candidates) != setup$model$d) {
    fail("`scale` must have one column per coordinate of the data (%d) with `ard = TRUE`.", setup$model$d)
  }
  if (search$method == "grid" && nrow(search$candidates) == 1L) {
    # one scale given: the fit at it, with nothing searched
    return(list(best = solve(scaled_model(setup$model, search$candidates[1L, ])), selection = NULL, own = TRUE))
  }
  # a grid of the user's is evaluated as given, on all frequencies
  coarse <- search_setup(setup, fun, encode, memory, if (search$method == "grid") Inf else search_frequencies)
  own <- is.null(coarse)
  if (own) {
    found <- select_scale(setup$model, solve, search, criterion)
  } else {
    thinned <- n_frequencies(coarse$model$map) < n_frequencies(setup$model$map)
    fine <- if (thinned) search_setup(setup, fun, encode, memory, Inf, refine_rows(nrow(setup$first$chunk$x))) else NULL
    problem_rows <- function(problem) nrow((if (is.null(problem)) setup else problem)$first$chunk$x)
    refine <- if (!thinned) NULL else if (is.null(fine)) {
      list(model = setup$model, solve = solve, rows = problem_rows(NULL))
    } else {
      list(model = fine$model, solve = solver_of(fine), rows = problem_rows(fine))
    }
    found <- select_scale(coarse$model, solver_of(coarse), search, criterion, refine, problem_rows(coarse))
    own <- thinned && is.null(fine)
  }
  found$own <- own
  found
}

# The model (map and standardization) for the data divided by `scales`.
scaled_model <- function(model, scales) {
  kernel <- scale_kernel(model$map$kernel, scales, model$d)
  scaled <- fit_map(rescale_map(model$map, kernel, scales), if (identical(model$fun, "")) NULL else model$fun)
  scaled$scaling <- model$scaling
  scaled$coordinates <- model$coordinates
  scaled
}

# A matrix without row names (its columns keep theirs).
unname_rows <- function(x) {
  rownames(x) <- NULL
  x
}

# Searches the scales of `model`'s kernel: `solve(model)` passes over the
# data and returns the path with the criterion's `value` at its lambda.
# Returns the `best` solution and the `selection` record of the fit.
#
# With `refine` (list(model, solve, rows) of a problem with more frequencies),
# the scales found are then refined there by a common factor
# (refine_common_factor()), and the chosen candidate is the best of those.
# `rows`, of a search on fewer rows than the fit's, are recorded with each
# candidate.
select_scale <- function(model, solve, search, criterion, refine = NULL, rows = NULL) {
  d <- model$d
  width <- if (search$ard) d else 1L
  # kernels and maps that cannot be rescaled are refused before any pass
  scaled_model(model, rep(1, width))
  better <- if (criterion == "evidence") function(a, b) a > b else function(a, b) a < b
  # "optimize" takes some 20 candidates, and with ARD about d + 1 per step
  # of L-BFGS-B
  progress <- progress_of(if (search$method == "grid") nrow(search$candidates) else 25L + search$ard * 20L * (d + 1L))
  tried <- list()
  best <- NULL
  chosen <- 0L
  evaluate <- function(scales) {
    # with ARD every candidate has a scale per coordinate, the common ones too
    scales <- rep_len(scales, width)
    # one scale per coordinate is named by the coordinate's column
    if (search$ard) names(scales) <- model$coordinates
    solution <- solve(scaled_model(model, scales), final = FALSE)
    tried[[length(tried) + 1L]] <<- list(scales = scales, lambda = solution$lambda,
                                         value = solution$value, frequencies = n_frequencies(model$map), rows = rows)
    if (is.null(best) || better(solution$value, best$value)) {
      best <<- solution
      chosen <<- length(tried)
    }
    progress$step(sprintf("scale %s: %s %s", paste(format(scales, digits = 3), collapse = ", "), criterion,
                          format(solution$value, digits = 6)))
    solution$value
  }
  if (search$method == "grid") {
    for (i in seq_len(nrow(search$candidates))) evaluate(search$candidates[i, ])
  } else {
    objective <- scale_objective(evaluate, criterion)
    common <- optimize_common_scale(objective)
    if (search$ard) optimize_coordinate_scales(objective, common, d, criterion, best$sums$n)
  }
  if (!is.null(refine)) {
    # values on fewer frequencies are not comparable with these
    start <- tried[[chosen]]$scales
    model <- refine$model
    solve <- refine$solve
    rows <- refine$rows
    best <- NULL
    objective <- scale_objective(evaluate, criterion)
    refine_common_factor(function(t) objective(log(start) + t))
  }
  progress$done()
  scales <- do.call(rbind, lapply(tried, `[[`, "scales"))
  # one lambda per candidate, or (one per response) a row each
  lambda <- do.call(rbind, lapply(tried, `[[`, "lambda"))
  selection <- list(criterion = criterion, method = search$method, kernel = model$map$kernel,
                    scales = unname_rows(scales), lambda = if (ncol(lambda) == 1L) lambda[, 1L] else lambda,
                    value = vapply(tried, `[[`, 1, "value"), chosen = chosen,
                    frequencies = vapply(tried, `[[`, 1L, "frequencies"))
  if (!is.null(rows)) selection$rows <- vapply(tried, `[[`, 1L, "rows")
  list(best = best, selection = selection)
}

# Refines scales found on fewer frequencies by a common factor exp(t): t =
# 0 and a step of log(2) / 2 on either side, on while an end is better (at
# most a factor 16 away), then the vertex of the parabola through the best
# and its neighbours.
refine_common_factor <- function(objective) {
  step <- log(2) / 2
  grid <- c(-step, 0, step)
  values <- vapply(grid, objective, 1)
  repeat {
    at <- which.min(values)
    if (at == 1L && grid[1L] > -8 * step) {
      grid <- c(grid[1L] - step, grid)
      values <- c(objective(grid[1L]), values)
    } else if (at == length(grid) && grid[at] < 8 * step) {
      grid <- c(grid, grid[at] + step)
      values <- c(values, objective(grid[at + 1L]))
    } else {
      break
    }
  }
  at <- which.min(values)
  if (at == 1L || at == length(grid)) return(invisible(NULL))
  # the vertex of the parabola through three equally spaced points
  v <- values[at + (-1:1)]
  curvature <- v[1L] - 2 * v[2L] + v[3L]
  if (curvature > 0) objective(grid[at] + step * (v[1L] - v[3L]) / (2 * curvature))
  invisible(NULL)
}

# What optim() and optimize() minimize: log GCV or log leave-one-out error
# (0, no residual left, as the least double), or minus the evidence. A fit
# without a finite criterion (infinite errors, evidence minus infinity)
# counts as 1e100: worse than any other, and still finite in optim()'s
# differences.
scale_objective <- function(evaluate, criterion) {
  function(log_scales) {
    value <- evaluate(exp(log_scales))
    value <- if (criterion == "evidence") -value else log(max(value, .Machine$double.xmin))
    if (is.finite(value)) value else 1e100
  }
}

# One scale for every coordinate: a coarse grid of factors of 4 (extended
# while the best is at its edge, within scale_limits), refined by
# stats::optimize() between the best's neighbours. Returns the best log-scale.
optimize_common_scale <- function(objective) {
  limits <- log(scale_limits)
  step <- log(4)
  grid <- step * (-2:2)
  values <- vapply(grid, objective, 1)
  repeat {
    at <- which.min(values)
    if (at == 1L && grid[1L] - step >= limits[1L]) {
      grid <- c(grid[1L] - step, grid)
      values <- c(objective(grid[1L]), values)
    } else if (at == length(grid) && grid[at] + step <= limits[2L]) {
      grid <- c(grid, grid[at] + step)
      values <- c(values, objective(grid[at + 1L]))
    } else {
      break
    }
  }
  at <- which.min(values)
  if (at == 1L || at == length(grid)) return(grid[at])
  refined <- stats::optimize(objective, c(grid[at - 1L], grid[at + 1L]), tol = 0.005)
  if (refined$objective < values[at]) refined$minimum else grid[at]
}
