# The kernel of step_rff() and rff_reg(): an askrff kernel object or the name
# of a family whose only parameter is its length scale, with the length
# scales measured in median distances between the training rows. In those
# units one grid of scales suits any data set, so tuning needs no
# data-dependent range.

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

# The kernel object of `kernel` (a name gives length scale 1), validated.
tidy_kernel <- function(kernel, arg = "kernel") {
  named <- scale_only_kernels()
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

# The kernel for the training rows `x` (complete, already standardized):
# its length scales times `scale` median distances between rows of x
# (median_bandwidth() of at most 2,000 rows drawn from `seed`). Kernels with
# no length scale (on the sphere, or given by an R function) are used as
# given, and then `scale` must be 1.
kernel_in_median_units <- function(kernel, scale, x, seed, arg = "kernel") {
  kernel <- tidy_kernel(kernel, arg)
  scale <- check_positive_number(scale, "scale")
  if (!has_length_scale(kernel)) {
    if (scale != 1) {
      fail("`scale` must be 1 for the %s, which has no length scale to multiply.", kernel_label(kernel))
    }
    return(kernel)
  }
  scale_kernel(kernel, scale * median_bandwidth(x, seed = seed), ncol(x))
}
