#' Random Fourier features as a recipes step
#'
#' `step_rff()` creates a specification of a recipe step that replaces the
#' selected numeric predictors (or adds to them, with `keep_original_cols =
#' TRUE`) by the left random features of a kernel: the columns [rff_basis()]
#' gives inside a formula, as a step of a tidymodels workflow, so that any
#' model on them (a linear or logistic regression, a penalized GLM) fits a
#' kernel machine whose kernel parameters can be tuned with tune.
#'
#' `prep()` standardizes the selected columns of the training set if
#' `standardize = TRUE` (the default for a kernel given by name) and draws
#' the map with [rff_map()] for as many columns as were selected, its
#' length scales by the convention of [kernel_scale]: for a kernel by name,
#' such as the default `"gaussian"`, `scale` times the median distance
#' between the (standardized) rows (at most 2,000, drawn from `seed`), so
#' `scale = 1` is the median heuristic (see [median_bandwidth()]) and one
#' grid of scales suits any data set; a kernel object's own, in the units of
#' the (standardized) columns, times `scale`. Kernels with no length scale
#' (those on the sphere, and [radial_kernel()]s) are used as given, with
#' `scale = 1`.
#' `bake()` then computes the same features for any new data: a row with a
#' missing value in a selected column gives a row of `NA` features.
#'
#' `tunable()` offers `scale` ([rff_scale()]), `n_features`
#' ([rff_num_features()]) and, for a kernel given by name, `kernel`
#' ([rff_kernel_family()]). `tidy()` gives one row per selected column with
#' the kernel (after prep, the one the map was drawn for), `scale`,
#' `n_features` and the step's `id`.
#'
#' @param recipe A recipe object; the step is added to its sequence.
#' @param ... Selector functions choosing the numeric predictors, as in
#'   other recipes steps (see `recipes::selections`).
#' @param role The role of the new feature columns.
#' @param trained Whether the step has been prepped (set by `prep()`).
#' @param kernel A kernel object (such as `matern_kernel(1, 2.5)`), or the
#'   name of a family with a length scale only: `"gaussian"`, `"laplace"` or
#'   `"exponential"`, whose length scale is the median distance.
#' @param scale The factor multiplying the kernel's length scales (see
#'   Details).
#' @param n_features The number of frequencies of the map; the step gives
#'   [n_feature_columns()] columns (twice as many for a positive definite
#'   kernel: a cosine and a sine per frequency).
#' @param method The frequency source of [rff_map()].
#' @param standardize Whether to center and scale each selected column by
#'   its training mean and standard deviation before the kernel sees it;
#'   `NULL` (the default) for `TRUE` with a kernel by name, `FALSE` with a
#'   kernel object.
#' @param prefix The prefix of the new columns' names.
#' @param keep_original_cols Whether to keep the selected columns beside the
#'   features.
#' @param seed The seed of the map (and of the rows whose median distance is
#'   measured): one fixed number chosen when the step is created, so that
#'   `prep()` is reproducible.
#' @param map,scaling,columns Set by `prep()`: the map, the standardization
#'   and the selected columns.
#' @param skip Whether to skip the step when `bake()` is applied to new data.
#' @param id The step's identifier.
#' @return The recipe with the step added: a `step_rff` object in its
#'   `steps`.
#' @family tidymodels
#' @examples
#' if (requireNamespace("recipes", quietly = TRUE)) {
#'   library(recipes)
#'   rec <- recipe(mpg ~ ., data = mtcars) |>
#'     step_rff(all_numeric_predictors(), kernel = "gaussian", n_features = 16,
#'              standardize = TRUE, seed = 1)
#'   trained <- prep(rec, mtcars)
#'   dim(bake(trained, new_data = NULL))
#'   tidy(trained, number = 1)
#' }
#' @export
step_rff <- function(recipe, ..., role = "predictor", trained = FALSE, kernel = "gaussian", scale = 1,
                     n_features = 256L, method = "iid", standardize = NULL, prefix = "rff_",
                     keep_original_cols = FALSE, seed = sample.int(10^5, 1), map = NULL, scaling = NULL,
                     columns = NULL, skip = FALSE, id = NULL) {
  require_suggested(c("recipes", "rlang"), "step_rff()")
  standardize <- check_step_map_settings(kernel, scale, n_features, method, standardize, keep_original_cols, prefix,
                                         seed)
  if (is.null(id)) id <- recipes::rand_id("rff")
  recipes::add_step(recipe, step_rff_new(
    terms = rlang::enquos(...), role = role, trained = trained, kernel = kernel, scale = scale,
    n_features = n_features, method = method, standardize = standardize, prefix = prefix,
    keep_original_cols = keep_original_cols, seed = seed, map = map, scaling = scaling, columns = columns,
    skip = skip, id = id
  ))
}

