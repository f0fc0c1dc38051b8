# Ridge-penalized generalized linear models on the left features of a map:
# passes over blocks of rows (src/core/models/glm_pass.*) give every model's
# gradient and deviances, and at a few reference points the Hessians, whose
# eigendecompositions (src/core/models/glm_solve.*) give the steps of every
# lambda and fold; the optimizer (src/core/models/glm_path.*) asks for the
# passes through R/model-glm-solver.R.

#' Penalized logistic, multinomial, Poisson and squared-hinge models on random features
#'
#' Fits the generalized linear model with canonical link on the left
#' features \eqn{Z} of a map, with an unpenalized intercept and a ridge
#' penalty, minimising
#' \deqn{Dev(b_0, b) + \lambda \|b\|^2,}
#' the deviance (twice the negative log-likelihood, up to a constant) plus
#' \eqn{\lambda} times the sum of squares of the feature coefficients; with
#' the Gaussian deviance this is the criterion of [rff_ridge()]. The
#' `"binomial"` family is logistic regression, `"multinomial"` the full
#' K-class softmax with every class's coefficients penalized (as in glmnet,
#' which makes them identifiable: they sum to zero over the classes),
#' `"poisson"` log-linear regression for counts, and `"squared_hinge"` the
#' L2-loss support vector machine (its deviance is the sum of the squared
#' hinge losses).
#'
#' **Relation to glmnet.** glmnet minimises \eqn{-\ell / N + \lambda_g
#' \|b\|^2 / 2} with the weights scaled to sum to \eqn{N}; both criteria have
#' the same minimiser when \eqn{\lambda = \lambda_g \sum_i w_i} (\eqn{N
#' \lambda_g} without weights). So `rff_glm(x, y, map, lambda = N * s)`
#' equals `glmnet(rff_features(map, x), y, alpha = 0, lambda = s,
#' standardize = FALSE)` (the tests check it to 1e-6).
#'
#' **Fitting.** No feature matrix is stored: each pass over the data
#' computes the features of a block of rows once and sums, for every model
#' being fitted (each \eqn{\lambda}, on all rows or without one fold), the
#' gradient \eqn{Z'W(y - \mu)} and the deviance, and at a few reference
#' coefficients the Hessian \eqn{Z'WVZ} (\eqn{V} the variances \eqn{\mu(1 -
#' \mu)} or \eqn{\mu}; for several classes, each class's diagonal block), on
#' `n_threads` threads in an order that does not depend on their number. The
#' memory is \eqn{O(D^2)} per reference and \eqn{O(D)} per model for \eqn{D}
#' feature columns, whatever the number of rows. Exact Newton at every
#' \eqn{\lambda} and fold would cost a Hessian, \eqn{O(n D^2)}, per model
#' and iteration. Instead one eigendecomposition of a reference Hessian
#' \eqn{H} gives the step \eqn{(aH + \lambda I)^{-1} g} for every
#' \eqn{\lambda} and fold (whose rows carry a share \eqn{a} of the weight)
#' at the cost of two products with its eigenvectors, and each model
#' corrects that step by the limited-memory BFGS update of its last eight
#' steps and gradients (the reference was taken elsewhere than at its own
#' coefficients) and accepts it only when its criterion decreases enough
#' (Armijo's rule), shortening it otherwise, which converges from any start
#' for these convex criteria; a pass then costs \eqn{O(n D)} per model. The
#' first reference is the intercept-only model, whose Hessian is exactly the
#' weighted \eqn{Z'Z} times the variance (for several classes, times the
#' matrix \eqn{diag(p) - pp'} of their frequencies); the others are
#' the full-data fits at penalties a factor 100 apart, taken three passes
#' after that penalty starts, and each model uses the nearest. The penalties start one after
#' another from the largest, each from the points and curvature memory of
#' the one before once those are within a relative decrease of 1e-3 of their
#' minimum, and a model moves to any point of its fold's path where its own
#' criterion is lower; the fits stop at a relative decrease of 1e-8. The fit
#' at the chosen \eqn{\lambda} then continues from its cross-validation fit
#' on all rows, with the Hessian at its own coefficients (at every pass for
#' one predictor, Newton's method; after 5, 15, 40, ... passes for several
#' classes), until the criterion stops decreasing: its
#' coefficients agree with glmnet's to about 1e-9 when glmnet's threshold is
#' tightened.
#'
#' **Choosing \eqn{\lambda}.** With `lambda = NULL`, by `nfolds`-fold
#' cross-validated deviance on 25 values log-spaced from \eqn{10 s_1} down to
#' \eqn{10^{-5} s_1}, with \eqn{s_1} the largest eigenvalue of the
#' intercept-only model's Hessian; the fit is then the one on all rows at
#' the \eqn{\lambda} of least mean held-out deviance per unit weight. Like
#' glmnet's, the path stops early: once the penalties from the largest down
#' have converged and the cross-validated deviance has risen at each of the
#' last two past its minimum, the smaller penalties (which overfit more,
#' and converge the slowest on nearly separable data) are left out of the
#' path. Several values in `lambda` are compared likewise; one value
#' is used as it is, with no cross-validation. The folds are fixed by each
#' row's position in the data (consecutive groups of `nfolds` rows are
#' spread over the folds by a random permutation drawn from `seed`), so
#' chunks cut anywhere give the
#' same folds; all folds' models are fitted in the same passes. Five folds is
#' the default: every fold's models are fitted in every pass, so ten would
#' double the work of a pass for the gain of training on 90 % of the rows
#' instead of 80 %, which moves the chosen \eqn{\lambda} little.
#'
#' **Data larger than memory.** As for [rff_ridge()], `x` may be a chunk
#' source with `y = NULL`, each chunk `list(x = , y = )` (and `w` for
#' weights); chunks may be processed on the workers of a future plan. The
#' data are read once per pass (about 30 to 100 passes), so a function source
#' must start again from its first chunk after it has returned `NULL`, and
#' give the same rows every time.
#'
#' **Formula and data frame.** As for [rff_ridge()]: `rff_glm(y ~ ., data,
#' family = , kernel = , n_features = )` with `subset`, `weights`,
#' `na.action` and `contrasts`; `predict()` rebuilds the columns from a data
#' frame and gives NA for rows with a missing predictor.
#'
#' @param x Numeric matrix or data frame of numeric columns, or a chunk
#'   source; for the formula method, see `formula`.
#' @param y The response: for `"binomial"` a factor of two levels (the second
#'   is the event, as in [glm()]), a logical or a 0/1 numeric vector; for
#'   `"multinomial"` a factor (every level must occur); for `"poisson"`
#'   nonnegative counts. `NULL` when `x` is a chunk source.
#' @param family The loss: `"binomial"` (the default), `"multinomial"`,
#'   `"poisson"`, or `"squared_hinge"` (two classes, the loss
#'   \eqn{\max(0, 1 - s\eta)^2} of the L2-loss support vector machine with
#'   \eqn{s = \pm 1} the class, whose fits predict scores and classes, not
#'   probabilities); each is one entry of the core's table of model families.
#' @param lambda `NULL` (choose by cross-validation), or one or more positive
#'   penalties in the scale of the criterion above.
#' @param nfolds The number of cross-validation folds, from 2 to 50.
#' @param kernel,n_features,method Instead of `map`: a kernel object, the
#'   number of frequencies and the frequency source of the map drawn by
#'   [rff_map()] for the data's columns.
#' @param seed The seed of the map drawn from `kernel` and of the folds;
#'   `NULL` draws them from R's random number generator.
#' @inheritParams rff_ridge
#' @return An object of class `"askrff_glm"`: the `map`, `family`,
#'   `response` (its kind and levels), `coefficients` (feature columns by
#'   classes; one column for binomial and Poisson), `intercept`, the chosen
#'   `lambda`, the `path` (a data frame of `lambda`, the full-data fit's
#'   `deviance`, whether every fit at that `lambda` `converged`, and when
#'   `lambda` was cross-validated the deviance `cv` per unit weight and its
#'   standard error `cv_se` across folds), `deviance` and `null_deviance` of the fit, `n`,
#'   `weight` (the sum of the weights), `nfolds`, `passes` over the data, the
#'   `scaling` of the predictors, and for data in memory the
#'   `linear_predictors` of the rows fitted; formula fits also keep the `call` and
#'   their `design`. Methods: `print`, `coef`, `predict`, `plot` (the
#'   cross-validation curve) and `fitted`.
#' @family models
#' @examples
#' x <- as.matrix(iris[, 1:4])
#' fit <- rff_glm(x, iris$Species, family = "multinomial", kernel = gaussian_kernel(1),
#'                n_features = 32, standardize = TRUE, seed = 1)
#' fit
#' head(predict(fit, x, type = "response"))
#' table(predict(fit, x, type = "class"), iris$Species)
#' plot(fit)
#' # a formula with a factor, logistic regression
#' fit <- rff_glm(am ~ mpg + hp + factor(cyl), mtcars, family = "binomial",
#'                kernel = gaussian_kernel(2), n_features = 16, standardize = TRUE, seed = 1)
#' predict(fit, mtcars[1:3, ], type = "response")
#' @export
rff_glm <- function(x, ...) UseMethod("rff_glm")

