# Random periodic features (Schellekens and Jacques, 003): frequencies and a
# dither shared by both sides, a periodic map on each side (the cosine, the
# one-bit square wave or a b-bit quantizer of the cosine), and products
# rescaled by 1/<f, g>. Square-wave features can be stored as bits.

#' A b-bit quantizer of the cosine, for random periodic features
#'
#' The periodic map \eqn{q_b(t) = Q_b(\cos t)}, where \eqn{Q_b} rounds
#' \eqn{[-1, 1]} to \eqn{2^b} equal cells and gives them the levels
#' \eqn{(2j + 1 - 2^b)/(2^b - 1)}, \eqn{j = 0, \dots, 2^b - 1}, spread evenly
#' over \eqn{[-1, 1]}. One bit is the square wave \eqn{q(t) = \mathrm{sign}(\cos t)}
#' of 003 (eq. 8), also called `"square"`; as \eqn{b} grows, \eqn{q_b} tends
#' to the cosine. This is the finer quantization the conclusion of 003 proposes,
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
#' @family random periodic features
#' @examples
#' rpf_quantizer(3)
#' rpf_coefficients(rpf_quantizer(3), 1:5)
#' @export
rpf_quantizer <- function(bits) {
  bits <- check_count(bits, "bits", max = 8)
  periodic_function(if (bits == 1L) "square" else sprintf("%d-bit quantizer", bits))
}

# The periodic function the core knows by `name` (src/core/periodic_functions.cpp),
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
#' for odd \eqn{k} (003 eq. 8).
#'
#' @param fun `"cos"`, `"square"` or a quantizer from [rpf_quantizer()].
#' @param k Whole numbers (of either sign).
#' @return The coefficients \eqn{F_k}, one per entry of `k`.
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
#' @family random periodic features
#' @examples
#' rpf_inner_product("square", "cos")
#' @export
rpf_inner_product <- function(left, right) {
  left <- as_periodic_function(left, "left")
  right <- as_periodic_function(right, "right")
  core(.cpp_periodic_inner_product(left$name, right$name))
}

# The kernels whose k(t u) does not increase in t: what random periodic
# features and their expected kernels need.
check_periodic_kernel <- function(kernel) {
  if (!kernel_traits(kernel)$periodic) {
    fail("`kernel` must be positive definite with a probability-like spectral measure: gaussian_kernel(), laplace_kernel() or delta_gaussian_kernel() with positive weights; the %s is not.",
         kernel_label(kernel))
  }
  kernel
}

# k(0), the total mass of a periodic kernel's (positive) spectral measure.
periodic_kernel_mass <- function(kernel) kernel_at_zero(kernel, 1L)

#' Sample a random periodic feature map
#'
#' Draws \eqn{m} = `n_features` frequencies \eqn{\omega_j} from the kernel's
#' spectral measure (normalized to a probability law) and a dither
#' \eqn{\xi_j \sim U[0, 2\pi)}, shared by both sides of every product
#' (Schellekens and Jacques, 003, Def. 2). The features of a point are
#' \eqn{z_f(x) = m^{-1/2} f(\Omega^\top x + \xi)} for a periodic map \eqn{f}
#' ([rpf_features()]); their products approximate the kernel
#' ([rpf_kernel_matrix()]).
#'
#' @inheritParams rff_map
#' @param kernel A positive definite kernel: [gaussian_kernel()],
#'   [laplace_kernel()] or [delta_gaussian_kernel()] with positive weights.
#' @param n_features Number of frequencies \eqn{m}; every periodic map gives
#'   one feature per frequency.
#' @return A map of class `c("rpf_map", "askrff_map")`: a list holding the kernel, `d`,
#'   `n_features`, the total `mass` \eqn{k(0)} of the spectral measure, the
#'   frequencies `omega` (\eqn{d \times m}) and the `dither`.
#' @family random periodic features
#' @examples
#' map <- rpf_map(gaussian_kernel(1.5), d = 5, n_features = 1000, seed = 1)
#' map
#' x <- matrix(rnorm(50), 10)
#' K <- kernel_matrix(gaussian_kernel(1.5), x)
#' max(abs(rpf_kernel_matrix(map, x, left = "square", right = "cos") - K))
#' @export
rpf_map <- function(kernel, d, n_features, method = c("iid", "orthogonal", "structured", "qmc"), seed = NULL) {
  kernel <- check_periodic_kernel(validate_kernel(kernel))
  d <- check_count(d, "d")
  n_features <- check_count(n_features, "n_features")
  method <- check_choice(method, frequency_sources, "method")
  check_method(kernel, list(), method)
  seed_words <- resolve_seed(seed)
  check_output_size(d, n_features, "the frequency matrix")
  spec <- kernel_with_settings(kernel, resolve_kernel_settings(kernel, list()), d)
  sampled <- sample_frequencies(kernel, spec, d, n_features, method, "equal", seed_words)
  structure(list(kernel = kernel, d = d, n_features = n_features, method = method, seed = seed_words,
                 mass = sampled$parts$mass,
                 omega = sampled$omega, dither = core(.cpp_sample_dither(seed_words, n_features)),
                 format_version = format_version),
            class = map_class("rpf_map"))
}

