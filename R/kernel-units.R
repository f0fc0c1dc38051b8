# The one convention for a kernel's length scale in the models and the
# tidymodels functions: a kernel given by name (or none: "gaussian") has
# its length scale in median distances between the rows the map sees; a
# kernel object keeps its own, in those rows' units; `scale` multiplies
# either.

#' The kernel's length scale: from the data, or as given
#'
#' Every function that draws a map for data, [rff_ridge()], [rff_glm()],
#' [rff_basis()], [step_rff()] and [rff_reg()], takes its kernel in one of
#' two ways, by name or as an object, and its `scale` means the same in all
#' of them.
#'
#' * **By name**, `kernel = "gaussian"` (the default when no kernel and no
#'   map are given), `"laplace"` or `"exponential"` (the families whose one
#'   parameter is their length scale; [rff_kernel_family()] lists them): the
#'   length scale is taken from the data, as `scale` times the median
#'   distance between rows of the predictors the map sees (after
#'   standardization, which is then the default; at most 1,000 rows drawn
#'   from `seed`, see [median_bandwidth()]). So `scale = 1` is the median
#'   heuristic, and one grid of scales suits any data set. The models search
#'   the scale by their own criterion unless `scale` is given (see their
#'   help pages); [rff_basis()], [step_rff()] and [rff_reg()] use `scale`
#'   (1 by default), which tune can tune.
#' * **As an object**, such as `matern_kernel(2, 2.5)`: its length scales are
#'   in the units of the predictors the map sees (standardized ones if
#'   `standardize = TRUE`) and are used as given; `scale` multiplies them
#'   (and in the models, a vector of several or `"optimize"` asks for a
#'   search around them). Kernels with no length scale (those on the sphere,
#'   [radial_kernel()]s) are used as given, with `scale = 1`.
#'
#' For a chunk source, the median distance is that of the first chunk's
#' rows.
#' @name kernel_scale
#' @family kernels
#' @examples
#' x <- as.matrix(datasets::trees[, c("Girth", "Height")])
#' # by name: sigma is the median distance between the standardized rows
#' basis <- rff_basis(x, kernel = "gaussian", n_features = 8, seed = 1)
#' attr(basis, "map")$kernel
#' median_bandwidth(scale(x), seed = 1)
#' # as an object: sigma as given, in the units of the standardized rows
#' basis <- rff_basis(x, kernel = gaussian_kernel(2), n_features = 8, seed = 1, standardize = TRUE)
#' attr(basis, "map")$kernel
NULL

# The families of the core's registry whose constructor's one argument is
# their length scale (gaussian, laplace, exponential), each with scale 1.
scale_only_kernels <- function() {
  namespace <- environment(scale_only_kernels)
  kernels <- lapply(stats::setNames(nm = core(.cpp_kernel_families())), function(name) {
    constructor <- get0(paste0(name, "_kernel"), envir = namespace, mode = "function", inherits = FALSE)
    if (is.null(constructor) || length(formals(constructor)) != 1L) return(NULL)
    kernel <- tryCatch(constructor(1), askrff_error = function(e) NULL)
    if (is.null(kernel) || !identical(kernel_traits(kernel)$scaled_params$name, names(formals(constructor)))) return(NULL)
    kernel
  })
  Filter(Negate(is.null), kernels)
}

# Whether `kernel` is given by name (NULL: the default "gaussian"), so that
# its length scale comes from the data.
kernel_by_name <- function(kernel) is.null(kernel) || is.character(kernel)

# The kernel object of `kernel` (a name gives length scale 1), validated.
tidy_kernel <- function(kernel, arg = "kernel") {
  named <- scale_only_kernels()
  if (is.null(kernel)) kernel <- "gaussian"
  if (is.character(kernel)) return(named[[check_choice(kernel, names(named), arg)]])
  if (!inherits(kernel, "askrff_kernel")) {
    fail("`%s` must be a kernel object (such as matern_kernel(1, 2.5)) or one of %s.", arg,
         paste0('"', names(named), '"', collapse = ", "))
  }
  check_has_measure(validate_kernel(kernel, arg))
}

# Whether the kernel (every term of an expression) has a length scale.
has_length_scale <- function(kernel) {
  if (!is.null(kernel$terms)) return(all(vapply(kernel$terms, has_length_scale, logical(1))))
  length(kernel_traits(kernel)$scaled_params$name) > 0L
}

# The kernel for the rows `x` the map sees (complete, already standardized),
# by the convention above: a kernel by name with length scale `scale`
# median distances between rows of x (median_bandwidth() of at most
# `median_rows` rows drawn from `seed`), an object with its length scales
# times `scale`.
median_rows <- 1000L

kernel_for_data <- function(kernel, scale, x, seed, arg = "kernel") {
  by_name <- kernel_by_name(kernel)
  kernel <- tidy_kernel(kernel, arg)
  scale <- check_scale_factor(check_positive_number(scale, "scale"))
  if (!has_length_scale(kernel)) {
    if (scale != 1) {
      fail("`scale` must be 1 for the %s, which has no length scale to multiply.", kernel_label(kernel))
    }
    return(kernel)
  }
  unit <- if (by_name) median_bandwidth(x, max_points = median_rows, seed = seed) else 1
  if (unit * scale == 1) return(kernel)
  scale_kernel(kernel, unit * scale, ncol(x))
}

# Factors of the kernel's length scales: positive and within 1e-8 to 1e8,
# beyond which the frequencies would overflow the data's projections (or
# vanish) whatever the data.
check_scale_factor <- function(scale, arg = "scale") {
  if (!is.numeric(scale) || is.object(scale) || length(scale) < 1L || anyNA(scale) || any(!is.finite(scale)) ||
      any(scale <= 0)) {
    fail("`%s` must be positive and finite.", arg)
  }
  out <- scale < 1e-8 | scale > 1e8
  if (any(out)) {
    fail("`%s` must be between 1e-8 and 1e8, not %s: it multiplies the kernel's length scales (median distances for a kernel by name, see ?kernel_scale).",
         arg, format(scale[out][1L], digits = 3))
  }
  scale
}
