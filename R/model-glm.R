# Ridge-penalized generalized linear models on the left features of a map:
# passes over blocks of rows (src/core/models/glm_pass.*) give every model's
# gradient and deviances, and at a few reference points the Hessians, whose
# eigendecompositions (src/core/models/glm_solve.*) give the steps of every
# lambda and fold; the optimizer (src/core/models/glm_path.*) asks for the
# passes through R/model-glm-solver.R.

#' Penalized GLMs, support vector machines, quantile regression and Cox models on random features
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
#' `"poisson"` log-linear regression for counts, `"squared_hinge"` the
#' L2-loss support vector machine (its deviance is the sum of the squared
#' hinge losses), for several classes one machine per class against the
#' rest, fitted together in the same passes; `"hinge"` the L1-loss one
#' (likewise), `"quantile"` quantile regression at one or several levels
#' `tau` and `"expectile"` expectile regression, `"epsilon_insensitive"`
#' and `"squared_epsilon_insensitive"` support vector regression (see the
#' sections on these losses below).
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
#' **Data larger than memory.** As for [rff_ridge()], `x` may be a chunk
#' source with `y = NULL`, each chunk `list(x = , y = )` (and `w` for
#' weights, `offset` for an offset: every chunk's, or none); chunks may be
#' processed on the workers of a future plan. The
#' data are read once per pass (about 30 to 100 passes), so a function source
#' must start again from its first chunk after it has returned `NULL`, and
#' give the same rows every time.
#'
#' **The kernel and its scale.** As for [rff_ridge()]: with no `kernel` and
#' no `map`, a Gaussian kernel on the standardized predictors whose length
#' scale comes from the data ([kernel_scale]); a kernel given by name has
#' its scale searched, a kernel object is used as given unless `scale` asks
#' for a search. The search runs as [rff_ridge()]'s does (on at most 2,000
#' evenly spaced rows, first on 64 frequencies, then refined by a common
#' factor on all of them, on an eighth of the rows if that is more) and
#' compares, with `scale_by = "evidence"` (the default), the evidence of
#' ridge regression on a response standing in for the family's: the
#' classes' 0/1 indicators (least-squares classification), or the counts'
#' roots \eqn{\sqrt{y + 3/8}}, of nearly constant variance. Each candidate then costs one pass
#' and one eigendecomposition, and the \eqn{\lambda} path is
#' cross-validated once, at the chosen scales: on three real classification
#' data sets of 1,500 to 5,000 rows this took a fifth of the time of
#' `scale_by = "cv"` for a test log-loss within 1 % of it. With an offset
#' \eqn{o_i} the stand-in leaves it out, from the intercept-only model with
#' the offset, \eqn{\eta_i = o_i + b_0}: counts take
#' \eqn{\sqrt{(y_i + 3/8)/\mu_i}} with weight \eqn{\mu_i = e^{\eta_i}}; two classes the working
#' response \eqn{b_0 + (y_i - p_i)/v_i} with weight \eqn{v_i = p_i(1 - p_i)};
#' margins \eqn{2y_i - 1 - o_i}; numbers \eqn{y_i - o_i}. `scale_by = "cv"`
#' compares the candidates' own cross-validated deviance, a fit of the
#' \eqn{\lambda} path each (some five times slower), so it needs `lambda`
#' `NULL` or several values; it is the default for the `"cox"` family and
#' the multinomial family's classes with an offset, which have no stand-in.
#' `ard = TRUE` searches one scale per coordinate.
#'
#' **Formula and data frame.** As for [rff_ridge()]: `rff_glm(y ~ ., data,
#' family = )` with `subset`, `weights`, `offset`,
#' `na.action` and `contrasts`; `predict()` rebuilds the columns from a data
#' frame and gives NA for rows with a missing predictor. `offset()` terms of
#' the formula are no predictors but part of every row's linear predictor,
#' as in [glm()]: `rff_glm(count ~ age + offset(log(exposure)), data,
#' family = "poisson")` models the rate per unit of exposure, and
#' `predict()` evaluates the offset in `newdata`.
#'
#' **Offsets.** An offset \eqn{o_i} is a known part of row \eqn{i}'s
#' linear predictor, \eqn{\eta_i = o_i + b_0 + z_i'b}, in every pass, fold
#' and prediction. The intercept-only model the path starts from is then no
#' longer given by the responses' means: it is fitted first by Newton's
#' method on the intercepts (a few passes over the data that compute no
#' features), so the null deviance is that of `glm(y ~ 1 + offset(o))`.
#' The first reference Hessian takes the mean of that model's curvatures
#' over the rows, which is exact without an offset. For the multinomial
#' family one offset added to every class would cancel in the softmax: its
#' offset is a matrix of one column per class (the default method's; a
#' formula's is refused).
#'
#' @param x Numeric matrix or data frame of numeric columns, or a chunk
#'   source; for the formula method, see `formula`.
#' @param y The response: for `"binomial"` (and the hinge losses) a factor
#'   of two levels (the second is the event, as in [glm()]), a logical or a
#'   0/1 numeric vector; for `"multinomial"` a factor (every level must
#'   occur); for `"poisson"` nonnegative counts; for `"quantile"`,
#'   `"expectile"` and the epsilon-insensitive losses finite numbers. `NULL` when `x` is a chunk source.
#' @param family The loss: `"binomial"`, `"multinomial"`,
#'   `"poisson"`, `"squared_hinge"` (the loss
#'   \eqn{\max(0, 1 - s\eta)^2} of the L2-loss support vector machine with
#'   \eqn{s = \pm 1} the class, whose fits predict decision values and
#'   classes, not probabilities; a factor of \eqn{K > 2} levels gets \eqn{K}
#'   machines, level \eqn{k} against the rest, and the class whose machine
#'   scores highest), `"hinge"` (the loss \eqn{\max(0, 1 - s\eta)} of the
#'   L1-loss machine, likewise one-vs-rest for several classes), `"quantile"` or `"expectile"`
#'   (numbers, at the levels `tau`), `"epsilon_insensitive"` or
#'   `"squared_epsilon_insensitive"` (numbers, support vector regression's
#'   losses with the tube `epsilon`), `"cox"` (survival times); each is one
#'   entry of the core's table of model families. `NULL` (the default)
#'   takes it from the response, as its kind says: a `Surv` object is
#'   `"cox"`; a factor, characters, a logical or 0/1 numbers of two
#'   classes are binomial, of more multinomial; counts must say `"poisson"`
#'   (or be made a factor), since they could be either, and other numbers
#'   `"quantile"` or `"expectile"`.
#' @param tau For `"quantile"` and `"expectile"`, the levels: one or more
#'   distinct numbers strictly between 0 and 1, in any order (the fit takes
#'   them in increasing order); `NULL` is 0.5, the median. Other families
#'   take none.
#' @param epsilon For `"epsilon_insensitive"` and
#'   `"squared_epsilon_insensitive"`, the tube's half-width: one finite
#'   nonnegative number in the units of `y` (`NULL` is 0.1, kernlab's
#'   default). Other families take none.
#' @param ties For `"cox"`, how tied event times enter the partial
#'   likelihood: `"efron"` (the default, as in [survival::coxph()]) or
#'   `"breslow"` (as in glmnet). Other families take none.
#' @param lambda `NULL` (choose by cross-validation), or one or more positive
#'   penalties in the scale of the criterion above.
#' @param nfolds The number of cross-validation folds, from 2 to 50.
#' @param kernel,n_features,method,standardize,scale,ard As for [rff_ridge()].
#' @param scale_by What a scale search compares: `"evidence"` (fast) or
#'   `"cv"`; see "The kernel and its scale".
#' @param seed The seed of the map drawn from `kernel` and of the folds;
#'   `NULL` draws them from R's random number generator.
#' @param offset A known part of each row's linear predictor: `NULL`, one
#'   finite number per row (every level's, for quantiles and expectiles),
#'   or for a fit of several classes (the `"multinomial"` family, or a
#'   support vector machine of more than two) a matrix of one column per class
#'   (for the formula method, evaluated in `data` like `weights`, added to
#'   the formula's `offset()` terms, and refused for several classes).
#' @param probability For a family without probabilities (the support
#'   vector machines), `TRUE` calibrates its decision values into them by
#'   Platt scaling (Platt 1999): a logistic regression of each class on its
#'   decision value, fitted on out-of-fold decision values (each fold's rows
#'   scored by the fit at the chosen `lambda`, map and scale on the other
#'   `nfolds - 1` folds) with Platt's targets \eqn{(N_+ + 1)/(N_+ + 2)} and
#'   \eqn{1/(N_- + 2)}; `predict(type = "response")` then gives them (of
#'   several classes, the classes' sigmoids normalized to sum to 1). It
#'   costs `nfolds` more fits at one `lambda`, and needs the data in memory.
#' @inheritParams rff_ridge
#' @return An object of class `"askrff_glm"`: the `map`, `family`,
#'   `response` (its kind and levels), `coefficients` (feature columns by
#'   classes, or by levels `tau`; one column for the families of one
#'   predictor), `intercept`, the levels `tau` (quantiles and expectiles),
#'   the tube `epsilon` (the epsilon-insensitive losses),
#'   for a loss with kinks its `smoothing` (a data frame of the final fit's
#'   widths and the `passes` each took), the chosen
#'   `lambda`, the `path` (a data frame of `lambda`, the full-data fit's
#'   `deviance`, whether every fit at that `lambda` `converged`, and when
#'   `lambda` was cross-validated the deviance `cv` per unit weight and its
#'   standard error `cv_se` across folds; on a sample of `path_rows` rows
#'   when the data had many, see "Choosing the penalty"), `deviance` and `null_deviance` of
#'   the fit, whether the rows carried an `offset`, `n`,
#'   `weight` (the sum of the weights), `nfolds`, `passes` over the data, the
#'   `scaling` of the predictors, and for data in memory the
#'   `linear_predictors` of the rows fitted, with a scale search its
#'   `selection` (as [rff_ridge()]'s, its `value` the cross-validated
#'   deviance, or with `scale_by = "evidence"` the surrogate's log
#'   evidence, its `surrogate` then `"ridge"`), with `probability = TRUE`
#'   the `platt` sigmoids (an `intercept` and `slope` per predictor), for
#'   `"cox"` its `ties`, `baseline` and `concordance` (see its section); formula fits also keep the `call` and
#'   their `design`. Methods: `print`, `coef`, `predict`, `plot` (the
#'   cross-validation curve) and `fitted`.
#' @template glm-kinks
#' @template glm-svr
#' @template glm-cox
#' @template glm-lambda
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
rff_glm.default <- function(x, y = NULL, map = NULL, family = NULL, tau = NULL, epsilon = NULL, lambda = NULL,
                            nfolds = 5, weights = NULL, kernel = NULL, n_features = NULL, method = "iid", seed = NULL,
                            standardize = NULL, scale = NULL, ard = FALSE, scale_by = c("evidence", "cv"), fun = NULL,
                            n_threads = NULL, offset = NULL, probability = FALSE, ties = NULL, ...) {
  check_no_dots(...)
  streamed <- is_chunk_source(x)
  data <- model_data(x, y, weights, offset, streamed)
  if (is.null(family)) {
    if (is.function(x)) fail("`family` must be given for a function chunk source, whose chunks are read once per pass.")
    family <- if (streamed) infer_family(x[[1L]]$y, "`y` of chunk 1") else infer_family(y, "`y`")
  }
  traits <- model_family_traits(family)
  offset_given <- !is.null(offset) || (streamed && is.list(x) && is.list(x[[1L]]) && !is.null(x[[1L]]$offset))
  searching <- glm_search(scale, ard, scale_from_data(map, kernel) && !(streamed && is.function(x)), scale_by,
                          !missing(scale_by), offset_given, lambda, family)
  standardize <- resolve_standardize(standardize, map, kernel, streamed)
  tau <- check_tau(tau, traits)
  epsilon <- check_epsilon(epsilon, traits)
  ties <- check_ties(ties, traits)
  fit_glm(data, family, tau, epsilon, model_map(map, kernel, n_features, method, seed), standardize, lambda, nfolds, seed, fun,
          n_threads, searching$search, searching$scale_by, probability, ties)
}

