# Ridge regression on the left features of a map, from Z'Z and Z'y summed
# over blocks of rows (src/core/models/cross_products.*) and one eigendecomposition
# for the whole lambda path (src/core/models/ridge.*).

#' Ridge regression on random features
#'
#' Fits, for each response column, the ridge regression on the left features
#' \eqn{Z} of a map with an unpenalized intercept:
#' \deqn{\min_{b_0, b} \sum_i (y_i - b_0 - z_i'b)^2 + \lambda \|b\|^2.}
#' The core sums \eqn{Z'Z} and \eqn{Z'y} over blocks of rows on `n_threads`
#' threads without ever storing \eqn{Z} (memory \eqn{O(D^2)} for \eqn{D}
#' feature columns, whatever the number of rows), in an order that does not
#' depend on the thread count, so the fit is identical for any `n_threads`.
#' One symmetric eigendecomposition of the centered \eqn{Z'Z} then gives
#' every \eqn{\lambda}.
#'
#' **Cost.** The sums cost \eqn{O(n D^2)} for \eqn{n} rows and \eqn{D}
#' feature columns (twice `n_features` for most maps of [rff_map()]); the
#' eigendecomposition costs \eqn{O(D^3)} whatever \eqn{n}, on one thread:
#' we measured about 1.2 s for \eqn{D = 2048} and 11 s for \eqn{D = 4096} on
#' one core of an AMD EPYC server, so 8,000 columns take a minute and a half. It stops
#' within a fraction of a second on a user interrupt (Ctrl-C), and from
#' 512 columns on it reports its progress through progressr (see below).
#'
#' **Choosing \eqn{\lambda}.** With `lambda = NULL` it is chosen on 100
#' values log-spaced from \eqn{10 s_1} down to \eqn{10^{-10} s_1} (over the
#' eigenvalues \eqn{s_i}), the best of them refined by golden-section search
#' between its neighbours (the path then has 101 values), by one of three
#' criteria, all exact along the whole path from the one eigendecomposition.
#' The default is leave-one-out, which in a benchmark on four data sets (1,000
#' to 100,000 rows, up to 4,096 columns; `bench/ridge-lambda.R`) came within
#' 1.3 % of the test error of the best \eqn{\lambda} in hindsight and within
#' 0.1 % of scikit-learn's `RidgeCV`, where GCV lost 17 % on one and a
#' factor 9 on another and the evidence 7 % on one; for a function chunk
#' source, which can be read only once, the default is the evidence.
#' * `criterion = "gcv"`: generalized cross-validation, \eqn{GCV(\lambda) =
#'   (RSS / n) / (1 - df / n)^2} with \eqn{df = 1 + \sum_i s_i / (s_i +
#'   \lambda)}, smallest wins. Exact leave-one-out would need every row's
#'   leverage, a second pass over the data. GCV is reliable when the feature
#'   columns are fewer than the rows; with more columns than rows it can
#'   prefer a fit that nearly interpolates (the printed `df` close to `n`
#'   shows it).
#' * `criterion = "evidence"`: the log marginal likelihood of the Bayesian
#'   model \eqn{y = b_0 + Zb + e}, \eqn{e_i \sim N(0, \sigma^2 / w_i)},
#'   \eqn{b \sim N(0, (\sigma^2 / \lambda) I)}, with a flat prior on
#'   \eqn{b_0} integrated out and \eqn{\sigma^2} set to its maximizer \eqn{P
#'   / (n - 1)}:
#'   \deqn{E(\lambda) = -\frac{n - 1}{2}\left(\log\frac{2\pi P}{n - 1} +
#'   1\right) + \frac{1}{2}\left(\sum_i \log w_i - \log \sum_i w_i\right) -
#'   \frac{1}{2}\sum_i \log\left(1 + \frac{s_i}{\lambda}\right),}
#'   with \eqn{P = \min_{b_0, b} \sum_i w_i (y_i - b_0 - z_i'b)^2 + \lambda
#'   \|b\|^2}; largest wins. This is the type-II maximum likelihood of
#'   Gaussian-process regression with the kernel the features represent
#'   (MacKay 1992; Rasmussen and Williams 2006, ch. 5), \eqn{\lambda} being
#'   the ratio of the noise variance to the prior variance of the function.
#'   Profiling \eqn{\sigma^2} rather than integrating it keeps \eqn{E} a
#'   likelihood that an exact Gaussian process's can be compared with;
#'   integrating it against \eqn{d\sigma^2 / \sigma^2} would change it by a
#'   term in \eqn{n} alone, so not the choice.
#'
#' * `criterion = "loo"`: exact leave-one-out cross-validation, the mean of
#'   \eqn{w_i (e_i / (1 - h_i))^2} with the residuals \eqn{e_i} and the
#'   leverages \eqn{h_i = w_i (1 / \sum_j w_j + (z_i - \bar z)'(G + \lambda
#'   I)^{-1}(z_i - \bar z))}, smallest wins. The leverages take a second
#'   pass over the data, about twice the cost of the first (the
#'   eigendecomposition is not repeated), so chunk sources must be lists;
#'   it is evaluated on the path's values (GCV's refined grid) without a
#'   refinement of its own. Unlike GCV, which replaces every leverage by
#'   their mean, it stays right when a few rows have large leverage.
#'   Penalties at which a row's leverage rounds to 1 (the fit interpolates
#'   that row) leave the path, since the row's leave-one-out error is
#'   unbounded there.
#'
#' Several responses share one \eqn{\lambda} (their RSS pooled for GCV and
#' leave-one-out, their evidences, each with its own \eqn{\sigma^2}, added). Both need only
#' \eqn{Z'Z} and \eqn{Z'y}, which streaming keeps. Several values in
#' `lambda` are compared by the criterion likewise; one value is used as it
#' is. `fit$path` holds every criterion computed at every \eqn{\lambda}.
#'
#' **Choosing the kernel's scale.** `scale` searches the kernel's length
#' scales by the same criterion, each candidate at its own best
#' \eqn{\lambda}: a vector of candidate factors multiplying the kernel's own
#' length scales, or `"optimize"`, which tries the factors \eqn{4^{-2},
#' \dots, 4^2} (extended while the best is at an end, within \eqn{10^{-3}}
#' to \eqn{10^3}) and refines the best by [stats::optimize()] on the log
#' scale. With `ard = TRUE` it then optimizes one scale per coordinate
#' ([stats::optim()], L-BFGS-B on the log scales from the common one, with
#' gradients by differences); a matrix `scale` with one column per coordinate
#' gives per-coordinate candidates instead. The map is drawn once, for the
#' kernel as given, and each candidate divides its frequencies by the
#' scales (common random numbers: the criterion is then a smooth function of
#' the scales, not blurred by fresh draws). Which parameters of a kernel are
#' length scales is declared by its family (expressions scale all their
#' terms; kernels without one, such as those on the sphere, are refused); a
#' kernel whose length scale is a single number takes no `ard`. Each
#' candidate costs a pass over the data and an eigendecomposition, so
#' `"optimize"` costs some 15 fits, and with ARD about \eqn{2d + 1} more per
#' step of L-BFGS-B. Chunk sources must then be lists, which can be read
#' again. The chosen kernel is `fit$map$kernel`, the fit's map is the
#' rescaled one, and `fit$selection` records every candidate; `plot()`
#' shows the criterion against the scale.
#'
#' **Data larger than memory.** `x` may be a *chunk source*, with `y = NULL`:
#' a function of no arguments that returns the next chunk, `list(x = , y =
#' )`, and `NULL` at the end, or a list of such chunks. The fit is the same as
#' with all rows in memory up to rounding: chunks change only the order of the
#' sums, which the solve amplifies by the condition number of \eqn{Z'Z +
#' \lambda I} (coefficients agree to about 1e-12 at a moderate \eqn{\lambda},
#' fitted values also at a tiny one). When the future package
#' is installed and a plan other than sequential is set ([future::plan()]:
#' multisession on one machine, a cluster, or a scheduler through
#' future.batchtools), the chunks are processed by its workers: each gets
#' the map (a small object) and one chunk and returns its sums, which are
#' added in chunk order, so the fit is identical under every plan. Workers
#' use one thread each unless `n_threads` is given; data given in memory
#' stay on this process's threads. Progress is reported
#' through progressr ([progressr::with_progress()]), a step per chunk and
#' then the percents of the eigendecomposition; it is silent unless asked
#' for.
#'
#' **Responses.** A numeric vector, a numeric matrix (one fit per column, one
#' \eqn{\lambda}) or a factor: least squares on the indicator columns of its
#' levels (one against the rest), `predict(type = "class")` taking the level
#' of largest score.
#'
#' **What the fit means for indefinite and asymmetric kernels.** The left
#' features \eqn{L} of such a map carry the parts' magnitudes without their
#' signs and phases, so \eqn{LL'} estimates the positive definite kernel of
#' the total variation \eqn{|\mu|} of the spectral measure (for `k1 - k2`
#' with the per-component split, `k1 + k2`), not \eqn{k} itself: the fit is
#' kernel ridge regression with that kernel. The kernel \eqn{k} enters
#' through \eqn{L R'}, as in [rff_kernel_matrix()]. A Nyström map's left
#' features \eqn{K(x, Z) V |\Lambda|^{-1/2}} likewise give the kernel with
#' \eqn{|\Lambda|} in place of \eqn{\Lambda}. Random periodic maps
#' ([rpf_map()]) use the features of `fun`, by default the one-bit square
#' wave.
#'
#' **Formula and data frame.** `rff_ridge(y ~ ., data, kernel = ,
#' n_features = )` builds the model frame as [lm()] does, with `subset`,
#' `weights` and `na.action` ([na.omit()] by default; with [na.exclude()]
#' `fitted()`, `residuals()` and `predict()` give NA for the rows left out).
#' Factors, characters and logicals become indicator columns, one per level
#' (`contrasts = FALSE` in [model.matrix()] terms), so that the kernel puts
#' every two levels equally far apart; `contrasts` names others. The fit
#' keeps the terms and factor levels, so `predict(fit, newdata)` rebuilds the
#' same columns from a data frame; a level the fit did not see is an error,
#' a row with a missing predictor gets NA. With `kernel` and `n_features`
#' the map is drawn for as many columns as the data have; the drawn map is
#' `fit$map`. A fit is a plain list: [saveRDS()] keeps it, and it predicts in
#' a new session once askrff is loaded.
#'
#' **Weights.** Observation weights \eqn{w_i} make the criterion
#' \eqn{\sum_i w_i (y_i - b_0 - z_i'b)^2 + \lambda \|b\|^2}, as in [lm()];
#' a chunk carries its own as `w`. The `n` of GCV counts the rows of
#' positive weight.
#'
#' @param x Numeric matrix or data frame of numeric columns, or a chunk
#'   source (see Details); for the formula method, see `formula`.
#' @param y The response: a numeric vector, a numeric matrix with one row per
#'   row of `x`, or a factor; `NULL` when `x` is a chunk source.
#' @param formula A model formula, `response ~ predictors`, whose variables
#'   are looked up in `data`.
#' @param data A data frame (or list or environment) holding the variables of
#'   `formula`.
#' @param subset,na.action As for [lm()]: which rows to use, and what to do
#'   with rows with a missing value ([na.omit()] by default).
#' @param weights Observation weights: `NULL`, or one finite nonnegative
#'   number per row (for the formula method, a variable of `data`).
#' @param contrasts `NULL` for one indicator column per factor level, or a
#'   named list of contrasts as for [model.matrix()].
#' @param map A map from [rff_map()], [rpf_map()], [nystrom_map()],
#'   [maclaurin_map()] or [tensor_sketch_map()]; a kernel object, taken as
#'   `kernel` (`rff_ridge(x, y, gaussian_kernel(1), n_features = 256)`); or
#'   `NULL` to draw one from `kernel`.
#' @param kernel,n_features,method,seed Instead of `map`: a kernel object and
#'   the number of frequencies, the frequency source and the seed of the map
#'   drawn by [rff_map()] for the data's columns.
#' @param standardize `FALSE` (the default) to use the predictors as they
#'   are, `TRUE` to center and scale each column by its mean and standard
#'   deviation on the data fitted (kept in the fit and applied again by
#'   `predict()`), or a list of `center` and `scale`, one entry per column.
#' @param lambda `NULL` (choose on the default grid by `criterion`), or one or
#'   more positive penalties.
#' @param criterion `"loo"`, `"evidence"` or `"gcv"`: what chooses
#'   \eqn{\lambda} and the scales (see Details). The default is `"loo"`, or
#'   `"evidence"` for a function chunk source.
#' @param scale `NULL` (the kernel as given), a vector of candidate factors
#'   for the kernel's length scales, or `"optimize"` (see Details). Needs a
#'   `kernel` with `n_features`, or a map of [rff_map()].
#' @param ard `TRUE` to choose one scale per coordinate (with `scale =
#'   "optimize"`, or a matrix of candidates with one column per coordinate).
#' @param fun For a map of [rpf_map()], the periodic function of its
#'   features (default `"square"`); not used with other maps.
#' @param ... Arguments passed to the methods; the default method takes no
#'   others.
#' @inheritParams kernel_matrix
#' @return An object of class `"askrff_ridge"`: the `map`, `coefficients`
#'   (feature columns by responses), `intercept`, the chosen `lambda`, the
#'   `criterion` that chose it, the `path` (a data frame of `lambda`, `df`,
#'   `gcv`, `evidence`, and for `criterion = "loo"` the leave-one-out error
#'   `loo`), with a scale search the `selection` (the
#'   `criterion`, the `method`, the `kernel` as given, the candidates'
#'   `scales`, one row each, their `lambda` and criterion `value`, and the
#'   `chosen` row), `n`, the `response`
#'   kind, the residual sum of squares `rss`, the `posterior` of the
#'   coefficients (see [predict.askrff_ridge()]), the `scaling` of the
#'   predictors (`NULL` without standardization), and for data in memory the
#'   `fitted` values and `residuals` (of every row, those of zero weight
#'   included) and the `weights` if given; formula fits also keep the `call`
#'   and their `design` (terms, factor levels, contrasts, rows left out).
#'   Methods: `print`, `coef`, `predict`, `plot` (the criterion's curve and
#'   the scale search), `fitted` and `residuals`.
#' @references MacKay, D. J. C. (1992). Bayesian interpolation. Neural
#'   Computation 4, 415-447. Rasmussen, C. E. and Williams, C. K. I. (2006).
#'   Gaussian Processes for Machine Learning. MIT Press.
#' @family models
#' @examples
#' x <- as.matrix(scale(datasets::trees[, c("Girth", "Height")]))
#' map <- rff_map(gaussian_kernel(1), d = 2, n_features = 64, seed = 1)
#' fit <- rff_ridge(x, datasets::trees$Volume, map)
#' fit
#' head(predict(fit, x))
#' plot(fit)
#' # the same fit from chunks of rows
#' chunks <- lapply(split(seq_len(nrow(x)), rep(1:3, length.out = nrow(x))),
#'                  function(i) list(x = x[i, ], y = datasets::trees$Volume[i]))
#' all.equal(coef(rff_ridge(chunks, map = map)), coef(fit))
#' # a formula with a factor and missing values, and prediction intervals
#' fit <- rff_ridge(Ozone ~ Solar.R + Wind + Temp + factor(Month), airquality,
#'                  kernel = gaussian_kernel(2), n_features = 64, standardize = TRUE,
#'                  na.action = na.exclude, seed = 1)
#' fit
#' predict(fit, airquality[1:5, ], interval = "prediction")
#' # the bandwidth chosen by the evidence
#' fit <- rff_ridge(x, datasets::trees$Volume, kernel = gaussian_kernel(1), n_features = 64,
#'                  criterion = "evidence", scale = c(0.5, 1, 2, 4), seed = 1)
#' fit$map$kernel
#' @export
rff_ridge <- function(x, ...) UseMethod("rff_ridge")

