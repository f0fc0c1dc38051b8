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
#' every \eqn{\lambda}. For data in memory with fewer rows than feature
#' columns it takes the dual form instead, the same fit from the rows'
#' Gram matrix; the section on the two forms says what each costs.
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
#' GCV and the evidence need only \eqn{Z'Z} and \eqn{Z'y}, which streaming
#' keeps. Several values in `lambda` are compared by the criterion likewise;
#' one value is used as it is. `fit$path` holds every criterion computed at
#' every \eqn{\lambda}. Several responses get one \eqn{\lambda} each (see
#' the section on them).
#'
#' **The kernel and its scale.** With no `kernel` and no `map`, the kernel
#' is Gaussian on the standardized predictors, its length scale taken from
#' the data: `scale` times the median distance between rows, `scale` chosen
#' by the criterion. A kernel given by name (`"gaussian"`, `"laplace"`,
#' `"exponential"`) is treated the same; a kernel object keeps its length
#' scales, in the units of the predictors, unless `scale` asks for a search
#' ([kernel_scale] states the convention, which the other functions share).
#'
#' **Choosing the kernel's scale.** `scale` searches the kernel's length scales
#' by the same criterion, each candidate at its own best \eqn{\lambda}: a vector
#' of candidate factors multiplying the kernel's own length scales (one factor is
#' used as it is), or `"optimize"` (the default for a kernel by name), which
#' tries the factors \eqn{4^{-2}, \dots, 4^2} (extended while the best is at an
#' end, within \eqn{10^{-3}} to \eqn{10^3}) and refines the best by
#' [stats::optimize()] on the log scale. The search runs on a smaller problem
#' than the fit: at most 2,000 evenly spaced rows of data in memory (all rows of
#' a chunk source) and, with `"optimize"`, first 64 frequencies of the map's
#' design, whose best scale is then refined on all the map's frequencies by a
#' common factor (steps of \eqn{\sqrt 2}, then a parabola), since fewer
#' frequencies favour larger scales, on an eighth of the rows if that is more (on
#' 2,000 rows the criterion can be flat where on all it is not); the fit takes
#' the chosen scales on all rows. With `ard = TRUE` it then optimizes one scale
#' per coordinate ([stats::optim()], L-BFGS-B on the log scales from the common
#' one, with gradients by forward differences); a matrix `scale` with one column per
#' coordinate gives per-coordinate candidates instead. The map is drawn once, for
#' the kernel as given, and each candidate divides its frequencies by the scales
#' (common random numbers: the criterion is then a smooth function of the scales,
#' not blurred by fresh draws). Which parameters of a kernel are length scales is
#' declared by its family (expressions scale all their terms; kernels without
#' one, such as those on the sphere, are refused); a kernel whose length scale is
#' a single number takes no `ard`. Each candidate costs a pass over the search's
#' rows and an eigendecomposition (leave-one-out a second pass), so `"optimize"`
#' costs some 15 fits on 64 frequencies and 5 on all of them, plus the fit, and
#' with ARD about \eqn{d + 1} more per step of L-BFGS-B, which stops after
#' at most 50 steps. Chunk sources must then
#' be lists, which can be read again. The chosen kernel is `fit$map$kernel`, the
#' fit's map is the rescaled one, and `fit$selection` records every candidate;
#' `plot()` shows the criterion against the scale.
#'
#' **What the fit means for indefinite and asymmetric kernels.** The left
#' features \eqn{L} of such a map carry the parts' magnitudes without their
#' signs and phases, so \eqn{LL'} estimates the positive definite kernel of
#' the total variation \eqn{|\mu|} of the spectral measure (for `k1 - k2`
#' with the per-component split, `k1 + k2`), not \eqn{k} itself: the fit is
#' kernel ridge regression with that kernel. The kernel \eqn{k} enters
#' through \eqn{L R'}, as in [rff_kernel_matrix()]. A Nyström map's left
#' features \eqn{K(x, Z) V |\Lambda|^{-1/2}} likewise give the kernel with
#' \eqn{|\Lambda|} in place of \eqn{\Lambda}. Random periodic maps ([rpf_map()])
#' use the features of `fun`, by default the one-bit square wave.
#'
#' **Formula and data frame.** `rff_ridge(y ~ ., data, kernel = ,
#' n_features = )` builds the model frame as [lm()] does, with `subset`,
#' `weights`, `offset` and `na.action` ([na.omit()] by default; with
#' [na.exclude()] `fitted()`, `residuals()` and `predict()` give NA for the
#' rows left out). `offset()` terms of the formula are no predictors: they
#' are summed with `offset` into the rows' offset, which `predict()`
#' evaluates in `newdata` as [predict.lm()] does.
#' Factors, characters and logicals become indicator columns, one per level
#' (`contrasts = FALSE` in [model.matrix()] terms), so that the kernel puts
#' every two levels equally far apart; `contrasts` names others. The fit
#' keeps the terms and factor levels, so `predict(fit, newdata)` rebuilds the
#' same columns from a data frame; a level the fit did not see is an error,
#' a row with a missing predictor gets NA. With `kernel` and `n_features`
#' the map is drawn for as many columns as the data have; the drawn map is
#' `fit$map`. A fit is a plain list: [saveRDS()] keeps it, and it predicts in
#' a new session once askrff is loaded. It keeps its formula's terms and
#' the expressions of the response and `offset`, which `predict()` and
#' `augment()` evaluate in new data as [model.frame()] and [predict.lm()]
#' do: like a saved `lm()` fit, a fit from an untrusted source whose terms
#' or expressions were edited can run code through them.
#'
#' **Weights and offsets.** Observation weights \eqn{w_i} and offsets
#' \eqn{o_i} make the criterion \eqn{\sum_i w_i (y_i - o_i - b_0 -
#' z_i'b)^2 + \lambda \|b\|^2}, as in [lm()] (whole weights are repeated
#' rows): the fit is of \eqn{y - o}, and fitted values, predictions and
#' intervals add \eqn{o} back. A chunk carries its own as `w` and `offset`.
#' The `n` of GCV counts the rows of positive weight. Multiplying every
#' weight by a constant multiplies the best \eqn{\lambda}, the RSS and GCV
#' by it and leaves the chosen fit, the evidence and the likelihood as they
#' are: the sums are taken in weights divided by the mean of the first
#' chunk's positive weights, so that weights as large as 1e300 or as small
#' as 1e-300 neither overflow nor underflow.
#'
#' @template ridge-responses
#' @template ridge-forms
#' @template ridge-chunks
#' @param x Numeric matrix or data frame of numeric columns, or a chunk
#'   source (see Details); for the formula method, see `formula`.
#' @param formula A model formula, `response ~ predictors`, whose variables
#'   are looked up in `data`.
#' @param data A data frame (or list or environment) holding the variables of
#'   `formula`.
#' @param subset,na.action As for [lm()]: which rows to use, and what to do
#'   with rows with a missing value ([na.omit()] by default).
#' @param weights Observation weights: `NULL`, or one finite nonnegative
#'   number per row (for the formula method, a variable of `data`).
#' @param offset `NULL`, or one finite number per row, a known part of its
#'   prediction (formula method: evaluated in `data`, like `weights`).
#' @param contrasts `NULL` for one indicator column per factor level, or a
#'   named list of contrasts as for [model.matrix()].
#' @param map A map from [rff_map()], [rpf_map()], [nystrom_map()],
#'   [maclaurin_map()] or [tensor_sketch_map()]; a kernel object, taken as
#'   `kernel` (`rff_ridge(x, y, gaussian_kernel(1), n_features = 256)`); or
#'   `NULL` to draw one from `kernel`.
#' @param kernel Instead of `map`: the kernel of the map drawn for the
#'   data's columns, a kernel object (its length scales in the units of the
#'   predictors, standardized if `standardize` is `TRUE`), or the name of a
#'   family, `"gaussian"` (the default when neither `map` nor `kernel` is
#'   given), `"laplace"` or `"exponential"`, whose length scale comes from
#'   the data (see [kernel_scale]).
#' @param n_features,method,seed The number of frequencies (256 when not
#'   given), the frequency source and the seed of the map drawn by
#'   [rff_map()] for `kernel`.
#' @param standardize `TRUE` to center and scale each column by its mean and
#'   standard deviation on the data fitted (kept in the fit and applied again
#'   by `predict()`), `FALSE` to use the predictors as they are, or a list of
#'   `center` and `scale`, one entry per column. The default (`NULL`) is
#'   `TRUE` for a kernel given by name with data in memory, else `FALSE`.
#' @param lambda `NULL` (choose on the default grid by `criterion`), or one or
#'   more positive penalties.
#' @param criterion `"loo"`, `"evidence"` or `"gcv"`: what chooses
#'   \eqn{\lambda} and the scales (see Details). The default is `"loo"`, or
#'   `"evidence"` for a function chunk source.
#' @param scale `NULL` (the default: `"optimize"` for a kernel by name, the
#'   kernel as given otherwise), a factor for the kernel's length scales, a
#'   vector of candidate factors, or `"optimize"` (see Details). Needs a
#'   `kernel`, or a map of [rff_map()].
#' @param ard `TRUE` to choose one scale per coordinate (with `scale =
#'   "optimize"`, or a matrix of candidates with one column per coordinate).
#' @param fun For a map of [rpf_map()], the periodic function of its
#'   features (default `"square"`); not used with other maps.
#' @param ... Arguments passed to the methods; the default method takes no others.
#' @inheritParams kernel_matrix
#' @return An object of class `"askrff_ridge"`: the `map`, `coefficients`
#'   (feature columns by responses), `intercept`, the chosen `lambda` (one
#'   per response, named by it, when each has its own), the `criterion` that
#'   chose it, the `path` (a data frame of `lambda`, `df`, `gcv`, `evidence`,
#'   and for `criterion = "loo"` the leave-one-out error `loo`; led by the
#'   `response` of each row when each has its own), with a scale search the
#'   `selection` (the `criterion`, the `method`, the `kernel` as given, the
#'   candidates' `scales`, one row each, their `lambda` (a row each with one
#'   per response) and criterion `value`, and the `chosen` row), `n`, the
#'   `response` kind, the `form` that solved it (`"primal"` or `"dual"`),
#'   whether the rows carried an `offset`, the residual sum of squares `rss`,
#'   the `posterior` of the coefficients (see [predict.askrff_ridge()]), the
#'   `scaling` of the predictors (`NULL` without standardization), for data in
#'   memory the `fitted` values and `residuals` (of every row, those of zero
#'   weight included), the `weights` and `offset_values` if given; formula fits
#'   also keep the `call` and their `design` (terms, factor levels, contrasts,
#'   rows left out, the `offset` argument's expression). Methods: `print`,
#'   `coef`, `predict`, `plot` (the criterion's curve and the scale search),
#'   `fitted` and `residuals`.
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
#' # the one-call default: a Gaussian kernel, its scale chosen by leave-one-out
#' rff_ridge(Volume ~ Girth + Height, datasets::trees, seed = 1)
#' # the bandwidth chosen by the evidence
#' fit <- rff_ridge(x, datasets::trees$Volume, kernel = gaussian_kernel(1), n_features = 64,
#'                  criterion = "evidence", scale = c(0.5, 1, 2, 4), seed = 1)
#' fit$map$kernel
#' @export
rff_ridge <- function(x, ...) UseMethod("rff_ridge")

