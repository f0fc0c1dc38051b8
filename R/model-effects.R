#' Marginal effects of a fit: each variable's derivative or contrast, with standard errors
#'
#' `rff_effects()` gives, for each row of `newdata` and each variable, the
#' partial derivative of a fit's prediction by a numeric variable on the
#' scale the user gave it (through the formula's transformations and the
#' standardization), or the difference a factor's or logical's levels make
#' (each level against the first, as `marginaleffects::comparisons()`
#' does), with standard errors by the delta method over the coefficients'
#' covariance ([vcov()][vcov.askrff_ridge]). [summary()] gives the average
#' marginal effects, whose standard errors account for the coefficients
#' every row shares, and quantiles of the pointwise effects.
#'
#' **How.** A feature's derivative is closed form: d/dx_j of a cos(x'w + p)
#' is -a w_j sin(x'w + p), and the map's features hold both the cosine and
#' the sine of each frequency, so the derivative of the linear predictor
#' z(x)'b along every design column is the features times coefficients
#' rearranged from b, and one pass over the rows gives the derivatives of
#' every variable at once. A variable reaches the design columns through
#' the formula and the standardization; their derivatives by it (a
#' Jacobian per row) come from central differences of the design at steps
#' of 1e-5 times each value (at least a thousandth of the largest) and half
#' those, extrapolated (Richardson): exact, to rounding, for columns linear
#' in it (a standardized numeric column), and to about 1e-8 relative or
#' better otherwise (`log()`, `poly()`, splines), even where the values
#' span orders of magnitude. A contrast is the difference of
#' the predictions at two versions of each row (the variable set to a level
#' and to the first level; or, with `type = "difference"`, a numeric
#' variable moved by +1, as `comparisons()`'s default), exactly.
#'
#' **Standard errors.** An effect on the linear predictor is linear in the
#' coefficients: its variance is g' V g, g the derivative features (or the
#' difference of the features) and V the coefficients' covariance. For a
#' ridge fit, V is by default the posterior's, \eqn{\sigma^2 (G + \lambda
#' I)^{-1}} (that `predict(se.fit = TRUE)` reads); `vcov = "sampling"`
#' takes the variance of the estimate over the noise given the smoothing,
#' \eqn{\sigma^2 (G + \lambda I)^{-1} G (G + \lambda I)^{-1}}, as KRLS
#' (Hainmueller and Hazlett 2014) does, which is smaller: the posterior's
#' adds the prior's variance in the directions the data leave open. Over
#' 400 replicates of a smooth function (`bench/effects.R coverage`), the
#' 95 % intervals of the average effects covered the truth 98.5 % and
#' 96.8 % of the time with the posterior's, 96.8 % and 95.5 % with the
#' sampling variance; neither accounts for the smoothing's bias. For a
#' GLM, V is the penalized Hessian's inverse (its Laplace posterior). On a
#' GLM's response scale, \eqn{\mu = h(\eta)}, the effect is \eqn{h'(\eta)
#' g'b} (or \eqn{h(\eta_1) - h(\eta_0)}) and the delta method takes its
#' gradient in the intercept and the coefficients. The average effect's
#' variance is that of the average gradient (the delta method, exact for a
#' linear predictor). Intervals are t intervals on a ridge fit's residual
#' degrees of freedom, as [predict()][predict.askrff_ridge]'s, and normal
#' intervals for a GLM.
#'
#' **Cost.** The derivatives of all the numeric variables and their
#' averages share one pass over the rows (two on a GLM's response scale),
#' O(n D) with D feature columns; each contrast between levels takes one
#' (three on the response scale); the averages' standard errors a D x D
#' quadratic form each. The pointwise standard errors (`se = TRUE`) take a
#' pass per variable with a quadratic form per row, O(n D^2) flops: at
#' 2,048 feature columns, 25 s per variable and 100,000 rows on two cores,
#' where the effects of ten variables on a million rows take 22 s; `se =
#' FALSE` leaves them out (`bench/effects.R`).
#'
#' Effects need a map of [rff_map()] with trigonometric features (a
#' stationary kernel: Gaussian, Matérn, Laplace, ... and their signed and
#' complex mixtures' left features), a fit of one linear predictor with a
#' covariance: [rff_ridge()] to one numeric response, or [rff_glm()] of the
#' binomial or Poisson family.
#'
#' @param fit A fit of [rff_ridge()] to one numeric response, or of
#'   [rff_glm()] of the `"binomial"` or `"poisson"` family.
#' @param newdata The rows to take the effects at: a data frame with the
#'   formula's variables for a formula fit, else a matrix or data frame with
#'   the fit's columns (the fits keep no training rows). Rows with a missing
#'   value get `NA`.
#' @param variables The variables (names; for a fit of the default method
#'   also column numbers), or `NULL` for all of them; for `plot()`, those of
#'   the result to show. A variable reaching the design through a
#'   non-numeric term other than itself (`factor(m)`, `I(a > 0)`) or
#'   through an offset has no effect here.
#' @param type For numeric variables, `"derivative"` (the slope) or
#'   `"difference"` (the change when the variable moves by +1). Factors,
#'   characters and logicals always get differences between levels.
#' @param prediction For a GLM, `"response"` for effects on the mean (the
#'   probability, or the Poisson mean) or `"link"` for the linear predictor;
#'   a ridge fit's are the same.
#' @param se Whether to give the pointwise standard errors and intervals
#'   (see Cost); the averages' are always given.
#' @param vcov For a ridge fit, the coefficients' covariance behind the
#'   standard errors: `"posterior"` (that of [vcov()][vcov.askrff_ridge] and
#'   `predict(se.fit = TRUE)`) or `"sampling"`, the estimate's variance over
#'   the noise given the smoothing (see Standard errors). A GLM's is its
#'   Laplace posterior's.
#' @param level The confidence level of the intervals.
#' @param offset For a fit of the default method whose rows carried an
#'   offset, the offset of each row of `newdata` (it moves a GLM's response
#'   scale); `NULL` otherwise.
#' @param n_threads The number of threads; `NULL` for the package's default.
#' @param ... Not used; an error if given.
#' @return A data frame of class `askrff_effects`, one row per row of
#'   `newdata`, variable and contrast: `rowid`, `term` (the variable),
#'   `contrast` (`"dY/dX"` for a derivative, `"+1"` for a numeric
#'   difference, `"level - first level"` for a factor's), `value` (the
#'   numeric variable's value in the row; `NA` for factors), `estimate`,
#'   `std.error`, `conf.low` and `conf.high`; its attribute `"average"`
#'   holds the average effects. `summary()` gives the average effects with
#'   their standard errors, intervals and the quantiles of the pointwise
#'   effects; `tidy()` the averages as broom gives a model's terms (with t
#'   or z statistics and p-values); `plot()` the pointwise effects and their
#'   intervals against each numeric variable's values and by contrast for
#'   factors, the average dashed.
#' @examples
#' set.seed(1)
#' data <- data.frame(a = runif(300, -2, 2), b = runif(300, 1, 3), g = factor(sample(c("u", "v"), 300, TRUE)))
#' data$y <- sin(2 * data$a) + log(data$b) + (data$g == "v") + rnorm(300, sd = 0.1)
#' fit <- rff_ridge(y ~ a + log(b) + g, data, kernel = gaussian_kernel(1), n_features = 128, seed = 1)
#' effects <- rff_effects(fit, data[1:5, ])
#' effects
#' # the average effects: about 2 E[cos(2 a)], E[1 / b] and 1 for g
#' all_rows <- rff_effects(fit, data)
#' summary(all_rows)
#' plot(all_rows)
#' # a logistic fit's effects on the probability
#' data$z <- factor(data$y > 1)
#' classifier <- rff_glm(z ~ a + b, data, family = "binomial", n_features = 64, seed = 1)
#' summary(rff_effects(classifier, data))
#' @export
rff_effects <- function(fit, newdata, variables = NULL, type = c("derivative", "difference"),
                        prediction = c("response", "link"), se = TRUE, vcov = c("posterior", "sampling"),
                        level = 0.95, offset = NULL, n_threads = NULL, ...) {
  check_no_dots(...)
  type <- check_choice(type, c("derivative", "difference"), "type")
  prediction <- check_choice(prediction, c("response", "link"), "prediction")
  vcov <- check_choice(vcov, c("posterior", "sampling"), "vcov")
  check_flag(se, "se")
  model <- effect_model(fit, prediction, se, vcov)
  if (missing(newdata) || is.null(newdata)) fail("rff_effects() needs `newdata`: the fits keep no training rows.")
  if (isS4(newdata) && methods::is(newdata, "Matrix")) newdata <- as.matrix(newdata)
  if (!is.data.frame(newdata) && !is.matrix(newdata)) fail("`newdata` must be a data frame or a matrix.")
  if (!is_single_number(level) || !(level > 0 && level < 1)) fail("`level` must be a number between 0 and 1.")
  n_threads <- resolve_threads(n_threads)
  rows <- ridge_newdata(model$fit, newdata, offset, 1L)
  chosen <- effect_variables(model$fit, newdata, variables)
  contrasts <- unlist(lapply(names(chosen), function(name) {
    variable_contrasts(model$fit, newdata, rows, name, chosen[[name]], type, offset)
  }), recursive = FALSE)
  # the derivatives share their passes; each difference takes its own
  derivative <- vapply(contrasts, function(k) k$kind == "derivative", logical(1))
  gradients <- vector("list", length(contrasts))
  if (any(derivative) && nrow(rows$x) > 0L) {
    gradients[derivative] <- derivative_gradients(model, contrasts[derivative], se, n_threads)
  }
  if (nrow(rows$x) > 0L) {
    gradients[!derivative] <- lapply(contrasts[!derivative], difference_gradients, model = model, se = se,
                                     n_threads = n_threads)
  }
  parts <- lapply(seq_along(contrasts), function(k) {
    part <- gradients[[k]]
    if (is.null(part)) part <- list(estimate = numeric(), variance = numeric(), c0 = 0, sum = numeric(length(model$b)))
    contrast_effects(contrasts[[k]], part, model, se, level)
  })
  out <- do.call(rbind, lapply(parts, `[[`, "rows"))
  rownames(out) <- NULL
  structure(out, average = do.call(rbind, lapply(parts, `[[`, "average")), level = level, df = model$df,
            class = c("askrff_effects", "data.frame"))
}