#' @export
map_columns.rpf_map <- function(map) map$n_features

#' @export
map_memory.rpf_map <- function(map, rows) 8 * length(map$omega)

#' @export
check_map_data.rpf_map <- function(map, x, name) check_projections(x, map$omega, name)

# Its features are those of a periodic function, which rff_features() has no
# argument for; its kernel matrix is rpf_kernel_matrix()'s default.
#' @export
map_side.rpf_map <- function(map, x, side, n_threads) {
  fail("`map` is a random periodic map, whose features are those of a periodic function: use rpf_features(map, x, fun).")
}

#' @export
map_gram.rpf_map <- function(map, x, y, n_threads) rpf_kernel_matrix(map, x, y, n_threads = n_threads)

#' @export
ridge_function.rpf_map <- function(map, fun) as_periodic_function(if (is.null(fun)) "square" else fun, "fun")$name

#' @rdname predict.askrff_map
#' @export
predict.rpf_map <- function(object, newdata, fun = "cos", n_threads = NULL, ...) {
  object <- validate_map(object, "object", "rpf_map")
  rpf_features(object, map_data(object, newdata, "newdata"), fun, n_threads)
}

#' @export
print.rpf_map <- function(x, ...) {
  x <- validate_map(x, "x", "rpf_map")
  cat("<askrff random periodic map> ", kernel_label(x$kernel), ", d = ", x$d, "\n", sep = "")
  cat("  ", format_count(x$n_features), " frequencies with dither U[0, 2 pi) = ", format_count(x$n_features),
      " features per side; total mass ", format(x$mass, digits = 6), "\n", sep = "")
  invisible(x)
}

#' @export
summary.rpf_map <- function(object, ...) {
  object <- validate_map(object, "object", "rpf_map")
  radius <- sqrt(colSums(object$omega^2))
  structure(list(kernel = object$kernel, d = object$d, n_features = object$n_features, mass = object$mass,
                 radius = stats::quantile(radius, c(0, 0.25, 0.5, 0.75, 1)),
                 dither = range(object$dither)),
            class = "summary.rpf_map")
}

#' @export
print.summary.rpf_map <- function(x, ...) {
  cat("<askrff random periodic map summary> ", kernel_label(x$kernel), ", d = ", x$d, "\n", sep = "")
  cat("  ", format_count(x$n_features), " frequencies; total mass ", format(x$mass, digits = 6), "\n", sep = "")
  cat("  radius ||w|| quartiles: ", paste(format(x$radius, digits = 4), collapse = ", "), "\n", sep = "")
  cat("  dither in [", format(x$dither[1], digits = 4), ", ", format(x$dither[2], digits = 4), "]\n", sep = "")
  invisible(x)
}

