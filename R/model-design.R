# What the models share before their sums: the map (given, or drawn for a
# kernel once the data's columns are known), the standardization of the
# predictors, observation weights, and the formula interface, which turns a
# data frame into the numeric columns the map takes and rebuilds the same
# columns for new data.

# The number of frequencies of a map drawn when `n_features` is not given.
default_frequencies <- 256L

# The map a model uses, as a function of the rows `x` it will see (the
# first chunk's, standardized) and of the words naming them, `what`, for
# errors: `map` as given, or one drawn for `kernel` in their dimension, its
# length scale taken from x for a kernel by name (kernel_for_data(); NULL
# is "gaussian"). A kernel in the map's place is taken as `kernel`, since
# the map can be drawn only once the data's columns are known. `kinds`
# limits the maps accepted (as in validate_map()).
model_map <- function(map, kernel, n_features, method, seed, kinds = map_kinds) {
  if (inherits(map, "askrff_kernel")) {
    if (!is.null(kernel)) fail("`map` is a kernel and `kernel` is given too: give the kernel once.")
    kernel <- map
    map <- NULL
  }
  if (!is.null(map) && !is.null(kernel)) fail("Give either `map` or `kernel` (with `n_features`), not both.")
  if (!is.null(map)) {
    return(function(x, what = "the data (`x`) have") {
      map <- validate_map(map, kinds = kinds)
      if (map$d != ncol(x)) fail("`map` is for %d columns, but %s %d.", map$d, what, ncol(x))
      map
    })
  }
  tidy_kernel(kernel)  # checked before any data are read
  if (is.null(n_features)) n_features <- default_frequencies
  function(x, what = NULL) rff_map(kernel_for_data(kernel, 1, x, seed), ncol(x), n_features, method, seed = seed)
}

# `standardize` NULL (the default) is TRUE for a kernel given by name, whose
# length scale comes from the data (kernel_scale), when the data are in
# memory; FALSE for a kernel object or a map, whose scales are the data's.
resolve_standardize <- function(standardize, map, kernel, streamed) {
  if (!is.null(standardize)) return(standardize)
  scale_from_data(map, kernel) && !streamed
}

# Whether the map is drawn for a kernel given by name (or none), whose
# length scale comes from the data.
scale_from_data <- function(map, kernel) is.null(map) && kernel_by_name(kernel)

# NULL for no standardization, else the center and scale of each column of
# x: TRUE computes them from x (when x is NULL, the data arrive in chunks
# and cannot be summarised first), a list passes them in.
column_scaling <- function(standardize, x, arg = "standardize") {
  if (isFALSE(standardize)) return(NULL)
  if (isTRUE(standardize)) {
    if (is.null(x)) {
      fail("`%s = TRUE` needs the data in memory; for chunks, give list(center = , scale = ) computed beforehand.", arg)
    }
    # each column divided by its largest entry first, so that neither its
    # mean nor its squares overflow or underflow (columns from 1e-300 to
    # 1e300 times unit scale standardize alike)
    size <- apply(abs(x), 2L, max)
    size[size == 0] <- 1
    unit <- x / by_column(size, x)
    center <- colMeans(unit)
    scale <- sqrt(colSums((unit - by_column(center, unit))^2) / max(1L, nrow(x) - 1L))
    if (any(scale == 0)) {
      fail("Column %s of the data is constant, so `%s = TRUE` cannot scale it.",
           (if (is.null(colnames(x))) which(scale == 0) else colnames(x)[scale == 0])[1L], arg)
    }
    return(list(center = center * size, scale = scale * size))
  }
  d <- if (is.null(x)) NULL else ncol(x)
  if (!is.list(standardize) || !all(c("center", "scale") %in% names(standardize)) ||
      !is.numeric(standardize$center) || !is.numeric(standardize$scale) || is.object(standardize$center) ||
      length(standardize$center) != length(standardize$scale) || length(standardize$center) < 1L ||
      (!is.null(d) && length(standardize$center) != d) ||
      any(!is.finite(standardize$center)) || any(!is.finite(standardize$scale)) || any(standardize$scale <= 0)) {
    fail("`%s` must be TRUE, FALSE, or a list of finite `center` and positive `scale`, one entry per column%s.", arg,
         if (is.null(d)) "" else sprintf(" (%d)", d))
  }
  list(center = stats::setNames(as.double(standardize$center), names(standardize$center)),
       scale = stats::setNames(as.double(standardize$scale), names(standardize$scale)))
}