# The variables asked for, each with how to set it in newdata (a column's
# name or number) and whether it is numeric.
effect_variables <- function(fit, newdata, variables) {
  columns <- if (is.data.frame(newdata)) names(newdata) else if (is.null(colnames(newdata))) {
    as.character(seq_len(ncol(newdata)))
  } else {
    colnames(newdata)
  }
  available <- if (is.null(fit$design)) columns else intersect(design_variables(fit$design), columns)
  if (is.null(variables)) variables <- available
  if (is.numeric(variables) && is.null(fit$design)) {
    if (any(is.na(variables)) || any(variables != round(variables)) || any(variables < 1 | variables > length(columns))) {
      fail("`variables` given as numbers must be column numbers of `newdata`, 1 to %d.", length(columns))
    }
    variables <- columns[variables]
  }
  if (!is.character(variables) || length(variables) < 1L || anyNA(variables) || anyDuplicated(variables)) {
    fail("`variables` must name distinct variables of `newdata` the fit uses.")
  }
  unknown <- setdiff(variables, available)
  if (length(unknown) > 0L) {
    fail("`variables` names %s, which %s not among the variables of `newdata` the fit uses (%s); a variable in a non-numeric term other than itself or in an offset term has no effect here.",
         paste0("`", unknown, "`", collapse = ", "), if (length(unknown) == 1L) "is" else "are",
         paste(available, collapse = ", "))
  }
  stats::setNames(lapply(variables, function(v) {
    if (is.data.frame(newdata) || !is.null(colnames(newdata))) v else as.integer(v)
  }), variables)
}

# The formula's variables with an effect: those reaching the design only
# through numeric terms (numbers, or numeric matrices as poly() makes), not
# through a factor made of them or an offset; and the factors, characters
# and logicals the formula takes as they are. Read from the terms'
# expressions, never parsed text.
design_variables <- function(design) {
  expressions <- as.list(attr(design$terms, "variables"))[-1L]
  labels <- vapply(expressions, function(e) paste(deparse(e, width.cutoff = 500L), collapse = " "), "")
  classes <- attr(design$terms, "dataClasses")[labels]
  smooth <- !is.na(classes) & (classes == "numeric" | startsWith(classes, "nmatrix"))
  smooth[attr(design$terms, "offset")] <- FALSE
  inputs <- lapply(expressions, all.vars)
  names <- unique(unlist(inputs))
  numeric <- names[vapply(names, function(v) all(smooth[vapply(inputs, function(e) v %in% e, logical(1))]), logical(1))]
  levels <- labels[!is.na(classes) & classes %in% c("factor", "ordered", "character", "logical") &
                     vapply(expressions, is.name, logical(1))]
  union(numeric, levels)
}