#' @rdname rff_ridge
#' @export
rff_ridge.default <- function(x, y = NULL, map = NULL, lambda = NULL, weights = NULL, kernel = NULL,
                              n_features = NULL, method = "iid", seed = NULL, standardize = NULL,
                              criterion = c("loo", "evidence", "gcv"), scale = NULL, ard = FALSE, fun = NULL,
                              n_threads = NULL, offset = NULL, shared_lambda = NULL, ...) {
  check_no_dots(...)
  check_shared_lambda(shared_lambda)
  # a function chunk source is read once, and leave-one-out needs a second pass
  if (missing(criterion) && is.function(x)) criterion <- "evidence"
  criterion <- check_choice(criterion, c("loo", "evidence", "gcv"), "criterion")
  streamed <- is_chunk_source(x)
  search <- check_scale_search(scale, ard, scale_from_data(map, kernel) && !(streamed && is.function(x)))
  standardize <- resolve_standardize(standardize, map, kernel, streamed)
  data <- model_data(x, y, weights, offset, streamed)
  if (!streamed && is.data.frame(x) && !all(vapply(x, is.numeric, logical(1)))) {
    fail("`x` has a column that is not numeric (%s); the formula method, rff_ridge(y ~ ., data, kernel = , n_features = ), turns factors into indicator columns.",
         names(x)[!vapply(x, is.numeric, logical(1))][1L])
  }
  fit_ridge(data, model_map(map, kernel, n_features, method, seed), standardize, lambda, fun, n_threads, criterion,
            search, shared_lambda)
}