#' @rdname rff_glm
#' @export
rff_glm.formula <- function(formula, data = NULL, family = NULL, tau = NULL, epsilon = NULL, kernel = NULL,
                            n_features = NULL, map = NULL, subset, weights, na.action, contrasts = NULL,
                            standardize = NULL, lambda = NULL, nfolds = 5, scale = NULL, ard = FALSE,
                            scale_by = c("evidence", "cv"), method = "iid", seed = NULL, fun = NULL, n_threads = NULL,
                            offset, probability = FALSE, ties = NULL, ...) {
  check_no_dots(...)
  check_no_survival_terms(formula)
  call <- match.call()
  frame <- formula_design(call, parent.frame(), formula, contrasts)
  if (is.null(family)) family <- infer_family(frame$y, "The response of `formula`")
  traits <- model_family_traits(family)
  searching <- glm_search(scale, ard, scale_from_data(map, kernel), scale_by, !missing(scale_by), !is.null(frame$offset),
                          lambda, family)
  standardize <- resolve_standardize(standardize, map, kernel, FALSE)
  tau <- check_tau(tau, traits)
  epsilon <- check_epsilon(epsilon, traits)
  ties <- check_ties(ties, traits)
  if (!is.null(frame$offset) && response_kind(model_family_traits(family), levels(factor(frame$y))) == "classes") {
    fail("The \"%s\" family takes no offset from a formula (its offset() terms or `offset`) for several classes: each class has a linear predictor of its own, and one offset added to every class's would cancel in the softmax; the default method takes a matrix of one column per class.",
         family)
  }
  source <- list(list(x = frame$x, y = frame$y, w = frame$weights, offset = frame$offset))
  fit <- fit_glm(list(source = source, streamed = FALSE, what = "the predictors of `formula` expand to"), family, tau, epsilon,
                 model_map(map, kernel, n_features, method, seed), standardize, lambda, nfolds, seed, fun, n_threads,
                 searching$search, searching$scale_by, probability, ties)
  fit$call <- call
  fit$design <- frame$design
  fit
}