# A value per column of x, repeated down its rows: what sweep() computes,
# without its transposes.
by_column <- function(v, x) rep(v, each = nrow(x))

apply_scaling <- function(x, scaling) {
  if (is.null(scaling)) return(x)
  if (length(scaling$center) != ncol(x)) {
    fail("The standardization is for %d columns, but the data have %d.", length(scaling$center), ncol(x))
  }
  x <- (x - by_column(scaling$center, x)) / by_column(scaling$scale, x)
  if (!all(is.finite(x))) fail("The standardized data overflow; the `standardize` scales are too small for these values.")
  x
}

# The data of a default method's fit: a chunk source as it is (each chunk
# carries its own `y`, `w` and `offset`), or the one chunk of data in
# memory.
model_data <- function(x, y, weights, offset, streamed) {
  if (!streamed) {
    return(list(source = list(list(x = x, y = y, w = weights, offset = offset)), streamed = FALSE, what = "`x` has"))
  }
  given <- c(y = "y", weights = "w", offset = "offset")[c(!is.null(y), !is.null(weights), !is.null(offset))]
  if (length(given) > 0L) {
    fail("`%s` must be NULL when `x` is a chunk source; each chunk carries its own `%s`.", names(given)[1L], given[[1L]])
  }
  list(source = x, streamed = TRUE, what = "the chunks' `x` have")
}

# Observation weights: NULL for none, else one finite nonnegative number per
# row, with at least two positive.
check_weights <- function(w, n, where) as_condition_class("data", {
  if (is.null(w)) return(rep(1, n))
  if (!is.numeric(w) || is.object(w) || !is.null(dim(w)) || length(w) != n || anyNA(w) || any(!is.finite(w)) ||
      any(w < 0)) {
    fail("%s must be NULL or one finite nonnegative weight per row (%d).", where, n)
  }
  as.double(w)
})

# The formula interface: the model frame of `formula` in `data` with the
# usual `subset`, `weights`, `offset` and `na.action`, its predictors
# expanded into numeric columns without an intercept (the models fit their
# own); its offset() terms are no predictors (model.matrix() leaves them
# out) but are summed with `offset` into the rows' offset
# (R/model-offset.R). Factors get one indicator column per level (contrasts
# = FALSE) unless `contrasts` says otherwise: a kernel on the indicators
# then treats every two levels as equally far apart, where treatment
# contrasts would put the first level nearer the others than they are to
# each other.
formula_design <- function(call, env, formula, contrasts) as_condition_class("data", {
  if (!inherits(formula, "formula")) fail("`formula` must be a formula such as y ~ x1 + x2.")
  frame_call <- call[c(1L, match(c("formula", "data", "subset", "weights", "offset", "na.action"), names(call), 0L))]
  frame_call$drop.unused.levels <- TRUE
  frame_call[[1L]] <- quote(stats::model.frame)
  frame_call$formula <- formula
  if (!is.null(frame_call$na.action)) frame_call$na.action <- check_na_action(eval(frame_call$na.action, env))
  # R's message says what failed; which of these arguments caused it, it
  # cannot always say
  mf <- tryCatch(eval(frame_call, env), error = function(e) {
    fail("The model frame of `formula` in `data` (with `subset`, `weights`, `offset`, `na.action`) could not be built: %s",
         conditionMessage(e))
  })
  terms <- attr(mf, "terms")
  if (attr(terms, "response") == 0L) fail("`formula` must have a response on its left side.")
  if (nrow(mf) < 2L) {
    # name the variables with too few values, which `y ~ .` takes silently
    data <- data_of(frame_call, env)
    variables <- intersect(all.vars(stats::delete.response(terms)), if (is.data.frame(data)) names(data))
    sparse <- Filter(function(v) sum(!is.na(data[[v]])) < 2L, variables)
    fail("The model frame of `formula` in `data` has %d row%s after `subset` and `na.action`; a fit needs at least two.%s",
         nrow(mf), if (nrow(mf) == 1L) "" else "s",
         if (length(sparse) > 0L) sprintf(" %s %s fewer than two values that are not NA.",
                                          paste0("`", sparse, "`", collapse = ", "), if (length(sparse) > 1L) "have" else "has") else "")
  }
  x <- design_columns(terms, mf, contrasts)
  what <- "The offset of `formula` (its offset() terms and `offset`)"
  offset <- check_offset(frame_offset(mf, what), nrow(mf), 1L, what)
  # the response's expression, as the formula gives it, for augment(), and
  # the `offset` argument's, for predict(): language objects, never strings
  # to parse
  response <- attr(terms, "variables")[[attr(terms, "response") + 1L]]
  list(x = x$x, y = stats::model.response(mf), weights = stats::model.weights(mf), offset = offset,
       design = list(terms = stats::delete.response(terms), xlevels = stats::.getXlevels(terms, mf),
                     contrasts = x$contrasts, na_action = attr(mf, "na.action"), response = response,
                     offset = call$offset))
})