#' @rdname rff_ridge
#' @export
rff_ridge.default <- function(x, y = NULL, map = NULL, lambda = NULL, weights = NULL, kernel = NULL,
                              n_features = NULL, method = "iid", seed = NULL, standardize = FALSE,
                              criterion = c("loo", "evidence", "gcv"), scale = NULL, ard = FALSE, fun = NULL,
                              n_threads = NULL, ...) {
  check_no_dots(...)
  # a function chunk source is read once, and leave-one-out needs a second pass
  if (missing(criterion) && is.function(x)) criterion <- "evidence"
  criterion <- check_choice(criterion, c("loo", "evidence", "gcv"), "criterion")
  search <- check_scale_search(scale, ard)
  streamed <- is_chunk_source(x)
  if (streamed) {
    if (!is.null(y)) fail("`y` must be NULL when `x` is a chunk source; each chunk carries its own `y`.")
    if (!is.null(weights)) fail("`weights` must be NULL when `x` is a chunk source; each chunk carries its own `w`.")
    data <- list(source = x, streamed = TRUE, what = "the chunks' `x` have")
  } else {
    if (is.data.frame(x) && !all(vapply(x, is.numeric, logical(1)))) {
      fail("`x` has a column that is not numeric (%s); the formula method, rff_ridge(y ~ ., data, kernel = , n_features = ), turns factors into indicator columns.",
           names(x)[!vapply(x, is.numeric, logical(1))][1L])
    }
    data <- list(source = list(list(x = x, y = y, w = weights)), streamed = FALSE, what = "`x` has")
  }
  fit_ridge(data, model_map(map, kernel, n_features, method, seed), standardize, lambda, fun, n_threads, criterion,
            search)
}

