# Random features of dot-product kernels k(x, y) = sum_n c_n (x'y)^n:
# Random Maclaurin (Kar and Karnick, 2012) and Tensor Sketch (Pham and Pagh,
# 2013). The core computes their features (src/core/maclaurin_features.*,
# tensor_sketch_features.*).

#' Random Maclaurin and Tensor Sketch maps of dot-product kernels
#'
#' Random features that expand a kernel of the inner product,
#' \eqn{k(x, y) = \sum_{n \ge 0} c_n (x'y)^n}, instead of sampling its
#' spectral measure: the baselines of Liu et al. (2021), Fig. 2, for the
#' polynomial kernel on the sphere, whose coefficients are \eqn{c_n = \binom{p}{n} (2/a^2)^n
#' ((a^2 - 2)/a^2)^{p - n}} since \eqn{\|x - y\|^2 = 2 - 2x'y} for unit
#' vectors. They take [poly_sphere_kernel()] and sums, multiples and products
#' of such kernels ([kernel-arithmetic]), whose coefficients follow from the
#' terms'; coefficients may have either sign. Coefficients below
#' \eqn{10^{-15} \sum_n |c_n|}, under the rounding of the kernel's values on
#' the sphere, are dropped. Both maps work wherever a map of [rff_map()]
#' does: [rff_features()], [rff_kernel_matrix()], `predict()`, [rff_ridge()]
#' and [approximation_study()] (methods `"maclaurin"` and
#' `"tensor_sketch"`).
#'
#' **Random Maclaurin.** Each of the `n_features` columns draws a degree
#' \eqn{N} with \eqn{P(N = n) = q_n \propto 2^{-(n + 1)}} over the degrees
#' whose coefficient is kept (Kar and Karnick's law, restricted so that no
#' column is wasted on a zero coefficient) and \eqn{N} Rademacher vectors
#' \eqn{w_1, \dots, w_N}; the left column is \eqn{\sqrt{|c_N| / (q_N D)}
#' \prod_i w_i'x} with \eqn{D} = `n_features`, and the right one carries
#' the sign of \eqn{c_N} as well, so the product of the sides is unbiased.
#' One column has second moment \eqn{\sum_n c_n^2 M^n / q_n} with \eqn{M =
#' \|x\|^2 \|y\|^2 + 2 (x'y)^2 - 2 \sum_a x_a^2 y_a^2}, which
#' [approximation_study()] reports as its theory.
#'
#' **Tensor Sketch.** A nonzero \eqn{c_0} takes one exact constant column.
#' Every other kept degree \eqn{n} takes a block of \eqn{D_n \ge 1} columns
#' (one each, and the rest shared in proportion to \eqn{|c_n|} by largest
#' remainders): the sketch \eqn{\mathrm{FFT}^{-1}(\prod_{i=1}^n
#' \mathrm{FFT}(C_i x))} of \eqn{n} independent count sketches \eqn{C_i} of
#' dimension \eqn{D_n} (a hash of the coordinates to \eqn{1, \dots, D_n} and
#' a random sign each), whose inner products are unbiased for \eqn{(x'y)^n},
#' times \eqn{\sqrt{|c_n|}}, with the sign of \eqn{c_n} on the right.
#' `n_features` must be at least the number of kept degrees.
#'
#' @param kernel A dot-product kernel: [poly_sphere_kernel()], or sums,
#'   multiples and products of such kernels.
#' @param d Dimension of the data.
#' @param n_features Number of feature columns of each side.
#' @param seed `NULL` (use R's random number generator, so [set.seed()]
#'   makes the map reproducible) or a whole number, as for [rff_map()].
#' @return A map of class `c("maclaurin_map", "askrff_map")` (a list with the `kernel`,
#'   `d`, `n_features`, and per column its `degree`, `weight` and `sign`,
#'   with the Rademacher vectors as the columns of `rademacher`, those of
#'   each column in turn)
#'   or `c("tensor_sketch_map", "askrff_map")` (a list with the `kernel`, `d`,
#'   `n_features`, the `constant` \eqn{c_0} and the `blocks`, one per kept
#'   degree: its `degree`, `coefficient`, `columns`, and the `hash` and
#'   `sign` of its count sketches, d by degree matrices).
#' @references Kar, P. and Karnick, H. (2012). Random feature maps for dot
#'   product kernels. Proceedings of the 15th International Conference on
#'   Artificial Intelligence and Statistics (AISTATS 2012), PMLR 22.
#'
#'   Pham, N. and Pagh, R. (2013). Fast and scalable polynomial kernels via
#'   explicit feature maps. Proceedings of the 19th ACM SIGKDD International
#'   Conference on Knowledge Discovery and Data Mining (KDD 2013).
#' @template ref-liu2021
#' @family maps
#' @examples
#' k <- poly_sphere_kernel(a = 3, p = 3)
#' x <- normalize_rows(matrix(runif(200), 40))
#' rm <- maclaurin_map(k, d = 5, n_features = 2000, seed = 1)
#' ts <- tensor_sketch_map(k, d = 5, n_features = 2000, seed = 1)
#' ts
#' K <- kernel_matrix(k, x)
#' relative_error(K, rff_kernel_matrix(rm, x))
#' relative_error(K, rff_kernel_matrix(ts, x))
#' @export
maclaurin_map <- function(kernel, d, n_features, seed = NULL) {
  design <- dot_product_design(kernel, d, n_features)
  coefficients <- design$coefficients
  law <- maclaurin_law(coefficients)
  degrees <- law$degrees
  law <- law$probabilities
  seed_words <- resolve_seed(seed)
  D <- design$n_features
  # the uniforms of the degrees and signs, and the Rademacher vectors, for
  # degrees up to the largest kept one: refused before they are drawn
  check_output_size(design$d, as.double(D) * max(degrees), "the map's Rademacher vectors",
                    extra = 8 * as.double(D) * (4 + 2 * design$d * max(degrees)))
  # the degrees from the first D uniforms, the signs from those after them
  # pmin: the last cumulative probability may round to just below a uniform
  drawn <- degrees[pmin(findInterval(seed_uniforms(seed_words, D), cumsum(law)) + 1L, length(law))]
  total <- sum(drawn)
  signs <- 2 * (seed_uniforms(seed_words, D + design$d * total)[D + seq_len(design$d * total)] >= 0.5) - 1
  c_drawn <- coefficients[drawn + 1L]
  structure(list(kernel = design$kernel, d = design$d, n_features = D, degree = as.integer(drawn),
                 weight = sqrt(abs(c_drawn) / (law[match(drawn, degrees)] * D)), sign = sign(c_drawn),
                 rademacher = matrix(signs, design$d, total), format_version = format_version),
            class = map_class("maclaurin_map"))
}

