# Maps as one S3 family. Every map is a list of class c("<kind>", "askrff_map"),
# its kind being the name of its constructor, one of the registry's
# (R/map-kinds.R). Entry points validate
# a map with validate_map() and ask its kind, through the internal generics
# below, for what they need; the core computes the features of every kind
# (`feature_map()` in src/adapters.h reads the class). A kind's methods live
# in its constructor's file.

# The map with its current class and every field checked by its kind, which
# must be one of `kinds`. Errors name the map `arg`.
validate_map <- function(map, arg = "map", kinds = map_kinds) as_condition_class("invalid_object", {
  map <- current_map_class(map)
  if (!is.list(map) || !inherits(map, "askrff_map") || !inherits(map, kinds)) {
    makers <- paste0(kinds, "()")
    fail("`%s` must be a map made by %s.", arg,
         if (length(makers) == 1L) makers else paste(paste(utils::head(makers, -1L), collapse = ", "),
                                                     utils::tail(makers, 1L), sep = " or "))
  }
  validate_fields(map, arg)
})

# The generics each kind answers.

# Every field checked against what the core relies on; the kernel rebuilt.
validate_fields <- function(map, arg) UseMethod("validate_fields")

# Feature columns of each side.
map_columns <- function(map) UseMethod("map_columns")

# Bytes the features of `rows` rows of one side hold beside their matrix: the
# core's copy of the map, and what R computes for it.
map_memory <- function(map, rows) UseMethod("map_memory")

# Checks of data with the map's number of columns that the kind needs (rows
# on the sphere, projections that stay finite).
check_map_data <- function(map, x, name) UseMethod("check_map_data")

# What the core reads for one side of checked data: the map and the data,
# unless R computes part of the features first.
core_input <- function(map, x, side, n_threads) UseMethod("core_input")

# One side's features of checked data.
map_side <- function(map, x, side, n_threads) UseMethod("map_side")

# L(x) R(y)' of checked data.
map_gram <- function(map, x, y, n_threads) UseMethod("map_gram")

# The periodic function of the features a ridge regression takes, "" for a
# kind whose features are its own.
ridge_function <- function(map, fun) UseMethod("ridge_function")

# The map for the data divided by `scales` (one number, or one per
# coordinate), with `kernel` the kernel for those units (scale_kernel()): the
# same draws, rescaled, so that criteria compared across scales see common
# random numbers.
rescale_map <- function(map, kernel, scales) UseMethod("rescale_map")

# The map with at most `n_features` frequencies, drawn again from the same
# design and seed, for a scale search on a smaller problem; a map of another
# kind, which no search rescales, as it is.
thin_map <- function(map, n_features) UseMethod("thin_map")

#' @export
thin_map.askrff_map <- function(map, n_features) map

#' @export
check_map_data.askrff_map <- function(map, x, name) check_on_sphere(map$kernel, x, name)

#' @export
rescale_map.askrff_map <- function(map, kernel, scales) {
  fail("`scale` needs a map of random Fourier features (rff_map(), or `kernel` with `n_features`), whose frequencies it rescales; this map is of %s().",
       class(map)[1L])
}

#' @export
core_input.askrff_map <- function(map, x, side, n_threads) list(map = map, x = x)

#' @export
map_side.askrff_map <- function(map, x, side, n_threads) {
  check_output_size(nrow(x), map_columns(map), "the feature matrix", extra = map_memory(map, nrow(x)))
  input <- core_input(map, x, side, n_threads)
  core(.cpp_map_features(input$map, input$x, side, "", n_threads))
}

#' @export
map_gram.askrff_map <- function(map, x, y, n_threads) {
  columns <- map_columns(map)
  # beside the result: the right side's features, a block of left rows per thread
  check_output_size(nrow(x) + columns, nrow(y), "the approximate kernel matrix",
                    extra = map_memory(map, nrow(x)) + map_memory(map, nrow(y)) + 8 * 64 * as.double(columns) * n_threads)
  left <- core_input(map, x, "left", n_threads)
  right <- core_input(map, y, "right", n_threads)
  set_point_names(core(.cpp_map_gram(left$map, left$x, right$x, n_threads)), x, y)
}

#' @export
ridge_function.askrff_map <- function(map, fun) {
  if (!is.null(fun)) fail("`fun` applies to maps of rpf_map() only; this map's features are its own.")
  ""
}

# Data for a validated map: `map$d` columns, and what its kind checks.
map_data <- function(map, x, name) {
  x <- check_data(x, name, map$d)
  check_map_data(map, x, name)
  x
}

