# The periodic maps of random periodic features: functions the core knows by
# name (the cosine, the square wave, b-bit quantizers of the cosine), their
# Fourier coefficients and inner products.

#' A b-bit quantizer of the cosine, for random periodic features
#'
#' The periodic map \eqn{q_b(t) = Q_b(\cos t)}, where \eqn{Q_b} rounds
#' \eqn{[-1, 1]} to \eqn{2^b} equal cells and gives them the levels
#' \eqn{(2j + 1 - 2^b)/(2^b - 1)}, \eqn{j = 0, \dots, 2^b - 1}, spread evenly
#' over \eqn{[-1, 1]}. One bit is the square wave \eqn{q(t) = \mathrm{sign}(\cos t)}
#' of Schellekens and Jacques (2020, eq. 8), also called `"square"`; as
#' \eqn{b} grows, \eqn{q_b} tends to the cosine. This is the finer
#' quantization the conclusion of Schellekens and Jacques (2020) proposes,
#' written so that every \eqn{q_b} stays even, centred, bounded by one and
#' \eqn{2\pi}-periodic: only odd harmonics \eqn{F_k} are nonzero, and
#' \eqn{F_k = \frac{2}{(2^b - 1)\pi k}\sum_j \sin(k t_j)} over the jump points
#' \eqn{t_j = \arccos(-1 + 2j/2^b)} in \eqn{(0, \pi)} (see [rpf_coefficients()]).
#'
#' Wherever askrff takes a periodic map (`fun`, `left`, `right`), it takes
#' `"cos"`, `"square"`, such a quantizer or its name (`"3-bit quantizer"`).
#' The C++ core knows each function by its name and holds its values,
#' Fourier coefficients and whether it is binary (only the square wave is,
#' so only its features can be stored as bits by [rpf_pack()]).
#'
#' @param bits Number of bits, a whole number from 1 to 8.
#' @return An object of class `"rpf_function"`: a list with the function's
#'   `name` and whether it is `binary`.
#' @template ref-schellekens2020
#' @family random periodic features
#' @examples
#' rpf_quantizer(3)
#' rpf_coefficients(rpf_quantizer(3), 1:5)
#' @export
rpf_quantizer <- function(bits) {
  bits <- check_count(bits, "bits", max = 8)
  periodic_function(if (bits == 1L) "square" else sprintf("%d-bit quantizer", bits))
}

# The periodic function the core knows by `name` (src/core/periodic/periodic_functions.cpp),
# with what R shows of it.
periodic_function <- function(name) {
  traits <- core(.cpp_periodic_function(name))
  structure(list(name = name, binary = traits$binary, format_version = format_version), class = "rpf_function")
}

# A name ("cos", "square", "2-bit quantizer", ...) or an rpf_function.
as_periodic_function <- function(fun, name) {
  if (inherits(fun, "rpf_function")) return(validate_periodic_function(fun, name))
  if (!is.character(fun) || length(fun) != 1L || is.na(fun)) {
    fail("`%s` must be a periodic function, such as \"cos\", \"square\" or rpf_quantizer(2), or its name.", name)
  }
  tryCatch(periodic_function(fun), askrff_error = function(e) {
    fail("`%s` must name a periodic function, not \"%s\": %s", name, fun, conditionMessage(e))
  })
}

#' @export
print.rpf_function <- function(x, ...) {
  x <- validate_periodic_function(x, "x")
  traits <- core(.cpp_periodic_function(x$name))
  cat("<askrff periodic map> ", x$name, "\n", sep = "")
  cat("  ", if (x$binary) "binary (+-1, storable as bits)" else "not binary",
      ", <f, f> = ", format(traits$norm, digits = 6), ", F_1 = ", format(traits$first, digits = 6), "\n", sep = "")
  invisible(x)
}

#' Fourier coefficients of a periodic map
#'
#' \eqn{F_k = \frac{1}{2\pi}\int_0^{2\pi} f(t) e^{-ikt}\,dt}, in closed form.
#' Every map askrff offers is even and real, so \eqn{F_{-k} = F_k} is real;
#' \eqn{F_0 = 0}, and only odd \eqn{k} are nonzero. The cosine has
#' \eqn{F_{\pm 1} = 1/2}; the square wave \eqn{F_k = \frac{2}{k\pi}(-1)^{(k-1)/2}}
#' for odd \eqn{k} (Schellekens and Jacques 2020, eq. 8).
#'
#' @param fun `"cos"`, `"square"` or a quantizer from [rpf_quantizer()].
#' @param k Whole numbers (of either sign).
#' @return The coefficients \eqn{F_k}, one per entry of `k`.
#' @template ref-schellekens2020
#' @family random periodic features
#' @examples
#' rpf_coefficients("square", 1:7)
#' @export
rpf_coefficients <- function(fun, k) {
  fun <- as_periodic_function(fun, "fun")
  if (!is.numeric(k) || is.object(k) || length(k) < 1L || anyNA(k) || any(!is.finite(k)) || any(k != round(k))) {
    fail("`k` must be a vector of whole numbers.")
  }
  if (max(abs(k)) > 1e6) fail("`k` must lie between -1e6 and 1e6.")
  table <- core(.cpp_periodic_coefficients(fun$name, max(1L, as.integer(max(abs(k))))))
  out <- numeric(length(k))
  out[k != 0] <- table[abs(k[k != 0])]
  out
}

#' Inner product of two periodic maps
#'
#' \eqn{\langle f, g\rangle = \frac{1}{2\pi}\int_0^{2\pi} f(t) g(t)\,dt = \sum_k F_k G_k},
#' in closed form: the constant [rpf_kernel_matrix()] divides by, so that a
#' product with a cosine side estimates the kernel without bias. It is
#' \eqn{1/2} for two cosines, \eqn{2/\pi} for the square wave and the
#' cosine, and 1 for two square waves.
#'
#' @param left,right Periodic maps: `"cos"`, `"square"` or a quantizer from
#'   [rpf_quantizer()].
#' @return A single number.
#' @template ref-schellekens2020
#' @family random periodic features
#' @examples
#' rpf_inner_product("square", "cos")
#' @export
rpf_inner_product <- function(left, right) {
  left <- as_periodic_function(left, "left")
  right <- as_periodic_function(right, "right")
  core(.cpp_periodic_inner_product(left$name, right$name))
}

validate_periodic_function <- function(fun, arg) as_condition_class("invalid_object", {
  check_object(fun, arg, "rpf_function", "\"cos\", \"square\" or a quantizer from rpf_quantizer()")
  if (!is.character(fun$name) || length(fun$name) != 1L || is.na(fun$name)) {
    fail("`%s` must be the name of a periodic function; make it again with rpf_quantizer().", field(arg, "name"))
  }
  tryCatch(periodic_function(fun$name), askrff_error = function(e) {
    fail("`%s` is not a periodic function askrff knows: %s", field(arg, "name"), conditionMessage(e))
  })
})

# The names of the core's periodic functions: its registry
# (periodic_functions() in src/core/periodic/periodic_functions.cpp).
periodic_functions <- function() .cpp_periodic_functions()