# The settings of a step that draws a map (step_rff(), step_rff_pca(),
# step_rff_cluster()),
# checked when the step is made: recipes wraps the errors of prep() in its
# own class, so what can be checked before the data is checked here; tune()
# placeholders are calls, checked once prep() sees their values. Returns
# `standardize` resolved (a tuned kernel, a call, is a family name).
check_step_map_settings <- function(kernel, scale, n_features, method, standardize, keep_original_cols, prefix, seed) {
  if (!is.call(kernel)) tidy_kernel(kernel)
  if (!is.call(scale)) check_scale_factor(check_positive_number(scale, "scale"))
  if (!is.call(n_features)) check_count(n_features, "n_features")
  check_source(method, "method")
  check_flag(keep_original_cols, "keep_original_cols")
  check_string(prefix, "prefix")
  resolve_seed(seed)
  check_flag(resolve_standardize(standardize, NULL, if (is.call(kernel)) NULL else kernel, FALSE), "standardize")
}

step_rff_new <- function(terms, role, trained, kernel, scale, n_features, method, standardize, prefix,
                         keep_original_cols, seed, map, scaling, columns, skip, id) {
  recipes::step("rff", terms = terms, role = role, trained = trained, kernel = kernel, scale = scale,
                n_features = n_features, method = method, standardize = standardize, prefix = prefix,
                keep_original_cols = keep_original_cols, seed = seed, map = map, scaling = scaling,
                columns = columns, skip = skip, id = id)
}

#' @exportS3Method recipes::prep
prep.step_rff <- function(x, training, info = NULL, ...) {
  rows <- training_rows_of_step(x, training, info, "step_rff()")
  step_rff_new(terms = x$terms, role = x$role, trained = TRUE, kernel = x$kernel, scale = x$scale,
               n_features = x$n_features, method = x$method, standardize = x$standardize, prefix = x$prefix,
               keep_original_cols = recipes::get_keep_original_cols(x), seed = x$seed, map = rows$map,
               scaling = rows$scaling, columns = rows$columns, skip = x$skip, id = x$id)
}

# What a step that draws a map (step_rff(), step_rff_pca(),
# step_rff_cluster()) trains on: the selected columns, their training rows
# with no missing value (at least two), standardized if the step says so,
# the scaling, and the map drawn for them (a kernel by name at `scale`
# median distances between the rows). No columns: only `columns`.
training_rows_of_step <- function(x, training, info, step_name) {
  columns <- recipes::recipes_eval_select(x$terms, training, info)
  if (length(columns) == 0L) return(list(columns = columns))
  recipes::check_type(training[, columns], types = c("double", "integer"))
  data <- as.matrix(training[, columns])
  complete <- stats::complete.cases(data)
  if (sum(complete) < 2L) fail("%s needs at least two training rows with no missing value in its columns.", step_name)
  data <- check_data(data[complete, , drop = FALSE], sprintf("the training data of %s", step_name))
  scaling <- column_scaling(check_flag(x$standardize, "standardize"), data)
  data <- apply_scaling(data, scaling)
  map <- rff_map(kernel_for_data(x$kernel, x$scale, data, x$seed), ncol(data), x$n_features, x$method, seed = x$seed)
  list(columns = columns, x = data, scaling = scaling, map = map)
}