#' Random periodic features
#'
#' \eqn{z_f(x) = m^{-1/2} f(\Omega^\top x + \xi)} for every row of `x`: one
#' column per frequency of the map. With `fun = "cos"` these are real random
#' Fourier features with a dither, \eqn{2\langle z_{\cos}(x), z_{\cos}(y)\rangle}
#' estimating \eqn{k(x - y)/k(0)}; with `fun = "square"` every entry is
#' \eqn{\pm m^{-1/2}}, one bit, and [rpf_pack()] stores them as such.
#' Computed by the threaded C++ core (the projection, a vectorized cosine and
#' the map in one pass).
#'
#' @param map A map from [rpf_map()].
#' @param x Numeric matrix or data frame with `map$d` columns.
#' @param fun The periodic map: `"cos"`, `"square"` or a quantizer from
#'   [rpf_quantizer()].
#' @inheritParams kernel_matrix
#' @return A `nrow(x)` by `map$n_features` matrix.
#' @family random periodic features
#' @examples
#' map <- rpf_map(gaussian_kernel(1), d = 2, n_features = 8, seed = 1)
#' rpf_features(map, matrix(rnorm(4), 2), "square")
#' @export
rpf_features <- function(map, x, fun = "cos", n_threads = NULL) {
  map <- validate_map(map, kinds = "rpf_map")
  x <- map_data(map, x, "x")
  fun <- as_periodic_function(fun, "fun")
  n_threads <- resolve_threads(n_threads)
  check_output_size(nrow(x), map$n_features, "the feature matrix", extra = map_memory(map, nrow(x)))
  z <- core(.cpp_map_features(map, x, "left", fun$name, n_threads))
  if (!is.null(rownames(x))) rownames(z) <- rownames(x)
  z
}

#' Approximate kernel matrix from random periodic features
#'
#' \eqn{\hat K_{ij} = \frac{k(0)}{\langle f, g\rangle}\langle z_f(x_i), z_g(y_j)\rangle}
#' with \eqn{\langle f, g\rangle = \frac{1}{2\pi}\int_0^{2\pi} f g\,dt}
#' (003 eq. 13). Its expectation is the kernel [rpf_expected_kernel()] gives
#' (003 Prop. 3): when either map is the cosine that is the kernel itself, so
#' the semi-quantized product \eqn{\frac{\pi}{2}\langle z_q(x), z_{\cos}(y)\rangle}
#' (the default) estimates \eqn{k(x - y)} without bias, in either orientation.
#' Two quantized sides estimate a distorted kernel instead; for two square
#' waves \eqn{\frac{8}{\pi^2}\sum_{k \text{ odd}} k(ku)/k^2}.
#'
#' A square-wave side may be given as packed bits ([rpf_pack()]) in place of
#' data. Such a side is always multiplied from its bits (two packed sides by
#' XOR and population counts, exact in integers), so data and packed features
#' of the same points give identical results.
#'
#' @inheritParams rpf_features
#' @param x Numeric matrix or data frame with `map$d` columns, or, when `left`
#'   is the square wave, packed features from [rpf_pack()].
#' @param y Second set of points, likewise for `right`; defaults to `x`.
#' @param left,right The periodic maps of `x` and `y`: `"cos"`, `"square"` or
#'   a quantizer from [rpf_quantizer()].
#' @return The `nrow(x)` by `nrow(y)` matrix.
#' @family random periodic features
#' @examples
#' map <- rpf_map(laplace_kernel(1.5), d = 5, n_features = 2000, seed = 1)
#' x <- matrix(rnorm(25), 5)
#' bits <- rpf_pack(rpf_features(map, x, "square"))
#' K_hat <- rpf_kernel_matrix(map, bits, x, left = "square", right = "cos")
#' max(abs(K_hat - kernel_matrix(laplace_kernel(1.5), x)))
#' @export
rpf_kernel_matrix <- function(map, x, y = x, left = "square", right = "cos", n_threads = NULL) {
  map <- validate_map(map, kinds = "rpf_map")
  left <- as_periodic_function(left, "left")
  right <- as_periodic_function(right, "right")
  x_side <- periodic_side(x, "x", left, "left", map)
  y_side <- periodic_side(y, "y", right, "right", map)
  n_threads <- resolve_threads(n_threads)
  check_output_size(x_side$n, y_side$n, "the approximate kernel matrix",
                    extra = periodic_gram_bytes(x_side$n, y_side$n, map$n_features, left$binary,
                                                right$binary, n_threads))
  scale <- map$mass / rpf_inner_product(left, right)
  K <- core(.cpp_rpf_gram(x_side$data, x_side$packed, y_side$data, y_side$packed, map$omega, map$dither,
                     left$name, right$name, scale, n_threads))
  if (!is.null(x_side$names) || !is.null(y_side$names)) dimnames(K) <- list(x_side$names, y_side$names)
  K
}