#' @rdname rff_glm
#' @export
rff_glm.default <- function(x, y = NULL, map = NULL, family = "binomial", lambda = NULL,
                            nfolds = 5, weights = NULL, kernel = NULL, n_features = NULL, method = "iid", seed = NULL,
                            standardize = FALSE, fun = NULL, n_threads = NULL, ...) {
  check_no_dots(...)
  streamed <- is_chunk_source(x)
  if (streamed) {
    if (!is.null(y)) fail("`y` must be NULL when `x` is a chunk source; each chunk carries its own `y`.")
    if (!is.null(weights)) fail("`weights` must be NULL when `x` is a chunk source; each chunk carries its own `w`.")
    data <- list(source = x, streamed = TRUE, what = "the chunks' `x` have")
  } else {
    data <- list(source = list(list(x = x, y = y, w = weights)), streamed = FALSE, what = "`x` has")
  }
  fit_glm(data, family, model_map(map, kernel, n_features, method, seed), standardize, lambda, nfolds, seed, fun,
          n_threads)
}

#' @rdname rff_glm
#' @export
rff_glm.formula <- function(formula, data = NULL, family = "binomial", kernel = NULL,
                            n_features = NULL, map = NULL, subset, weights, na.action, contrasts = NULL,
                            standardize = FALSE, lambda = NULL, nfolds = 5, method = "iid", seed = NULL, fun = NULL,
                            n_threads = NULL, ...) {
  check_no_dots(...)
  call <- match.call()
  frame <- formula_design(call, parent.frame(), formula, contrasts)
  source <- list(list(x = frame$x, y = frame$y, w = frame$weights))
  fit <- fit_glm(list(source = source, streamed = FALSE, what = "the predictors of `formula` expand to"), family, model_map(map, kernel, n_features, method, seed),
                 standardize, lambda, nfolds, seed, fun, n_threads)
  fit$call <- call
  fit$design <- frame$design
  fit
}