#' @exportS3Method recipes::bake
bake.step_rff <- function(object, new_data, ...) {
  if (length(object$columns) == 0L && is.null(object$map)) return(new_data)
  trained <- trained_rff_step(object)
  recipes::check_new_data(trained$columns, object, new_data)
  data <- as.matrix(new_data[, trained$columns])
  complete <- stats::complete.cases(data)
  z <- if (any(complete)) {
    rff_features(trained$map, apply_scaling(check_data(data[complete, , drop = FALSE], "new_data"), trained$scaling))
  } else {
    matrix(numeric(), 0L, n_feature_columns(trained$map))
  }
  add_step_columns(new_data, pad_rows(z, complete), object, trained)
}

# new_data with a step's new columns `values` (named by its prefix) and,
# unless it keeps them, without the columns it selected (`trained`, what
# trained_rff_step() or trained_rff_pca_step() read).
add_step_columns <- function(new_data, values, object, trained) {
  colnames(values) <- recipes::names0(ncol(values), trained$prefix)
  values <- recipes::check_name(tibble::as_tibble(values), new_data, object)
  new_data[names(values)] <- values
  recipes::remove_original_cols(new_data, object, trained$columns)
}

# A prepped step's `columns`, checked.
check_step_columns <- function(columns) {
  if (!is.character(columns) || is.object(columns) || length(columns) < 1L || anyNA(columns) ||
      anyDuplicated(columns)) {
    fail("`step$columns` must name the distinct columns the step selected.")
  }
  columns
}

# What bake() reads of a prepped step, checked: a recipe is saved and edited
# like any other object.
trained_rff_step <- function(step) {
  columns <- check_step_columns(step$columns)
  map <- validate_map(step$map, "step$map")
  if (map$d != length(columns)) fail("`step$map` is for %d columns, but `step$columns` names %d.", map$d, length(columns))
  scaling <- column_scaling(if (is.null(step$scaling)) FALSE else step$scaling, NULL, "step$scaling")
  if (!is.null(scaling) && length(scaling$center) != length(columns)) {
    fail("`step$scaling` is for %d columns, but `step$columns` names %d.", length(scaling$center), length(columns))
  }
  list(columns = columns, map = map, scaling = scaling, prefix = check_string(step$prefix, "step$prefix"))
}

#' @export
print.step_rff <- function(x, width = max(20, options()$width - 30), ...) {
  recipes::print_step(x$columns, x$terms, x$trained, "Random Fourier features of ", width)
  invisible(x)
}

#' @exportS3Method generics::tidy
tidy.step_rff <- function(x, ...) {
  if (recipes::is_trained(x) && !(length(x$columns) == 0L && is.null(x$map))) {
    trained <- trained_rff_step(x)
    terms <- trained$columns
    kernel <- kernel_label(trained$map$kernel)
  } else {
    terms <- recipes::sel2char(x$terms)
    kernel <- if (is.character(x$kernel) && length(x$kernel) == 1L) {
      x$kernel
    } else if (inherits(x$kernel, "askrff_kernel")) {
      kernel_label(validate_kernel(x$kernel, "step$kernel"))
    } else {
      NA_character_  # a tune() placeholder
    }
  }
  tibble::tibble(terms = as.character(terms), kernel = kernel,
                 scale = if (is_single_number(x$scale)) as.double(x$scale) else NA_real_,
                 n_features = if (is_single_number(x$n_features)) as.integer(x$n_features) else NA_integer_,
                 id = x$id)
}

#' @exportS3Method generics::tunable
tunable.step_rff <- function(x, ...) {
  tibble::tibble(
    name = c("scale", "n_features", "kernel"),
    call_info = list(list(pkg = "askrff", fun = "rff_scale"), list(pkg = "askrff", fun = "rff_num_features"),
                     list(pkg = "askrff", fun = "rff_kernel_family")),
    source = "recipe", component = "step_rff", component_id = x$id
  )
}

#' @exportS3Method generics::required_pkgs
required_pkgs.step_rff <- function(x, ...) "askrff"
