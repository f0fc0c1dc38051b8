# The variables of the kernel tests: what a user holds (a numeric vector,
# matrix or data frame, factors, characters and logicals included) as the
# numeric columns a map reads, on the rows complete in every variable; and
# each variable's map, drawn for its kernel (by name: a Gaussian at the
# tests' median heuristic on its standardized rows).

# The variables (a named list, the names those of the arguments) as numeric
# matrices on their common complete rows: factors as one indicator column
# per level seen, as in the models' formulas.
test_variables <- function(values) as_condition_class("data", {
  frames <- Map(test_frame, values, names(values))
  rows <- vapply(frames, NROW, 0L)
  if (any(rows != rows[1L])) {
    fail("The variables must have the same number of rows; %s.",
         paste(sprintf("`%s` has %d", names(values), rows), collapse = ", "))
  }
  complete <- Reduce(`&`, lapply(frames, stats::complete.cases))
  if (sum(complete) < min_test_rows) {
    fail("The variables have %d rows complete in all of them (%s); a test needs at least %d.", sum(complete),
         paste(sprintf("`%s`", names(values)), collapse = ", "), min_test_rows)
  }
  variables <- Map(function(frame, arg) test_design(frame[complete, , drop = FALSE], arg), frames, names(values))
  structure(variables, dropped = sum(!complete), complete = complete)
})

# Fewer rows leave no covariance to speak of.
min_test_rows <- 4L

# A variable as a data frame (anything but a numeric matrix) or a numeric
# matrix.
test_frame <- function(value, arg) {
  if (is.data.frame(value)) {
    if (ncol(value) == 0L) fail("`%s` must have at least one column.", arg)
    return(value)
  }
  if (isS4(value) && methods::is(value, "Matrix")) value <- as.matrix(value)
  if (is_matrix(value) && is.numeric(value)) {
    if (ncol(value) == 0L) fail("`%s` must have at least one column.", arg)
    return(value)
  }
  atomic <- is.null(dim(value)) && (is.numeric(value) || is.logical(value) || is.character(value)) && !is.object(value)
  if (atomic || is.factor(value)) return(stats::setNames(data.frame(value, stringsAsFactors = FALSE), arg))
  fail("`%s` must be a numeric vector or matrix, a factor, or a data frame (of numbers, factors, characters or logicals).",
       arg)
}

# The numeric columns of a complete frame: a data frame's factors,
# characters and logicals as indicators of the levels present, or of the
# levels `xlev` (those a fit saw, in its attribute "xlevels").
test_design <- function(frame, arg, xlev = NULL) {
  if (is.data.frame(frame)) {
    if (is.null(xlev)) frame <- droplevels(frame)
    mf <- tryCatch(stats::model.frame(~ ., frame, xlev = xlev), error = function(e) {
      fail("`%s` could not be encoded with the levels of the fit's data: %s", arg, conditionMessage(e))
    })
    xlev <- stats::.getXlevels(stats::terms(mf), mf)
    frame <- design_columns(stats::terms(mf), mf)$x
    attr(frame, "xlevels") <- xlev
  }
  storage.mode(frame) <- "double"
  if (any(is.infinite(frame))) fail("`%s` must not contain infinite values.", arg)
  frame
}

# The map of one variable x (rows complete, columns numeric) and the rows it
# reads: `kernel` a name (NULL: "gaussian"), a kernel object with a positive
# spectral measure, or a map of rff_map() for ncol(x) columns.
# `standardize` NULL standardizes for a kernel by name only.
test_map <- function(kernel, x, n_features, seed, standardize, arg) {
  if (inherits(kernel, "askrff_map")) {
    map <- validate_map(kernel, arg, kinds = "rff_map")
    if (map$d != ncol(x)) fail("`%s` is a map for %d columns, but the variable has %d.", arg, map$d, ncol(x))
    check_positive_kernel(map$kernel, arg)
  }
  if (is.null(standardize)) standardize <- kernel_by_name(kernel)
  scaling <- column_scaling(standardize, x, "standardize")
  x <- apply_scaling(x, scaling)
  if (!inherits(kernel, "askrff_map")) {
    scale <- if (kernel_by_name(kernel)) test_scale else 1
    chosen <- check_positive_kernel(kernel_for_data(kernel, scale, x, seed, arg), arg)
    map <- rff_map(chosen, ncol(x), n_features, seed = seed)
  }
  list(map = map, x = x, scaling = scaling, by_name = kernel_by_name(kernel))
}

# The kernel tests' median heuristic (Gretton et al. 2008, Pfister et al.
# 2018, dHSIC): exp(-d^2 / median(d^2)), a length scale of the median
# distance over sqrt(2), in the units of kernel_scale.
test_scale <- 1 / sqrt(2)

# A test's kernel before the data are read: NULL, a name, a kernel object
# with a positive measure, or a map of rff_map().
check_test_kernel <- function(kernel, arg) {
  if (inherits(kernel, "askrff_map")) {
    check_positive_kernel(validate_map(kernel, arg, kinds = "rff_map")$kernel, arg)
  } else {
    check_positive_kernel(tidy_kernel(kernel, arg), arg)
  }
  kernel
}

# The tests need K = Z Z' (a positive definite kernel, one positive part):
# for a signed or complex measure the statistic is no squared norm.
check_positive_kernel <- function(kernel, arg) {
  if (!identical(kernel_traits(kernel)$measure, "positive")) {
    fail("`%s` must be a positive definite kernel (a positive spectral measure); the %s is not.", arg,
         kernel_label(kernel))
  }
  kernel
}

# The words that say which kernel a variable got.
kernel_description <- function(variable) {
  label <- kernel_label(variable$map$kernel)
  if (!variable$by_name) return(label)
  sprintf("%s, the median distance of the %srows over sqrt(2)", label,
          if (is.null(variable$scaling)) "" else "standardized ")
}

# The seeds of a test's maps and permutations: one number drawn from R's
# generator (so set.seed() reproduces a test) or given, and the next ones.
test_seeds <- function(seed, n) {
  if (is.null(seed)) seed <- floor(stats::runif(1) * 2^31)
  words <- resolve_seed(seed)
  (words[1L] * 2^32 + words[2L] + seq_len(n) - 1) %% 2^53
}