# Fits the model on the chunks of `data` (one chunk for data in memory): the
# first chunk fixes the map, the standardization, the response's kind and
# the shifts; a first pass sums the weighted Z'Z (the intercept-only
# model's Hessian up to a factor) and the responses, then the path solver
# in the core asks for its passes (R/model-glm-solver.R).
fit_glm <- function(data, family, map_of, standardize, lambda, nfolds, seed, fun, n_threads) {
  model_family_traits(family)  # checks the name
  lambda <- check_lambda(lambda)
  nfolds <- check_count(nfolds, "nfolds", max = 50)
  if (nfolds < 2L) fail("`nfolds` must be at least 2.")
  encode <- function(chunk, index, arg, model, response) glm_chunk(chunk, index, arg, model, response, family)
  # Z'Z, and per reference its Hessians and their eigenvectors
  setup <- model_setup(data, map_of, standardize, fun, n_threads, memory = 10, encode = encode)
  model <- setup$model
  start <- setup$start
  fold_seed <- resolve_seed(seed)
  shifts <- model_shifts(model, start, setup$n_threads)
  run_pass <- model_passes(setup, "rff_glm()")
  threads <- setup$worker_threads
  setup_sums <- run_pass(ridge_chunk_work(model, list(z = shifts$z, y = rep(0, ncol(start$y))), threads), add_sums)
  mean_y <- glm_null_means(family, setup_sums, start$response)
  passes <- 1L
  pass <- function(coefficients, model_fold, references) {
    passes <<- passes + 1L
    run_pass(glm_pass_work(model, shifts$z, family, nfolds, fold_seed, coefficients, model_fold, references, threads),
             add_glm_sums)
  }
  solved <- glm_solve_path(pass, family, setup_sums, mean_y, lambda, nfolds, model$columns)
  fit <- glm_fit(model, family, start$response, solved, shifts$z, setup_sums, nfolds, fold_seed, passes)
  if (!setup$streamed) {
    fit$linear_predictors <- fit_scores(fit, start$x, setup$n_threads, "rff_glm()", colnames(fit$coefficients))
  }
  fit
}

