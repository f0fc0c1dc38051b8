# Random periodic features (Schellekens and Jacques 2020): frequencies and a
# dither shared by both sides, a periodic map on each side (the cosine, the
# one-bit square wave or a b-bit quantizer of the cosine), and products
# rescaled by 1/<f, g>. Square-wave features can be stored as bits.

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
#' (Schellekens and Jacques 2020, Def. 2). The features of a point are
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
#' @template ref-schellekens2020
#' @family random periodic features
#' @examples
#' map <- rpf_map(gaussian_kernel(1.5), d = 5, n_features = 1000, seed = 1)
#' map
#' x <- matrix(rnorm(50), 10)
#' K <- kernel_matrix(gaussian_kernel(1.5), x)
#' max(abs(rpf_kernel_matrix(map, x, left = "square", right = "cos") - K))
#' @export
rpf_map <- function(kernel, d, n_features, method = "iid", seed = NULL) {
  kernel <- check_periodic_kernel(validate_kernel(kernel))
  d <- check_count(d, "d")
  n_features <- check_count(n_features, "n_features")
  method <- check_source(method, "method")
  seed_words <- resolve_seed(seed)
  check_output_size(d, n_features, "the frequency matrix")
  spec <- kernel_with_settings(kernel, resolve_kernel_settings(kernel, list()), d)
  check_method(kernel, spec, d, method)
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
#' @template ref-schellekens2020
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
#' (Schellekens and Jacques 2020, eq. 13). Its expectation is the kernel
#' [rpf_expected_kernel()] gives (their Prop. 3): when either map is the cosine that is the kernel itself, so
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
#' @template ref-schellekens2020
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

#' @export
validate_fields.rpf_map <- function(map, arg) {
  check_object(map, arg, "rpf_map", "a map made by rpf_map()")
  kernel <- check_periodic_kernel(validate_kernel(map$kernel, field(arg, "kernel")))
  d <- check_count(map$d, field(arg, "d"))
  m <- check_count(map$n_features, field(arg, "n_features"))
  mass <- map$mass
  if (!is_single_number(mass) || !isTRUE(all.equal(mass, periodic_kernel_mass(kernel), tolerance = 1e-12))) {
    fail("`%s` must be the total mass of the kernel's measure, %s.", field(arg, "mass"),
         format(periodic_kernel_mass(kernel)))
  }
  omega <- validate_frequencies(map$omega, field(arg, "omega"), d, m)
  dither <- map$dither
  if (!is.numeric(dither) || is.object(dither) || length(dither) != m || anyNA(dither) ||
      any(dither < 0) || any(dither >= 2 * pi)) {
    fail("`%s` must hold one value in [0, 2 pi) per frequency (%s).", field(arg, "dither"), format_count(m))
  }
  check_source(map$method, field(arg, "method"))
  check_seed_words(map$seed, field(arg, "seed"))
  map$kernel <- kernel
  map$d <- d
  map$n_features <- m
  map$mass <- as.double(mass)
  map$omega <- omega
  map$dither <- as.double(dither)
  map
}

#' @export
study_gram.rpf_map <- function(method, kernel, x, y, n, seed, n_threads) {
  args <- method$args
  map <- rpf_map(kernel, ncol(x), n, args$method, seed = seed)
  list(K_hat = rpf_kernel_matrix(map, x, y, args$left, args$right, n_threads), columns = n)
}
