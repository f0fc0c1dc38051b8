# Kernel objects: a name the C++ core knows, validated parameters, and how to
# print them. The core computes exact Gram matrices and spectral measures,
# and holds what each family declares (kernel_traits()).
new_kernel <- function(name, params, label, formula) {
  structure(list(name = name, params = params, label = label, formula = formula, format_version = format_version),
            class = c(paste0(name, "_kernel"), "askrff_kernel"))
}

# What the kernel's family declares in the core registry, under its
# parameters and `settings`: `coordinate_params` (given per coordinate),
# `measure` ("positive", "signed", "complex" or "none"), `radial`,
# `on_sphere`, `periodic`, `settings` (each with its `choices`, or a numeric
# `default` in (`lower`, `upper`], and what it `needs`) and `features`.
kernel_traits <- function(kernel, settings = list()) {
  kernel$settings[names(settings)] <- settings
  core(.cpp_kernel_traits(kernel))
}

# The vector parameters have one value per coordinate (or one for all), and
# each family's rules that need the dimension hold (kernel_family.h).
check_kernel_dimension <- function(kernel, d) {
  core(.cpp_check_kernel_dimension(kernel, d))
  invisible(kernel)
}

kernel_label <- function(kernel) {
  if (!is.null(kernel$base)) {
    return(sprintf("expected %s x %s kernel of the %s", kernel$settings$left, kernel$settings$right,
                   kernel_label(kernel$base)))
  }
  label <- if (!is.null(kernel$terms)) kernel$label else if (length(kernel$params) == 0L) {
    paste(kernel$label, "kernel")
  } else {
    values <- vapply(kernel$params, format_parameter, "")
    sprintf("%s kernel (%s)", kernel$label, paste(names(values), values, sep = " = ", collapse = ", "))
  }
  if (is.null(kernel$defaults)) return(label)
  settings <- vapply(kernel$defaults, function(v) if (is.character(v)) sprintf('"%s"', v) else format(v, digits = 4), "")
  sprintf("%s [%s]", label, paste(names(settings), settings, sep = " = ", collapse = ", "))
}

# A vector parameter shows its first entries only; a function, its first line.
format_parameter <- function(value) {
  if (is.function(value)) {
    text <- if (is.primitive(value)) deparse(value) else {
      lines <- trimws(deparse(body(value), width.cutoff = 500L))
      if (length(lines) > 2L && lines[1L] == "{") lines <- c("{", paste(lines[-c(1L, length(lines))], collapse = "; "), "}")
      sprintf("function(%s) %s", paste(names(formals(value)), collapse = ", "), paste(lines, collapse = " "))
    }
    return(if (nchar(text) > 60L) paste0(substr(text, 1L, 57L), "...") else text)
  }
  shown <- paste(format(utils::head(value, 3), digits = 4, trim = TRUE), collapse = ", ")
  if (length(value) > 3L) shown <- sprintf("(%s, ... [%d])", shown, length(value))
  else if (length(value) > 1L) shown <- sprintf("(%s)", shown)
  shown
}

#' @export
print.askrff_kernel <- function(x, ...) {
  x <- validate_kernel(x, "x")
  cat("<askrff kernel> ", kernel_label(x), "\n  k(x, y) = ", x$formula, "\n", sep = "")
  invisible(x)
}

#' Exact kernel (Gram) matrix
#'
#' `K[i, j] = k(x[i, ], y[j, ])`, computed by the threaded C++ core (the
#' Gaussian kernels through one matrix product, \eqn{\|x\|^2 + \|y\|^2 - 2x'y}).
#' For an asymmetric kernel the orientation matters: row `i` is the first
#' argument, so `kernel_matrix(k, y, x)` is `t(kernel_matrix(k, x, y))` only
#' for symmetric kernels.
#'
#' @param kernel A kernel object, such as [gaussian_kernel()].
#' @param x Numeric matrix or data frame of numeric columns, one row per point.
#' @param y Second set of points with the same number of columns; defaults to `x`.
#' @param n_threads Number of threads; `NULL` uses `getOption("askrff.threads")`,
#'   else RcppParallel's default.
#' @return The `nrow(x)` by `nrow(y)` kernel matrix, with the row names of `x`
#'   and `y` as dimnames.
#' @family kernels
#' @examples
#' x <- matrix(rnorm(20), 5)
#' kernel_matrix(gaussian_kernel(1), x)
#' @export
kernel_matrix <- function(kernel, x, y = x, n_threads = NULL) {
  kernel <- validate_kernel(kernel)
  x <- check_data(x, "x")
  y <- check_data(y, "y", ncol(x))
  check_kernel_dimension(kernel, ncol(x))
  check_on_sphere(kernel, x, "x")
  check_on_sphere(kernel, y, "y")
  n_threads <- resolve_threads(n_threads)
  check_output_size(nrow(x), nrow(y), "the kernel matrix",
                    extra = 8 * (as.double(nrow(x) + nrow(y)) * ncol(x) + 4 * 64 * as.double(nrow(y)) * n_threads))
  K <- gram_matrix(kernel, x, y, n_threads)
  set_point_names(K, x, y)
}

# The exact Gram matrix of a validated kernel, by its class: the core's,
# unless the kernel is (or holds) a user's R function (R/kernel-radial.R,
# R/kernel-arithmetic.R).
gram_matrix <- function(kernel, x, y, n_threads) UseMethod("gram_matrix")

#' @export
gram_matrix.askrff_kernel <- function(kernel, x, y, n_threads) core(.cpp_kernel_matrix(kernel, x, y, n_threads))

# Whether the core can evaluate the kernel: every kernel but one given as an
# R function, and expressions holding one.
gram_in_core <- function(kernel) {
  !any(vapply(kernel$params, is.function, TRUE)) && all(vapply(kernel$terms, gram_in_core, TRUE))
}

# Row names of the points as dimnames of a kernel matrix, or none at all.
set_point_names <- function(K, x, y) {
  if (!is.null(rownames(x)) || !is.null(rownames(y))) dimnames(K) <- list(rownames(x), rownames(y))
  K
}