# What rpf_kernel_matrix() holds beside its result: two copies of the bits of
# every square-wave side (bytes and words), the doubles of the side stored
# whole (the left one when only the right side is a square wave, else the
# right one), and a block of unpacked rows per thread.
periodic_gram_bytes <- function(n_x, n_y, m, left_binary, right_binary, n_threads) {
  bits <- 2 * ceiling(m / 8) * (left_binary * as.double(n_x) + right_binary * as.double(n_y))
  stored <- if (left_binary && right_binary) 0 else if (right_binary) n_x else n_y
  bits + 8 * as.double(m) * (stored + 64 * n_threads)
}

# Data, or packed bits on a square-wave side, as the C++ product reads them.
periodic_side <- function(points, name, fun, fun_name, map) {
  if (inherits(points, "rpf_packed")) {
    points <- validate_packed(points, name)
    if (!fun$binary) {
      fail("`%s` is packed one-bit features, which only a binary side (the square wave) takes, but `%s` is %s.",
           name, fun_name, fun$name)
    }
    if (points$n_features != map$n_features) {
      fail("`%s` holds %d features per point, but the map has %d frequencies.", name, points$n_features,
           map$n_features)
    }
    return(list(data = NULL, packed = points$bits, n = ncol(points$bits), names = points$names))
  }
  points <- map_data(map, points, name)
  list(data = points, packed = NULL, n = nrow(points), names = rownames(points))
}

#' Store square-wave features as bits
#'
#' Packs features of `rpf_features(map, x, "square")`, every entry
#' \eqn{\pm m^{-1/2}}, into \eqn{\lceil m/8\rceil} bytes per point, 64 times
#' smaller than the doubles: feature \eqn{f} is bit \eqn{(f - 1) \bmod 8}
#' (least significant first) of byte \eqn{\lfloor (f - 1)/8\rfloor + 1}, set
#' for \eqn{+}. [rpf_kernel_matrix()] takes the result in place of data on a
#' square-wave side, and `as.matrix()` unpacks it.
#'
#' @param features A matrix from `rpf_features(map, x, "square")`.
#' @inheritParams kernel_matrix
#' @return An object of class `"rpf_packed"`: a list with `bits`, a raw
#'   matrix with one column of bytes per point, `n_features` and the points'
#'   `names`.
#' @family random periodic features
#' @examples
#' map <- rpf_map(gaussian_kernel(1), d = 3, n_features = 64, seed = 1)
#' z <- rpf_features(map, matrix(rnorm(30), 10), "square")
#' packed <- rpf_pack(z)
#' packed
#' identical(as.matrix(packed), z)
#' @export
rpf_pack <- function(features, n_threads = NULL) {
  if (!is_matrix(features) || !is.double(features) || is.object(features) || nrow(features) < 1L || ncol(features) < 1L) {
    fail("`features` must be a numeric matrix of square-wave features from rpf_features(map, x, \"square\").")
  }
  value <- 1 / sqrt(ncol(features))
  if (anyNA(features) || any(abs(abs(features) - value) > 1e-12 * value)) {
    fail("`features` must hold square-wave features: every entry +-1/sqrt(ncol(features)), as rpf_features(map, x, \"square\") gives.")
  }
  n_threads <- resolve_threads(n_threads)
  structure(list(bits = core(.cpp_pack_signs(features, n_threads)), n_features = ncol(features),
                 names = rownames(features), format_version = format_version),
            class = "rpf_packed")
}

#' @export
print.rpf_packed <- function(x, ...) {
  x <- validate_packed(x, "x")
  n <- ncol(x$bits)
  cat("<askrff packed square-wave features> ", format_count(n), " points x ", format_count(x$n_features),
      " one-bit features\n", sep = "")
  cat("  ", format_bytes(length(x$bits)), " of bits; as doubles ",
      format_bytes(8 * as.double(n) * x$n_features), "\n", sep = "")
  invisible(x)
}

#' @export
as.matrix.rpf_packed <- function(x, ...) {
  x <- validate_packed(x, "x")
  check_output_size(ncol(x$bits), x$n_features, "the unpacked features")
  z <- core(.cpp_unpack_signs(x$bits, x$n_features, 1 / sqrt(x$n_features), resolve_threads(NULL)))
  if (!is.null(x$names)) rownames(z) <- x$names
  z
}