#' @rdname rff_ridge
#' @export
rff_ridge.formula <- function(formula, data = NULL, kernel = NULL, n_features = NULL, map = NULL, subset, weights,
                              na.action, contrasts = NULL, standardize = FALSE, lambda = NULL,
                              criterion = c("loo", "evidence", "gcv"), scale = NULL, ard = FALSE, method = "iid",
                              seed = NULL, fun = NULL, n_threads = NULL, ...) {
  check_no_dots(...)
  criterion <- check_choice(criterion, c("loo", "evidence", "gcv"), "criterion")
  search <- check_scale_search(scale, ard)
  call <- match.call()
  frame <- formula_design(call, parent.frame(), formula, contrasts)
  source <- list(list(x = frame$x, y = frame$y, w = frame$weights))
  data <- list(source = source, streamed = FALSE, what = "the predictors of `formula` expand to")
  fit <- fit_ridge(data, model_map(map, kernel, n_features, method, seed), standardize, lambda, fun, n_threads,
                   criterion, search)
  fit$call <- call
  fit$design <- frame$design
  fit
}

check_no_dots <- function(...) {
  if (...length() > 0L) {
    given <- names(list(...))
    fail("Unknown argument%s: %s.", if (...length() > 1L) "s" else "",
         if (is.null(given)) "an unnamed value" else paste(sprintf("`%s`", given[nzchar(given)]), collapse = ", "))
  }
}

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
  threads_given <- !is.null(n_threads)
  n_threads <- resolve_threads(n_threads)
  streamed <- data$streamed
  reader <- chunk_reader(data$source, if (streamed) "x" else "x and y")
  first <- reader()
  if (is.null(first)) fail("`x` returned no chunk: a chunk source must give at least one chunk before NULL.")
  columns <- if (streamed) check_chunk(first$chunk, first$index, "x", NULL)$x else check_data(first$chunk$x, "x")
  first$chunk$x <- columns
  scaling <- column_scaling(standardize, if (streamed) NULL else columns)
  model <- ridge_map(map_of(ncol(columns), data$what), fun)
  model$scaling <- scaling
  # Z'Z, its eigenvectors and the copies a chunk's sums pass through
  check_output_size(model$columns, model$columns, "Z'Z of the features", extra = 4 * 8 * as.double(model$columns)^2)
  start <- ridge_chunk(first$chunk, first$index, if (streamed) "x" else NULL, model, NULL)
  # a worker of a parallel plan shares its machine with others
  passes <- ridge_passes(data, reader, first, start, n_threads,
                         if (streamed && chunks_distributed() && !threads_given) 1L else n_threads)
  solve <- function(model) ridge_solution(model, passes, lambda, criterion, !is.null(search))
  if (is.null(search)) {
    best <- solve(model)
    selection <- NULL
  } else {
    found <- select_scale(model, solve, search, criterion)
    best <- found$best
    selection <- found$selection
  }
  fit <- ridge_fit(best$model, best$path, best$sums, start$response, criterion)
  fit$selection <- selection
  if (!streamed) {
    fit$fitted <- ridge_scores(fit, start$x, n_threads)
    fit$residuals <- start$y - fit$fitted
    if (any(start$w != 1)) fit$weights <- start$w
  }
  fit
}

