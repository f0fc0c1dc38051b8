#' Marginal effects of a ridge fit: each variable's derivative, with standard errors
#'
#' `rff_effects()` gives, for each row of `newdata` and each numeric
#' variable, the partial derivative of an [rff_ridge()] fit's function by
#' that variable on the scale the user gave it, through the formula's
#' transformations and the standardization, with its standard error from
#' the posterior that `predict(se.fit = TRUE)` reads. [summary()] gives the
#' average marginal effects, whose standard errors account for the
#' coefficients every row shares, and quantiles of the pointwise effects.
#'
#' **How.** A feature's derivative is closed form: d/dx_j of a cos(x'w + p)
#' is -a w_j sin(x'w + p), the same trigonometric feature with its phase
#' moved by pi/2 and its weight times w_j, so the derivative of the fit,
#' z(x)'b, is the derivative features times the same coefficients, computed
#' a block of rows at a time, O(n D) for each design column the variable
#' moves. The variable reaches the design columns through the formula and
#' the standardization; their derivatives by it (a Jacobian per row) come
#' from central differences of the design at steps of 1e-5 times the
#' variable's size: exact, to rounding, for columns linear in it (a
#' standardized numeric column), and to about 1e-10 relative otherwise
#' (`log()`, `poly()`, splines). The effect is linear in the coefficients,
#' so its posterior variance is sigma^2 g(x)' (G + lambda I)^-1 g(x), g(x)
#' the derivative features, the same quadratic form as the fit's standard
#' errors (without the intercept's term: it does not move); the average
#' effect's is that of the average derivative features (the delta method,
#' exact here). Intervals are t intervals on the fit's residual degrees of
#' freedom, as [predict()][predict.askrff_ridge]'s.
#'
#' Derivatives need a map of [rff_map()] with trigonometric features (a
#' stationary kernel: Gaussian, Matérn, Laplace, ... and their signed and
#' complex mixtures' left features), a fit to one numeric response, and
#' numeric variables; the effects of factors and logicals (differences
#' between levels) are not available yet.
#'
#' @param fit A fit of [rff_ridge()] to one numeric response.
#' @param newdata The rows to take the derivatives at: a data frame with the
#'   formula's variables for a formula fit, else a matrix or data frame with
#'   the fit's columns (the fit keeps no training rows). Rows with a missing
#'   value get `NA`.
#' @param variables The numeric variables (names; for a fit of the default
#'   method also column numbers), or `NULL` for all of them; for `plot()`,
#'   those of the result to show.
#' @param level The confidence level of the intervals.
#' @param n_threads The number of threads; `NULL` for the package's default.
#' @param ... Not used; an error if given.
#' @return A data frame of class `askrff_effects`, one row per row of
#'   `newdata` and variable: `rowid`, `term` (the variable), `value` (its
#'   value in the row), `estimate` (the derivative), `std.error`,
#'   `conf.low` and `conf.high`; its attribute `"average"` holds the average
#'   effects. `summary()` gives the average effects with their standard
#'   errors, intervals and the quantiles of the pointwise effects; `tidy()`
#'   the averages as broom gives a model's terms (with t statistics and
#'   p-values on the residual degrees of freedom); `plot()` the pointwise
#'   effects and their intervals against each variable's values, the
#'   average dashed.
#' @examples
#' set.seed(1)
#' data <- data.frame(a = runif(300, -2, 2), b = runif(300, 1, 3))
#' data$y <- sin(2 * data$a) + log(data$b) + rnorm(300, sd = 0.1)
#' fit <- rff_ridge(y ~ a + log(b), data, kernel = gaussian_kernel(1), n_features = 128, seed = 1)
#' effects <- rff_effects(fit, data[1:5, ])
#' effects
#' # the average effects: about 2 E[cos(2 a)] and E[1 / b]
#' all_rows <- rff_effects(fit, data)
#' summary(all_rows)
#' plot(all_rows)
#' @export
rff_effects <- function(fit, newdata, variables = NULL, level = 0.95, n_threads = NULL, ...) {
  check_no_dots(...)
  fit <- validate_ridge(fit, "fit")
  if (fit$response$kind != "numeric") {
    fail("rff_effects() takes a fit to one numeric response; this fit's response is a %s.",
         response_text(fit$response))
  }
  if (!inherits(fit$map, "rff_map") || !identical(unique(fit$map$parts$features), "trig")) {
    fail("rff_effects() needs a map of rff_map() with trigonometric features (a stationary kernel's); this fit's map is a %s.",
         class(fit$map)[1L])
  }
  if (missing(newdata) || is.null(newdata)) fail("rff_effects() needs `newdata`: the fit keeps no training rows.")
  if (!is_single_number(level) || !(level > 0 && level < 1)) fail("`level` must be a number between 0 and 1.")
  n_threads <- resolve_threads(n_threads)
  residual <- ridge_residual_variance(fit)
  rows <- ridge_newdata(fit, newdata, NULL, 1L)
  chosen <- effect_variables(fit, newdata, variables)
  parts <- lapply(names(chosen), function(name) {
    variable_effects(fit, newdata, rows, name, chosen[[name]], residual, level, n_threads)
  })
  out <- do.call(rbind, lapply(parts, `[[`, "rows"))
  rownames(out) <- NULL
  structure(out, average = do.call(rbind, lapply(parts, `[[`, "average")), level = level, df = residual$df[[1L]],
            class = c("askrff_effects", "data.frame"))
}