#' The kernel a pair of periodic maps approximates
#'
#' The expectation of [rpf_kernel_matrix()] with maps `left` and `right`
#' (003 Prop. 3, rescaled by \eqn{1/\langle f, g\rangle} as the estimator is):
#' \deqn{k_{f,g}(u) = \frac{1}{\langle f, g\rangle}\sum_{k \ne 0} F_k G_k\, k(ku)
#'   = \sum_{k \ge 1} \frac{2 F_k G_k}{\langle f, g\rangle}\, k(ku).}
#' With a cosine on either side only \eqn{k = 1} remains, and \eqn{k_{f,g} = k}.
#' Two square waves give the distorted kernel
#' \eqn{\frac{8}{\pi^2}\sum_{k \text{ odd}} k(ku)/k^2}; for the Gaussian kernel
#' it falls linearly at the origin, \eqn{1 - \frac{2\sqrt 2}{\pi^{3/2}}\|u\|/\sigma}
#' (SPEC 6: 003 eq. 16 has \eqn{\sqrt 2} for \eqn{2\sqrt 2}).
#'
#' The series is summed until the rest is provably below `tolerance` times
#' \eqn{k(0)}: \eqn{|F_k| \le 4/(2\pi k)} (total variation 4 over a period)
#' bounds the weights after term \eqn{K} by \eqn{8/(\pi^2 K \langle f, g\rangle)},
#' and \eqn{k(tu)} does not increase in \eqn{t}. Equal points give
#' \eqn{k(0)} exactly.
#'
#' Close points would need many terms (about \eqn{14\sigma/\|u\|_1} for the
#' Laplace kernel), so for two step functions (square waves and quantizers)
#' the kernel there is computed from \eqn{E\,h(T)/\langle f, g\rangle}, with
#' \eqn{h} their cross-correlation (piecewise linear, \eqn{h(0) + s|t|}
#' near 0) and \eqn{T = \omega^\top u}: for a Gaussian component \eqn{T} is
#' normal and \eqn{E\,h(T) = h(0) + s\,E|T|} while \eqn{T} stays within the
#' linear part; for the Laplace kernel \eqn{T} is Cauchy with scale
#' \eqn{\|u\|_1/\sigma}, and \eqn{E\,h(T)} over its law wrapped to
#' \eqn{[-\pi, \pi]} is a closed form plus a tabulated correction for the
#' kinks of \eqn{h} away from 0. Every entry then takes a bounded number of
#' operations (for 8-bit quantizers, at most about 900 terms per component
#' for the Laplace kernel and 14000 for a Gaussian one).
#'
#' @param kernel A positive definite kernel, as for [rpf_map()].
#' @param left,right The periodic maps: `"cos"`, `"square"` or a quantizer
#'   from [rpf_quantizer()].
#' @param tolerance Absolute accuracy relative to \eqn{k(0)}, between 1e-6
#'   and 0.1.
#' @return A kernel object of class `c("rpf_expected_kernel", "askrff_kernel")`
#'   for [kernel_matrix()].
#' @family random periodic features
#' @examples
#' k_qq <- rpf_expected_kernel(gaussian_kernel(1.5), "square", "square")
#' k_qq
#' u <- cbind(seq(0, 5, by = 0.5), 0)
#' cbind(distance = u[, 1], gaussian = kernel_matrix(gaussian_kernel(1.5), u, matrix(0, 1, 2)),
#'       distorted = kernel_matrix(k_qq, u, matrix(0, 1, 2)))
#' @export
rpf_expected_kernel <- function(kernel, left = "square", right = "cos", tolerance = 1e-6) {
  kernel <- check_periodic_kernel(validate_kernel(kernel))
  left <- as_periodic_function(left, "left")
  right <- as_periodic_function(right, "right")
  if (!is_single_number(tolerance) || !is.finite(tolerance) || tolerance < 1e-6 || tolerance > 0.1) {
    fail("`tolerance` must be a single number between 1e-6 and 0.1.")
  }
  expected <- new_kernel("rpf_expected", c(kernel$params, list(tolerance = as.double(tolerance))),
                         "expected", sprintf("sum_{k >= 1} (2 F_k G_k / <f, g>) k0(k (x - y)) with k0 the %s, f = %s, g = %s (to %s k0(0))",
                                             kernel_label(kernel), left$name, right$name, format(tolerance)))
  expected$settings <- list(base = kernel$name, left = left$name, right = right$name)
  expected$base <- kernel
  expected
}
