# Random features as a term of a model formula, as splines::ns() is one.

#' Random Fourier features as a model formula term
#'
#' `rff_basis()` puts the left features of a map into any modelling function
#' that takes a formula: `lm(y ~ rff_basis(x1, x2, n_features = 64, seed = 1),
#' data)`, [glm()], and the like. The map is
#' drawn when the model is fitted and kept with the model (its
#' [makepredictcall()] method, as for [splines::ns()]), so `predict(fit,
#' newdata)` computes the features of the new data with the same map and the
#' same standardization. The model fitted on the features is an ordinary
#' least-squares or likelihood fit, without a penalty: keep the feature
#' columns well below the rows (a map of `n_features` frequencies gives
#' twice as many columns for most kernels), or use [rff_ridge()] and
#' [rff_glm()], which choose a penalty.
#'
#' @param ... The numeric variables (vectors or matrices), combined by
#'   columns into the data the map takes. A row with a missing value (NA or
#'   NaN) in any of them gives a row of NA features, so the model's
#'   `na.action` ([na.omit()], [na.exclude()]) treats it as for any other
#'   term, and predicting such a row gives NA.
#' @param kernel A kernel object, such as [gaussian_kernel()], whose length
#'   scales are in the units of the (standardized) variables; or the name of
#'   a family, `"gaussian"` (the default), `"laplace"` or `"exponential"`,
#'   whose length scale is the median distance between the rows (see
#'   [kernel_scale]).
#' @param n_features,method,seed As for [rff_map()] (`n_features` 256 when
#'   not given): with `seed = NULL` the map is drawn from R's random number
#'   generator, so [set.seed()] makes it reproducible.
#' @param standardize `TRUE` to center and scale each column by its mean and
#'   standard deviation on the data the model is fitted to (its complete
#'   rows), `FALSE` to use the variables as they are, or a list of `center`
#'   and `scale` (what prediction passes back). The default is `TRUE` for a
#'   kernel given by name and `FALSE` for a kernel object or a map.
#' @param map A map of [rff_map()] to use instead of drawing one (prediction
#'   passes the fitted model's map here), or a kernel, taken as `kernel`.
#' @return The feature matrix, of class `"rff_basis"`, with the `map` and
#'   `standardize` used as attributes.
#' @family models
#' @examples
#' # 32 cars: 6 frequencies give 12 feature columns
#' fit <- lm(mpg ~ rff_basis(wt, hp, n_features = 6, seed = 1), data = mtcars)
#' new_cars <- mtcars[1:3, ]
#' predict(fit, new_cars)
#' @export
rff_basis <- function(..., kernel = NULL, n_features = NULL, method = "iid", seed = NULL, standardize = NULL,
                      map = NULL) {
  columns <- list(...)
  if (length(columns) == 0L) fail("`...` must give the variables of the basis.")
  labels <- basis_labels(substitute(list(...)), names(columns))
  for (i in seq_along(columns)) {
    value <- columns[[i]]
    if (!is.numeric(value) || is.object(value) || !(is.null(dim(value)) || is_matrix(value))) {
      fail("Variable `%s` (number %d of `...`) must be a numeric vector or matrix.", labels[i], i)
    }
    if (any(is.infinite(value))) fail("Variable `%s` (number %d of `...`) must not contain infinite values.", labels[i], i)
  }
  rows <- vapply(columns, NROW, 0L)
  if (any(rows != rows[1L])) {
    fail("The variables of `...` must have the same number of rows; %s.",
         paste(sprintf("`%s` has %d", labels, rows), collapse = ", "))
  }
  x <- do.call(cbind, lapply(columns, as.matrix))
  # A row with a missing value gets a row of NA features, so that the
  # model's na.action drops (or pads) it as for any other term.
  complete <- stats::complete.cases(x)
  if (!any(complete)) {
    fail("No row of the variables of `...` (%s) is complete: a fit needs rows without missing values.",
         paste(sprintf("`%s`", labels), collapse = ", "))
  }
  x <- check_data(x[complete, , drop = FALSE], "...")
  scaling <- tryCatch(column_scaling(resolve_standardize(standardize, map, kernel, FALSE), x), askrff_error = function(e) {
    fail("%s (the variables: %s)", conditionMessage(e), paste(sprintf("`%s`", labels), collapse = ", "))
  })
  x <- apply_scaling(x, scaling)
  map <- model_map(map, kernel, n_features, method, seed, kinds = "rff_map")(x, "`...` gives")
  check_map_data(map, x, "...")
  z <- pad_rows(rff_features(map, x), complete)
  colnames(z) <- paste0("z", seq_len(ncol(z)))
  structure(z, map = map, standardize = if (is.null(scaling)) FALSE else scaling, class = c("rff_basis", "matrix"))
}

# The variables' expressions in the call (`Solar.R`, `log(Wind)`), or their
# names where given.
basis_labels <- function(call, given) {
  labels <- vapply(as.list(call)[-1L], function(e) paste(deparse(e, width.cutoff = 60L), collapse = " "), "")
  if (!is.null(given)) labels[nzchar(given)] <- given[nzchar(given)]
  labels
}

#' @importFrom stats makepredictcall
#' @export
makepredictcall.rff_basis <- function(var, call) {
  if (as.character(call)[1L] != "rff_basis" && !(is.call(call) && identical(eval(call[[1L]]), rff_basis))) {
    return(NextMethod())
  }
  call$map <- attr(var, "map")
  call$standardize <- attr(var, "standardize")
  call$kernel <- NULL
  call$n_features <- NULL
  call$method <- NULL
  call$seed <- NULL
  call
}