# Passes over the data for a model (its map): `sums(model)` returns the sums
# of its features and the shifts they were taken from, `loo(model, path)`
# the leave-one-out sums along the path. The first pass goes on from the
# chunk already read; later ones read the source again. Chunks are checked
# against each pass's map, the first one already encoded.
ridge_passes <- function(data, reader, first, start, n_threads, worker_threads) {
  streamed <- data$streamed
  steps <- if (!streamed) 1L else if (is.function(data$source)) NA else length(data$source)
  passes <- 0L
  read <- function(model, work) {
    passes <<- passes + 1L
    next_chunk <- if (passes == 1L) {
      pending_first <- TRUE
      function() {
        if (pending_first) {
          pending_first <<- FALSE
          return(first)
        }
        reader()
      }
    } else {
      chunk_reader(data$source, if (streamed) "x" else "x and y")
    }
    prepare <- function(chunk, index) {
      if (index == first$index) return(start)
      ridge_chunk(chunk, index, "x", model, start$response)
    }
    # data already in memory stay here, on this process's threads
    map_reduce_chunks(next_chunk, prepare, work, add_sums, steps = steps, distribute = streamed)
  }
  list(
    sums = function(model) {
      check_map_data(model$map, start$x, if (streamed) sprintf("`x` of chunk %d", first$index) else "x")
      shifts <- ridge_shifts(model, start, n_threads)
      sums <- read(model, ridge_chunk_work(model, shifts, worker_threads))
      if (sums$n < 2) fail("Ridge regression needs at least two rows of positive weight; the data have %d.", sums$n)
      list(sums = sums, shifts = shifts)
    },
    loo = function(model, path) read(model, ridge_loo_work(model, path, worker_threads)))
}