#' @rdname rff_ridge
#' @export
rff_ridge.formula <- function(formula, data = NULL, kernel = NULL, n_features = NULL, map = NULL, subset, weights,
                              na.action, contrasts = NULL, standardize = NULL, lambda = NULL,
                              criterion = c("loo", "evidence", "gcv"), scale = NULL, ard = FALSE, method = "iid",
                              seed = NULL, fun = NULL, n_threads = NULL, offset, shared_lambda = NULL, ...) {
  check_no_dots(...)
  check_shared_lambda(shared_lambda)
  criterion <- check_choice(criterion, c("loo", "evidence", "gcv"), "criterion")
  search <- check_scale_search(scale, ard, scale_from_data(map, kernel))
  standardize <- resolve_standardize(standardize, map, kernel, FALSE)
  call <- match.call()
  frame <- formula_design(call, parent.frame(), formula, contrasts)
  source <- list(list(x = frame$x, y = frame$y, w = frame$weights, offset = frame$offset))
  data <- list(source = source, streamed = FALSE, what = "the predictors of `formula` expand to")
  fit <- fit_ridge(data, model_map(map, kernel, n_features, method, seed), standardize, lambda, fun, n_threads,
                   criterion, search, shared_lambda)
  fit$call <- call
  fit$design <- frame$design
  fit
}