# The data frame the model frame is built from, or NULL.
data_of <- function(frame_call, env) {
  if (is.null(frame_call$data)) return(NULL)
  tryCatch(eval(frame_call$data, env), error = function(e) NULL)
}

design_columns <- function(terms, mf, contrasts = NULL) {
  factors <- names(Filter(function(v) is.factor(v) || is.character(v) || is.logical(v), mf))
  factors <- intersect(factors, attr(terms, "term.labels"))
  if (is.null(contrasts)) {
    contrasts <- lapply(stats::setNames(nm = factors), function(v) if (is.logical(mf[[v]])) NULL else "contr.onehot")
    contrasts <- Filter(Negate(is.null), contrasts)
  }
  given <- lapply(stats::setNames(nm = names(contrasts)), function(v) contrast_matrix(contrasts[[v]], mf[[v]]))
  x <- tryCatch(stats::model.matrix(terms, mf, contrasts.arg = given),
                error = function(e) fail("The predictors of `formula` could not be expanded: %s", conditionMessage(e)))
  keep <- colnames(x) != "(Intercept)"
  if (!any(keep)) fail("`formula` must have at least one predictor.")
  list(x = x[, keep, drop = FALSE], contrasts = contrasts)
}

# The contrasts of a factor: as given, or the indicators of every level
# (a matrix: model.matrix() would cut a function's columns to the levels
# less one).
contrast_matrix <- function(contrast, values) {
  if (!identical(contrast, "contr.onehot")) return(contrast)
  levels <- if (is.factor(values)) levels(values) else sort(unique(values))
  stats::contr.treatment(levels, contrasts = FALSE)
}

# `na.action`: a function, or the name of one, such as "na.omit".
check_na_action <- function(na.action) {
  if (is.character(na.action) && length(na.action) == 1L && !is.na(na.action)) {
    na.action <- tryCatch(match.fun(na.action), error = function(e) NULL)
  }
  if (!is.function(na.action)) {
    fail("`na.action` must be a function such as na.omit or na.exclude, or its name.")
  }
  na.action
}

# The columns of a formula fit for new data and their offset (one column,
# NULL for a fit without one): rows with a missing predictor or offset give
# NA (`complete` is FALSE there). A factor level unseen in the fit is an
# error.
design_rows <- function(design, newdata, arg) {
  if (!is.data.frame(newdata) && !is.list(newdata)) {
    fail("`%s` must be a data frame with the variables of the fit's formula.", arg)
  }
  unfit <- function(e) fail("`%s` does not fit the model's formula: %s", arg, conditionMessage(e))
  mf <- tryCatch({
    mf <- stats::model.frame(design$terms, newdata, na.action = stats::na.pass, xlev = design$xlevels)
    classes <- attr(design$terms, "dataClasses")
    if (!is.null(classes)) stats::.checkMFClasses(classes, mf)
    mf
  }, error = unfit)
  offset <- design_offset(design, mf, newdata, arg)
  complete <- stats::complete.cases(mf) & !is.na(if (is.null(offset)) 0 else offset)
  offset <- check_offset(offset[complete], sum(complete), 1L, sprintf("The offset of `%s`", arg))
  x <- tryCatch(design_columns(design$terms, mf[complete, , drop = FALSE], design$contrasts)$x, error = unfit)
  list(x = x, complete = complete, offset = offset)
}

# Values for the complete rows, with NA rows where a predictor was missing.
pad_rows <- function(values, complete) {
  if (all(complete)) return(values)
  out <- matrix(NA_real_, length(complete), ncol(values), dimnames = list(NULL, colnames(values)))
  out[complete, ] <- values
  out
}
