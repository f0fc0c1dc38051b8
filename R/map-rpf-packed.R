# Square-wave features stored as bits: eight features a byte, products by
# XOR and population counts in the core.

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
#' @template ref-schellekens2020
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

validate_packed <- function(packed, arg) as_condition_class("invalid_object", {
  check_object(packed, arg, "rpf_packed", "packed features made by rpf_pack()")
  m <- check_count(packed$n_features, field(arg, "n_features"))
  bits <- packed$bits
  if (!is_matrix(bits) || !is.raw(bits) || ncol(bits) < 1L) {
    fail("`%s` must be a raw matrix with one column of bytes per point.", field(arg, "bits"))
  }
  if (nrow(bits) != ceiling(m / 8)) {
    fail("`%s` must have ceiling(n_features / 8) = %d rows for %d features, not %d.", field(arg, "bits"),
         ceiling(m / 8), m, nrow(bits))
  }
  if (m %% 8L != 0L && any(as.integer(bits[nrow(bits), ]) %/% 2L^(m %% 8L) != 0L)) {
    fail("`%s` has bits set beyond feature %d in its last byte; they must be zero.", field(arg, "bits"), m)
  }
  names <- packed$names
  if (!is.null(names) && (!is.character(names) || length(names) != ncol(bits))) {
    fail("`%s` must be NULL or one name per point (%d).", field(arg, "names"), ncol(bits))
  }
  packed$n_features <- m
  packed
})