#' @rdname maclaurin_map
#' @export
tensor_sketch_map <- function(kernel, d, n_features, seed = NULL) {
  design <- dot_product_design(kernel, d, n_features)
  coefficients <- design$coefficients
  constant <- coefficients[1L]
  degrees <- which(coefficients[-1L] != 0)
  available <- design$n_features - (constant != 0)
  if (length(degrees) == 0L && available > 0L) {
    fail("`kernel` is constant on the sphere (only c_0 is nonzero): its one exact column needs `n_features` = 1, not %d.",
         design$n_features)
  }
  if (available < length(degrees)) {
    fail("`n_features` must be at least %d for this kernel: one column for each of its %d nonzero coefficients.",
         length(degrees) + (constant != 0), length(degrees) + (constant != 0))
  }
  columns <- rep(1L, length(degrees)) + largest_remainder(abs(coefficients[degrees + 1L]), available - length(degrees))
  # the uniforms, hashes and signs of the count sketches
  check_output_size(design$d, 2 * sum(degrees), "the count sketches' hashes and signs",
                    extra = 8 * 2 * as.double(design$d) * sum(degrees))
  u <- seed_uniforms(resolve_seed(seed), 2 * design$d * sum(degrees))
  used <- 0L
  blocks <- lapply(seq_along(degrees), function(b) {
    count <- design$d * degrees[b]
    hash <- matrix(pmin(floor(u[used + seq_len(count)] * columns[b]) + 1L, columns[b]), design$d)
    sign <- matrix(2 * (u[used + count + seq_len(count)] >= 0.5) - 1, design$d)
    used <<- used + 2L * count
    storage.mode(hash) <- "integer"
    list(degree = degrees[b], coefficient = coefficients[degrees[b] + 1L], columns = columns[b], hash = hash, sign = sign)
  })
  structure(list(kernel = design$kernel, d = design$d, n_features = design$n_features, constant = constant,
                 blocks = blocks, format_version = format_version),
            class = map_class("tensor_sketch_map"))
}

