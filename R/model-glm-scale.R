# The scale search of rff_glm(). By default (`scale_by = "evidence"`) the
# kernel's scales are chosen by a surrogate: the evidence of ridge
# regression (R/model-ridge-fit.R) on a response that stands in for the
# family's (surrogate_encoding()), each candidate one pass and one
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
  offset <- isTRUE(setup$start$response$offset)
  surrogate <- surrogate_encoding(family, if (offset) offset_null_intercept(setup, family))
  ridge_encode <- function(chunk, index, arg, model, response) surrogate(encode(chunk, index, arg, model, response))
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

# The encoding of a GLM's chunk (glm_chunk()) for ridge regression on the
# response that stands in for the family's, with its weights: the classes'
# 0/1 indicators as they are (least-squares classification), counts by
# Anscombe's square root, sqrt(y + 3/8), whose variance is nearly constant,
# and values as they are. With an offset o (a part of the linear predictor
# the surrogate must leave out), each row's response is that of the
# intercept-only model with the offset, b0 (`intercept`, for binomial and
# Poisson): the counts' root becomes the rate's, sqrt((y + 3/8) / mu0) with
# mu0 = exp(o + b0), whose variance 1 / (4 mu0) makes mu0 the row's weight
# (a constant without an offset, which the evidence ignores); two classes
# take the working response of the model, b0 + (y - p0) / v with
# p0 = plogis(o + b0) and v = p0 (1 - p0) the row's weight (one step of
# iteratively reweighted least squares from that model; without an offset
# an affine map of the indicators with equal weights, whose evidence chooses
# the same scales); the margins of a support vector machine, 2 y - 1 - o,
# and values, y - o, subtract it. The multinomial family's softmax has no
# such response per class, and survival times none at all
# (glm_search()).
surrogate_encoding <- function(family, intercept = NULL) {
  traits <- model_family_traits(family)
  counts <- traits$response == "counts"
  margins <- traits$response == "one_vs_rest"
  function(encoded) {
    offset <- encoded$offset
    encoded$offset <- NULL
    if (is.null(offset)) {
      if (counts) encoded$y <- sqrt(encoded$y + 3 / 8)
      return(encoded)
    }
    if (counts || traits$response == "two_classes") {
      mean <- drop(glm_mean(family, offset + intercept))
      # a row whose null mean underflows counts for (almost) nothing, with
      # a finite response
      variance <- pmax(if (counts) mean else mean * (1 - mean), surrogate_least_variance)
      encoded$y <- if (counts) sqrt((encoded$y + 3 / 8) / variance) else intercept + (encoded$y - mean) / variance
      encoded$w <- encoded$w * variance
    } else {
      encoded$y <- (if (margins) 2 * encoded$y - 1 else encoded$y) - offset
    }
    encoded
  }
}

# The least variance a row of the surrogate takes (its weight, and the
# divisor of its response): rows of smaller null means would give responses
# whose squares overflow, for a weight that no longer counts.
surrogate_least_variance <- 1e-10

# The intercept-only model's intercept b0 on the rows of `setup`, which
# carry an offset (glm_null_model(); a pass that sums the responses, then a
# few that compute no features), for a family without kinks.
offset_null_intercept <- function(setup, family) {
  run_pass <- model_passes(setup, "rff_glm()")
  sums <- run_pass(function(chunk) list(y_sum = colSums(chunk$w * chunk$y), weight = sum(chunk$w), n = sum(chunk$w > 0)),
                   add_sums)
  mean_y <- glm_null_means(family, sums, setup$start$response)
  glm_null_model(family, list(tau = numeric(), epsilon = 0, width = 0), mean_y, TRUE,
                 function(work) run_pass(work, add_sums))$intercept
}

# The scale search (check_scale_search(); `by_data` for a kernel whose
# scale comes from the data, searched by default) and what it compares,
# `scale_by` (`given` when the call chose it). The evidence's surrogate,
# ridge regression on a response standing in for the family's
# (surrogate_encoding()), has none for survival times or for the softmax's
# classes with an offset, which are compared by the cross-validated
# deviance, which needs a path of lambdas.
glm_search <- function(scale, ard, by_data, scale_by, given, offset, lambda, family) {
  scale_by <- check_choice(scale_by, c("evidence", "cv"), "scale_by")
  path <- is.null(lambda) || length(lambda) > 1L
  survival <- model_family_traits(family)$response == "survival"
  no_surrogate <- survival || (offset && family == "multinomial")
  search <- check_scale_search(scale, ard, by_data && ((scale_by == "evidence" && !no_surrogate) || path))
  if (no_surrogate && !is.null(search)) {
    if (given && scale_by == "evidence") {
      fail("`scale_by = \"evidence\"` compares ridge regression on a response standing in for the family's, which %s; use `scale_by = \"cv\"`, the default %s.",
           if (survival) "survival times have none of" else "the multinomial family's classes with an offset have none of",
           if (survival) "for the \"cox\" family" else "for them")
    }
    scale_by <- "cv"
  }
  list(search = search, scale_by = scale_by)
}
