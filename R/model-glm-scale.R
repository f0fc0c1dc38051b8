# The scale search of rff_glm(). By default (`scale_by = "evidence"`) the
# kernel's scales are chosen by a surrogate: the evidence of ridge
# regression (R/model-ridge-fit.R) on the response's encoding, the classes'
# indicators or the counts' square roots, each candidate one pass and one
# eigendecomposition; the GLM's lambda path is then cross-validated once,
# at the chosen scales. `scale_by = "cv"` compares the candidates' own
# cross-validated deviance, a whole path each, some five times the cost
# (bench/glm-scale.R measures both).

# The fit's `best` solution and the search's `selection`, as search_scale()
# returns them; `encode` is the GLM's encoding of a chunk.
glm_scale_search <- function(setup, solve, solver_of, search, scale_by, fun, encode, family) {
  if (scale_by == "cv" || (search$method == "grid" && nrow(search$candidates) == 1L)) {
    return(search_scale(setup, solve, solver_of, search, "cv", fun, encode, memory = 10))
  }
  surrogate <- surrogate_response(family)
  ridge_encode <- function(chunk, index, arg, model, response) {
    encoded <- encode(chunk, index, arg, model, response)
    encoded$y <- surrogate(encoded$y)
    encoded
  }
  # the fit's map and standardization, the surrogate's response
  scaling <- if (is.null(setup$model$scaling)) FALSE else setup$model$scaling
  problem <- model_setup(setup$data, function(x, what) setup$model$map, scaling, fun, setup$n_threads, memory = 4,
                         encode = ridge_encode)
  ridge_solver_of <- function(p) {
    passes <- ridge_passes(p)
    # one lambda for the classes' indicators, as rff_ridge() fits a factor
    function(model, final = TRUE) ridge_solution(model, passes, NULL, "evidence", TRUE, final, shared = TRUE)
  }
  found <- find_scale(problem, ridge_solver_of(problem), ridge_solver_of, search, "evidence", fun, ridge_encode,
                      memory = 4)
  found$selection$surrogate <- "ridge"
  list(best = solve(chosen_model(setup, found$selection)), selection = found$selection)
}

# The response ridge regression stands in for: the classes' 0/1 indicators
# as they are (least-squares classification), counts by Anscombe's square
# root, sqrt(y + 3/8), whose variance is nearly constant.
surrogate_response <- function(family) {
  if (model_family_traits(family)$response == "counts") function(y) sqrt(y + 3 / 8) else identity
}

# The scale search (check_scale_search(); `by_data` for a kernel whose
# scale comes from the data, searched by default) and what it compares,
# `scale_by` (`given` when the call chose it). The evidence's surrogate,
# ridge regression on the response's encoding (glm_scale_search() above),
# cannot take an offset or survival times (`survival`), so such rows are
# compared by the cross-validated deviance, which does and needs a path of
# lambdas.
glm_search <- function(scale, ard, by_data, scale_by, given, offset, lambda, survival = FALSE) {
  scale_by <- check_choice(scale_by, c("evidence", "cv"), "scale_by")
  path <- is.null(lambda) || length(lambda) > 1L
  no_surrogate <- offset || survival
  search <- check_scale_search(scale, ard, by_data && ((scale_by == "evidence" && !no_surrogate) || path))
  if (no_surrogate && !is.null(search)) {
    if (given && scale_by == "evidence") {
      fail("`scale_by = \"evidence\"` compares ridge regression on the response's encoding, which cannot take %s; use `scale_by = \"cv\"`, the default %s.",
           if (survival) "survival times" else "the rows' offset", if (survival) "for the \"cox\" family" else "with an offset")
    }
    scale_by <- "cv"
  }
  list(search = search, scale_by = scale_by)
}