#' Features of new data from a map
#'
#' The R form of applying a fitted transform: `predict(map, newdata)` is
#' [rff_features()] of `newdata` (the left side unless `side = "right"`), and
#' for a random periodic map [rpf_features()] with the periodic map `fun`.
#'
#' @param object A map from [rff_map()], [rpf_map()], [nystrom_map()],
#'   [maclaurin_map()] or [tensor_sketch_map()].
#' @param newdata Numeric matrix or data frame with `object$d` columns.
#' @param side `"left"` or `"right"` (every map but those of [rpf_map()]).
#' @param fun `"cos"`, `"square"` or a quantizer (maps of [rpf_map()]).
#' @param ... Unused.
#' @inheritParams kernel_matrix
#' @return The feature matrix, one row per row of `newdata`.
#' @family maps
#' @examples
#' map <- rff_map(gaussian_kernel(1), d = 2, n_features = 50, seed = 1)
#' dim(predict(map, matrix(rnorm(10), 5)))
#' @rawNamespace S3method(predict, askrff_nystrom, predict.askrff_map)
#' @rawNamespace S3method(predict, askrff_maclaurin, predict.askrff_map)
#' @rawNamespace S3method(predict, askrff_tensor_sketch, predict.askrff_map)
#' @export
predict.askrff_map <- function(object, newdata, side = c("left", "right"), n_threads = NULL, ...) {
  object <- validate_map(object, "object")
  rff_features(object, map_data(object, newdata, "newdata"), side, n_threads)
}

# The methods of the family itself serve maps saved under an earlier class:
# validated, such a map has its kind's class, under which the generic is
# called again. A current map reaches them only when its kind has no method.

#' @rawNamespace S3method(print, askrff_nystrom, print.askrff_map)
#' @rawNamespace S3method(print, askrff_maclaurin, print.askrff_map)
#' @rawNamespace S3method(print, askrff_tensor_sketch, print.askrff_map)
#' @export
print.askrff_map <- function(x, ...) print(validate_map(x, "x"), ...)

#' @export
summary.askrff_map <- function(object, ...) {
  map <- validate_map(object, "object")
  if (identical(class(map), class(object))) NextMethod() else summary(map, ...)
}

#' @export
plot.askrff_map <- function(x, ...) {
  map <- validate_map(x, "x")
  if (identical(class(map), class(x))) {
    fail("`x` is a map of %s(), which plot() does not draw: it draws the frequencies of maps of rff_map().", class(map)[1L])
  }
  plot(map, ...)
}

# A map's kernel, dimension and settings; the kernel returned is rebuilt.
validate_map_kernel <- function(map, arg) {
  kernel <- check_has_measure(validate_kernel(map$kernel, field(arg, "kernel")))
  d <- check_count(map$d, field(arg, "d"))
  check_kernel_dimension(kernel, d)
  settings <- map$settings
  if (!is.list(settings) || is.object(settings)) fail("`%s` must be a list.", field(arg, "settings"))
  given <- names(settings)
  if (length(settings) > 0L && (is.null(given) || anyNA(given) || any(given == "") || anyDuplicated(given))) {
    fail("`%s` must name each setting once.", field(arg, "settings"))
  }
  resolved <- tryCatch(resolve_kernel_settings(kernel, settings), askrff_error = function(e) {
    fail("`%s` is not valid for its kernel: %s", field(arg, "settings"), conditionMessage(e))
  })
  if (!identical(resolved[names(settings)], settings) || !setequal(names(resolved), names(settings))) {
    fail("`%s` must hold every setting of the %s, with valid values; make the map again with rff_map().",
         field(arg, "settings"), kernel_label(kernel))
  }
  list(kernel = kernel, d = d, settings = settings)
}

# Frequencies: a finite numeric d x n matrix.
validate_frequencies <- function(omega, arg, d, n) {
  if (!is_matrix(omega) || !is.numeric(omega) || is.object(omega)) fail("`%s` must be a numeric matrix.", arg)
  if (nrow(omega) != d || ncol(omega) != n) {
    fail("`%s` must be %s x %s (d x frequencies), not %s x %s.", arg, format_count(d), format_count(n),
         format_count(nrow(omega)), format_count(ncol(omega)))
  }
  if (anyNA(omega) || any(!is.finite(omega))) fail("`%s` must hold finite values only.", arg)
  storage.mode(omega) <- "double"
  omega
}

check_seed_words <- function(seed, arg) {
  if (!is.null(seed) && (!is.numeric(seed) || length(seed) != 2L || anyNA(seed) || any(seed < 0) ||
                         any(seed >= 2^32) || any(seed != round(seed)))) {
    fail("`%s` must be NULL or two whole numbers in [0, 2^32).", arg)
  }
  invisible(seed)
}
