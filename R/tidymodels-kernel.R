# The kernel of step_rff() and rff_reg(): an askrff kernel object or the name
# of a family whose only parameter is its length scale, with the length
# scales measured in median distances between the training rows. In those
# units one grid of scales suits any data set, so tuning needs no
# data-dependent range.

kernel_names <- c("gaussian", "laplace", "exponential")

# The kernel object of `kernel` (a name gives length scale 1), validated.
tidy_kernel <- function(kernel, arg = "kernel") {
  if (is.character(kernel)) {
    name <- check_choice(kernel, kernel_names, arg)
    return(switch(name, gaussian = gaussian_kernel(1), laplace = laplace_kernel(1), exponential = exponential_kernel(1)))
  }
  if (!inherits(kernel, "askrff_kernel")) {
    fail("`%s` must be a kernel object (such as matern_kernel(1, 2.5)) or one of %s.", arg,
         paste0('"', kernel_names, '"', collapse = ", "))
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