# The numeric variables asked for, each with how to move it in newdata: a
# column of a data frame or matrix (its name or number).
effect_variables <- function(fit, newdata, variables) {
  numeric_columns <- if (is.data.frame(newdata)) {
    names(newdata)[vapply(newdata, function(v) is.numeric(v) && !is.object(v), logical(1))]
  } else {
    if (is.null(colnames(newdata))) as.character(seq_len(ncol(newdata))) else colnames(newdata)
  }
  available <- if (is.null(fit$design)) numeric_columns else intersect(smooth_variables(fit$design), numeric_columns)
  if (is.null(variables)) variables <- available
  if (is.numeric(variables) && is.null(fit$design)) variables <- numeric_columns[variables]
  if (!is.character(variables) || length(variables) < 1L || anyNA(variables) || anyDuplicated(variables)) {
    fail("`variables` must name distinct numeric variables of `newdata` the fit uses.")
  }
  unknown <- setdiff(variables, available)
  if (length(unknown) > 0L) {
    fail("`variables` names %s, which %s not among the numeric variables of `newdata` the fit uses (%s); a variable in a factor, logical or offset term has no derivative here.",
         paste0("`", unknown, "`", collapse = ", "), if (length(unknown) == 1L) "is" else "are",
         paste(available, collapse = ", "))
  }
  stats::setNames(lapply(variables, function(v) {
    if (is.data.frame(newdata) || !is.null(colnames(newdata))) v else as.integer(v)
  }), variables)
}

# The formula's variables that reach the design only through numeric
# terms (numbers, or numeric matrices as poly() makes): not through a
# factor or a logical, and not through an offset, which the derivative of
# the features leaves out. The terms' own expressions, never parsed text.
smooth_variables <- function(design) {
  expressions <- as.list(attr(design$terms, "variables"))[-1L]
  labels <- vapply(expressions, function(e) paste(deparse(e, width.cutoff = 500L), collapse = " "), "")
  classes <- attr(design$terms, "dataClasses")[labels]
  smooth <- !is.na(classes) & (classes == "numeric" | startsWith(classes, "nmatrix"))
  smooth[attr(design$terms, "offset")] <- FALSE
  inputs <- lapply(expressions, all.vars)
  names <- unique(unlist(inputs))
  names[vapply(names, function(v) all(smooth[vapply(inputs, function(e) v %in% e, logical(1))]), logical(1))]
}

# One variable's pointwise effects and their average.
variable_effects <- function(fit, newdata, rows, name, column, residual, level, n_threads) {
  value <- as.numeric(newdata[, column, drop = TRUE])
  jacobian <- design_jacobian(fit, newdata, rows, column, value)
  moved <- which(colSums(jacobian != 0) > 0)
  n <- length(rows$complete)
  estimate <- se <- rep(NA_real_, n)
  sigma2 <- residual$sigma2[[1L]]
  lambda <- response_lambdas(fit)[[1L]]
  posterior <- fit$posterior
  # no complete rows: no average; a variable no design column moves: 0
  average <- data.frame(term = name, estimate = NA_real_, std.error = NA_real_)
  if (nrow(rows$x) > 0L) {
    estimate[rows$complete] <- 0
    se[rows$complete] <- 0
    average$estimate <- average$std.error <- 0
  }
  if (nrow(rows$x) > 0L && length(moved) > 0L) {
    input <- core_input(fit$map, rows$x, "left", n_threads)
    direction <- jacobian[, moved, drop = FALSE]
    estimate[rows$complete] <- core(.cpp_effect_products(input$map, input$x, moved, direction,
                                                         t(fit$coefficients), n_threads))[, 1L]
    q <- core(.cpp_effect_posterior(input$map, input$x, moved, direction, posterior$vectors, posterior$values,
                                    lambda, n_threads))[, 1L]
    se[rows$complete] <- sqrt(sigma2 * q)
    mean_features <- core(.cpp_effect_sum(input$map, input$x, moved, direction, n_threads)) / nrow(rows$x)
    average$estimate <- sum(mean_features * fit$coefficients[, 1L])
    average$std.error <- sqrt(sigma2 * posterior_form(mean_features, posterior, lambda))
  }
  if (!all(is.finite(estimate[rows$complete])) || !all(is.finite(se[rows$complete]))) {
    fail("The effects of `%s` overflow: the fit's `coefficients` or `posterior` hold values no fit has; fit the model again with rff_ridge().",
         name)
  }
  half <- -stats::qt((1 - level) / 2, residual$df[[1L]])
  average$conf.low <- average$estimate - half * average$std.error
  average$conf.high <- average$estimate + half * average$std.error
  list(rows = data.frame(rowid = seq_len(n), term = rep(name, n), value = value, estimate = estimate, std.error = se,
                         conf.low = estimate - half * se, conf.high = estimate + half * se),
       average = average)
}

# The derivative of the complete rows' standardized design columns by the
# variable (rows by columns), by central differences of the design at
# steps of 1e-5 of the variable's size.
design_jacobian <- function(fit, newdata, rows, column, value) {
  size <- max(abs(value[rows$complete]), 0)
  step <- 1e-5 * pmax(abs(value), if (size > 0) size else 1)
  moved <- function(sign) {
    shifted <- newdata
    shifted[, column] <- value + sign * step
    moved_rows <- ridge_newdata(fit, shifted, NULL, 1L)
    if (!identical(moved_rows$complete, rows$complete)) {
      fail("Moving `%s` by a small step changes which rows of `newdata` the fit can score (a transformation undefined next to its values?).",
           as.character(column))
    }
    moved_rows$x
  }
  if (nrow(rows$x) == 0L) return(matrix(0, 0L, ncol(rows$x)))
  (moved(1) - moved(-1)) / (2 * step[rows$complete])
}

# g' (G + lambda I)^-1 g of ridge_posterior.h for one vector g, about 0.
posterior_form <- function(g, posterior, lambda) {
  a <- drop(crossprod(posterior$vectors, g))
  sum(a^2 / (posterior$values + lambda)) + max(sum(g^2) - sum(a^2), 0) / lambda
}