# The model's path from a pass's sums: every lambda's criteria, and the
# coefficients at the lambda `criterion` prefers. Leave-one-out takes a
# second pass, over the path the core refined for GCV, when it chooses
# something: lambda, or the scale (`searching`).
ridge_solution <- function(model, passes, lambda, criterion, searching) {
  summed <- passes$sums(model)
  path <- core(.cpp_ridge_path(summed$sums, summed$shifts$z, summed$shifts$y, if (is.null(lambda)) numeric() else lambda,
                               if (criterion == "loo") "gcv" else criterion, eigen_progress(model$columns)))
  if (criterion == "loo" && (length(path$lambda) > 1L || searching)) {
    path <- choose_by_loo(path, passes$loo(model, path), summed$sums$n)
  }
  list(model = model, sums = summed$sums, path = path, value = path[[criterion]][path$chosen])
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
    n = sums$n, response = response, rss = stats::setNames(path$rss, response$names),
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

# The map and, for random periodic maps, the function of its features.
ridge_map <- function(map, fun) {
  map <- validate_map(map)
  list(map = map, fun = ridge_function(map, fun), d = map$d, columns = map_columns(map))
}

check_lambda <- function(lambda) {
  if (is.null(lambda)) return(NULL)
  if (!is.numeric(lambda) || is.object(lambda) || length(lambda) < 1L || anyNA(lambda) ||
      any(!is.finite(lambda)) || any(lambda <= 0)) {
    fail("`lambda` must be NULL or positive finite numbers.")
  }
  as.double(lambda)
}

# A chunk's data, checked and standardized, with its response as a matrix (a
# factor becomes its levels' indicator columns) and its weights. `response` is NULL for the first chunk,
# which sets the kind the others must match.
ridge_chunk <- function(chunk, index, arg, model, response) {
  if (is.null(arg)) {
    x <- check_data(chunk$x, "x", model$d)
    y <- chunk$y
    where <- "`y`"
    w_where <- "`weights`"
  } else {
    checked <- check_chunk(chunk, index, arg, model$d)
    x <- checked$x
    y <- checked$y
    where <- sprintf("`y` of %s", checked$where)
    w_where <- sprintf("`w` of %s", checked$where)
  }
  x <- apply_scaling(x, model$scaling)
  check_map_data(model$map, x, if (is.null(arg)) "x" else sprintf("`x` of chunk %d", index))
  encoded <- encode_response(y, nrow(x), where, response)
  list(x = x, y = encoded$y, w = check_weights(chunk$w, nrow(x), w_where), response = encoded$response,
       where = if (is.null(arg)) "the data" else sprintf("chunk %d", index))
}

response_text <- function(response) {
  switch(response$kind, numeric = "numeric vector", factor = "factor with the levels",
         matrix = sprintf("numeric matrix of %d columns", length(response$names)))
}

encode_response <- function(y, n, where, response) {
  if (!is.null(response) && is.factor(y) != identical(response$kind, "factor")) {
    fail("%s must be a %s like the first chunk's.", where, response_text(response))
  }
  if (is.factor(y)) {
    if (length(y) != n) fail("%s must have one entry per row of x (%d), not %d.", where, n, length(y))
    if (anyNA(y)) fail("%s must not contain NA.", where)
    if (is.null(response)) {
      if (nlevels(y) < 2L) fail("%s must be a factor with at least two levels.", where)
      response <- list(kind = "factor", names = levels(y))
    }
    if (!identical(levels(y), response$names)) fail("%s must be a %s of the first chunk's.", where, response_text(response))
    return(list(y = outer(as.integer(y), seq_along(response$names), "==") + 0, response = response))
  }
  if (!is.numeric(y) || is.object(y) || !(is.null(dim(y)) || is_matrix(y))) {
    fail("%s must be a numeric vector, a numeric matrix or a factor.", where)
  }
  matrix_y <- is_matrix(y)
  if ((if (matrix_y) nrow(y) else length(y)) != n) {
    fail("%s must have one %s per row of x (%d), not %d.", where, if (matrix_y) "row" else "entry", n,
         if (matrix_y) nrow(y) else length(y))
  }
  if (anyNA(y) || any(!is.finite(y))) fail("%s must not contain NA, NaN or infinite values.", where)
  # the fit sums squares and cross-products of y over every row
  if (any(abs(y) > 1e100)) {
    fail("%s has values up to %s; responses must be at most 1e100 in absolute value, so that the sums of their squares stay finite. Rescale y.",
         where, format(max(abs(y)), digits = 3))
  }
  if (matrix_y && ncol(y) < 1L) fail("%s must have at least one column.", where)
  kind <- if (matrix_y) "matrix" else "numeric"
  names <- if (matrix_y) (if (is.null(colnames(y))) paste0("y", seq_len(ncol(y))) else colnames(y)) else "y"
  if (is.null(response)) response <- list(kind = kind, names = names)
  if (!identical(response$kind, kind) || length(response$names) != length(names)) {
    fail("%s must be a %s like the first chunk's.", where, response_text(response))
  }
  storage.mode(y) <- "double"
  list(y = if (matrix_y) unname(y) else matrix(y), response = response)
}

# Shifts that make centering safe: the first row's features and response,
# typical values fixed before any sum, the same however the rows are cut
# into chunks.
ridge_shifts <- function(model, start, n_threads) {
  input <- core_input(model$map, start$x[1L, , drop = FALSE], "left", n_threads)
  z <- core(.cpp_map_features(input$map, input$x, "left", model$fun, n_threads))
  list(z = z[1L, ], y = start$y[1L, ])
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

add_sums <- function(total, sums) {
  if (is.null(total)) return(sums)
  for (name in names(total)) total[[name]] <- total[[name]] + sums[[name]]
  total
}

# Z(x) B + b0, a block of rows at a time.
ridge_scores <- function(fit, x, n_threads) {
  input <- core_input(fit$map, x, "left", n_threads)
  scores <- core(.cpp_feature_products(input$map, fit$fun, input$x, t(fit$coefficients), n_threads))
  scores <- sweep(scores, 2L, fit$intercept, "+")
  if (!all(is.finite(scores))) {
    fail("The predictions overflow: the fit's `coefficients` (up to %s) or `intercept` are too large for these features; fit the model again with rff_ridge().",
         format(max(abs(fit$coefficients)), digits = 3))
  }
  dimnames(scores) <- list(rownames(x), fit$response$names)
  scores
}