# Kar and Karnick's degree law, P(N = n) proportional to 2^-(n + 1), on the
# degrees whose coefficient is kept.
maclaurin_law <- function(coefficients) {
  degrees <- which(coefficients != 0) - 1L
  list(degrees = degrees, probabilities = 2^-(degrees + 1) / sum(2^-(degrees + 1)))
}

# The checked arguments of both maps and the kernel's kept coefficients.
dot_product_design <- function(kernel, d, n_features) {
  kernel <- validate_kernel(kernel)
  d <- check_count(d, "d")
  check_kernel_dimension(kernel, d)
  n_features <- check_count(n_features, "n_features")
  list(kernel = kernel, d = d, n_features = n_features, coefficients = dot_product_series(kernel))
}

# c_0, c_1, ... of a validated kernel, from the core (a polynomial on the
# sphere's, and sums and products of such kernels combined); those under the
# rounding of the kernel's values set to zero.
dot_product_series <- function(kernel, arg = "kernel") {
  series <- core(.cpp_dot_product_series(kernel))
  if (length(series) == 0L) {
    fail(paste("`%s` must be a dot-product kernel with a finite expansion in x'y: poly_sphere_kernel(), or sums,",
               "multiples and products of such kernels; the %s is not."), arg, kernel_label(kernel))
  }
  series[abs(series) <= 1e-15 * sum(abs(series))] <- 0
  if (all(series == 0)) fail("`%s` is zero on the sphere: its expansion in x'y has no nonzero coefficient.", arg)
  series
}

# `total` shared in proportion to `weights` by largest remainders.
largest_remainder <- function(weights, total) {
  exact <- total * weights / sum(weights)
  counts <- floor(exact)
  first <- order(exact - counts, decreasing = TRUE)[seq_len(total - sum(counts))]
  counts[first] <- counts[first] + 1
  as.integer(counts)
}

#' @export
map_columns.maclaurin_map <- function(map) map$n_features

#' @export
map_columns.tensor_sketch_map <- function(map) map$n_features

#' @export
map_memory.maclaurin_map <- function(map, rows) 8 * length(map$rademacher)

# the hashes and signs, and a block's transforms
#' @export
map_memory.tensor_sketch_map <- function(map, rows) {
  12 * map$d * sum(vapply(map$blocks, `[[`, 1L, "degree")) + 64 * map$n_features
}

degree_range <- function(degrees) {
  if (length(degrees) == 0L) return("none")
  if (min(degrees) == max(degrees)) format(min(degrees)) else paste(min(degrees), "to", max(degrees))
}

#' @export
print.maclaurin_map <- function(x, ...) {
  x <- validate_map(x, "x")
  cat("<askrff Random Maclaurin map> ", kernel_label(x$kernel), ", d = ", x$d, "\n", sep = "")
  cat("  ", format_count(x$n_features), " columns per side of degree ", degree_range(x$degree),
      " (mean ", format(mean(x$degree), digits = 3), ")\n", sep = "")
  invisible(x)
}

#' @export
print.tensor_sketch_map <- function(x, ...) {
  x <- validate_map(x, "x")
  cat("<askrff Tensor Sketch map> ", kernel_label(x$kernel), ", d = ", x$d, "\n", sep = "")
  degrees <- vapply(x$blocks, `[[`, 1L, "degree")
  cat("  ", format_count(x$n_features), " columns per side: ", if (x$constant != 0) "a constant, " else "",
      length(degrees), if (length(degrees) == 1L) " sketch block" else " sketch blocks", " of degree ",
      degree_range(degrees), "\n", sep = "")
  invisible(x)
}


#' @export
study_gram.maclaurin_map <- function(method, kernel, x, y, n, seed, n_threads) {
  list(K_hat = rff_kernel_matrix(maclaurin_map(kernel, ncol(x), n, seed), x, y, n_threads), columns = n)
}

#' @export
study_gram.tensor_sketch_map <- function(method, kernel, x, y, n, seed, n_threads) {
  list(K_hat = rff_kernel_matrix(tensor_sketch_map(kernel, ncol(x), n, seed), x, y, n_threads), columns = n)
}