# A chunk's data, checked and standardized, its response encoded for the
# family (`response` NULL for the first chunk, which sets the kind and
# levels the others must match) and its weights.
glm_chunk <- function(chunk, index, arg, model, response, family) as_condition_class("data", {
  if (is.null(arg)) {
    x <- check_data(chunk$x, "x", model$d)
    where <- "`y`"
    w_where <- "`weights`"
  } else {
    checked <- check_chunk(chunk, index, arg, model$d)
    x <- checked$x
    where <- sprintf("`y` of %s", checked$where)
    w_where <- sprintf("`w` of %s", checked$where)
  }
  x <- apply_scaling(x, model$scaling)
  check_map_data(model$map, x, if (is.null(arg)) "x" else sprintf("`x` of chunk %d", index))
  encoded <- glm_response(chunk$y, nrow(x), where, response, family)
  list(x = x, y = encoded$y, w = check_weights(chunk$w, nrow(x), w_where), response = encoded$response,
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
    core(.cpp_glm_pass(input$map, model$fun, input$x, chunk$y, chunk$w, chunk$first_row, nfolds, fold_seed, shift,
                       family, coefficients, model_fold, references, n_threads))
  }
}

add_glm_sums <- function(total, sums) {
  if (is.null(total)) return(sums)
  for (name in setdiff(names(total), "hessians")) total[[name]] <- total[[name]] + sums[[name]]
  total$hessians <- Map(add_sums, total$hessians, sums$hessians)
  total
}

# The fit object from the solver's result, with the intercepts of the
# unshifted features.
glm_fit <- function(model, family, response, solved, shift, setup, nfolds, fold_seed, passes) {
  classes <- if (model_family_traits(family)$response == "classes") response$levels else "y"
  coefficients <- solved$coefficients[-1L, , drop = FALSE]
  dimnames(coefficients) <- list(paste0("z", seq_len(nrow(coefficients))), classes)
  intercept <- stats::setNames(solved$coefficients[1L, ] - drop(shift %*% coefficients), classes)
  structure(list(
    map = model$map, fun = model$fun, scaling = model$scaling, family = family, response = response,
    coefficients = coefficients, intercept = intercept, lambda = solved$lambda, path = solved$path,
    deviance = solved$deviance, null_deviance = solved$null_deviance, n = setup$n, weight = setup$weight,
    nfolds = nfolds, fold_seed = fold_seed, passes = passes
  ), class = "askrff_glm")
}
