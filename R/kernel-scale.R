# Kernels in other units, for the scale search of rff_ridge(): the kernel of
# the data divided by s, k_s(x, y) = k(x / s, y / s). Which parameters are in
# the data's units is each family's trait (`scaled_params` in
# src/core/kernels/kernel_family.h); an expression scales all its terms.

# The kernel of the data divided by `scales`: one number for every
# coordinate, or one per coordinate of the data's d (then every length
# scale of the kernel must be a per-coordinate parameter).
scale_kernel <- function(kernel, scales, d) {
  if (!is.null(kernel$terms)) {
    kernel$terms <- lapply(kernel$terms, scale_kernel, scales = scales, d = d)
    return(validate_kernel(kernel))
  }
  traits <- kernel_traits(kernel)
  scaled <- traits$scaled_params
  if (length(scaled$name) == 0L) {
    fail("`scale` needs a kernel with a length scale, but the %s has none (kernels on the sphere and kernels given by an R function have none to rescale).",
         kernel_label(kernel))
  }
  per_coordinate <- length(scales) > 1L
  fixed <- setdiff(scaled$name, traits$coordinate_params)
  if (per_coordinate && length(fixed) > 0L) {
    fail("`ard = TRUE` needs a kernel whose length scales may differ between coordinates, but the %s takes `%s` as a single number.",
         kernel_label(kernel), fixed[1L])
  }
  for (i in seq_along(scaled$name)) {
    value <- kernel$params[[scaled$name[i]]]
    if (per_coordinate && length(value) == 1L) value <- rep(value, d)
    kernel$params[[scaled$name[i]]] <- value * scales^scaled$power[i]
  }
  validate_kernel(kernel)
}
