# Fastfood maps (Le, Sarlos and Smola 2013): random Fourier features of a
# rotation-invariant kernel whose frequencies are never stored. The core
# computes their features (src/core/features/fastfood_features.*).

#' Fastfood random features of a rotation-invariant kernel
#'
#' Random Fourier features whose frequencies are products of structured
#' matrices, never formed: with the data padded from \eqn{d} to \eqn{D =
#' 2^{\lceil \log_2 d \rceil}} coordinates, each block of \eqn{D} frequencies
#' is the rows of \eqn{S H G \Pi H B}, where \eqn{B} is a diagonal of random
#' signs, \eqn{H} the Walsh-Hadamard matrix, \eqn{\Pi} a random permutation,
#' \eqn{G} a diagonal of standard normals and \eqn{S} the diagonal
#' \eqn{r_i / (\sqrt{D} \|G\|)} with radii \eqn{r_i} drawn from the kernel's
#' radial law in \eqn{D} dimensions (Le, Sarlós and Smola 2013). A row's
#' projections on a block then cost two fast Walsh-Hadamard transforms,
#' \eqn{O(D \log D)} instead of \eqn{O(D d)}, and the map keeps \eqn{4D}
#' numbers per block instead of \eqn{dD}; the gain grows with \eqn{d}.
#'
#' **Unbiased.** Given \eqn{B} and \eqn{\Pi}, the rows of \eqn{\Pi H B} are
#' orthogonal with norm \eqn{\sqrt D}, so a row of \eqn{H G \Pi H B} is
#' \eqn{N(0, D I)} and has norm \eqn{\sqrt D \|G\|}: its direction is uniform
#' on the sphere and independent of its norm. Each frequency is therefore
#' exactly a draw of the kernel's spectral law in \eqn{D} dimensions, whose
#' first \eqn{d} coordinates have the law in \eqn{d} dimensions, and the
#' features' inner products are unbiased for the kernel. The frequencies of a
#' block are dependent (they share \eqn{G}); those of different blocks are
#' independent.
#'
#' The features of a row are \eqn{\sqrt{m / n}\,[\cos(w_1'x), \dots,
#' \cos(w_n'x), \sin(w_1'x), \dots, \sin(w_n'x)]} with \eqn{m} the mass of
#' the kernel's measure (its value at zero), the same on both sides; the map
#' works wherever a map of [rff_map()] does: [rff_features()],
#' [rff_kernel_matrix()], `predict()`, [rff_ridge()], [rff_glm()] and
#' [approximation_study()] (method type `"fastfood"`).
#'
#' @param kernel A kernel whose spectral measure is one positive,
#'   rotation-invariant part: [gaussian_kernel()], [matern_kernel()],
#'   [exponential_kernel()], [rational_quadratic_kernel()],
#'   [generalized_gaussian_kernel()] or [radial_kernel()] with one length
#'   scale for every coordinate.
#' @param d Dimension of the data.
#' @param n_features Number of frequencies; each side has `2 * n_features`
#'   feature columns.
#' @param seed `NULL` (use R's random number generator, so [set.seed()]
#'   makes the map reproducible) or a whole number, as for [rff_map()].
#' @return A map of class `c("fastfood_map", "askrff_map")`: a list with the
#'   `kernel`, `d`, `n_features`, the padded dimension `size`, the `mass` of
#'   the kernel's measure, and per block the columns of `sign` (\eqn{B}),
#'   `permutation` (\eqn{\Pi}: row \eqn{k} of \eqn{\Pi v} is \eqn{v} at
#'   `permutation[k]`), `gaussian` (\eqn{G}) and `scale` (\eqn{S}), `size`
#'   rows each; and the `seed`.
#' @references Le, Q., Sarlós, T. and Smola, A. (2013). Fastfood -
#'   approximating kernel expansions in loglinear time. Proceedings of the
#'   30th International Conference on Machine Learning (ICML 2013), PMLR
#'   28(3), 244-252.
#' @family maps
#' @examples
#' map <- fastfood_map(gaussian_kernel(2), d = 5, n_features = 256, seed = 1)
#' map
#' x <- matrix(rnorm(20), 4)
#' round(rff_kernel_matrix(map, x) - kernel_matrix(gaussian_kernel(2), x), 2)
#' @export
fastfood_map <- function(kernel, d, n_features, seed = NULL) {
  kernel <- fastfood_kernel(validate_kernel(kernel), "kernel")
  d <- check_count(d, "d", max = 2^24)
  n_features <- check_count(n_features, "n_features", max = .Machine$integer.max %/% 2L)
  size <- as.integer(2^ceiling(log2(d)))
  blocks <- ceiling(n_features / size)
  check_output_size(size, 5 * blocks, "the Fastfood map's blocks")
  seed_words <- resolve_seed(seed)
  drawn <- core(.cpp_sample_radii(kernel, size, as.integer(size * blocks), seed_words))
  # B, G and the permutations from uniforms strictly inside (0, 1)
  u <- matrix((floor(seed_uniforms(seed_words, 3 * size * blocks) * 2^52) + 0.5) / 2^52, nrow = 3 * size)
  rows <- seq_len(size)
  gaussian <- stats::qnorm(u[size + rows, , drop = FALSE])
  scale <- matrix(drawn$radius, size) / (sqrt(size) * rep(sqrt(colSums(gaussian^2)), each = size))
  structure(list(kernel = kernel, d = d, n_features = n_features, size = size, mass = drawn$mass,
                 sign = ifelse(u[rows, , drop = FALSE] < 0.5, -1, 1),
                 permutation = matrix(apply(u[2L * size + rows, , drop = FALSE], 2L, order), size),
                 gaussian = gaussian, scale = scale, seed = seed_words, format_version = format_version),
            class = map_class("fastfood_map"))
}

# The kernel, if its measure is one positive, rotation-invariant part with
# one length scale for every coordinate (Fastfood makes its own directions).
fastfood_kernel <- function(kernel, arg) {
  traits <- kernel_traits(kernel)
  scalar <- all(vapply(traits$coordinate_params, function(p) length(kernel$params[[p]]) == 1L, TRUE))
  if (!identical(traits$measure, "positive") || !isTRUE(traits$radial) || !scalar || !is.null(kernel$terms)) {
    fail("`%s` must be a rotation-invariant kernel with one length scale, such as gaussian_kernel(1) or matern_kernel(1, 1.5); Fastfood draws its own directions. Use rff_map() for %s.",
         arg, kernel_label(kernel))
  }
  kernel
}

#' @export
map_columns.fastfood_map <- function(map) 2L * map$n_features

# Beside the features: the core's copy of the blocks (4 numbers a frequency)
# and each thread's two work vectors of `size` (up to 32 threads).
#' @export
map_memory.fastfood_map <- function(map, rows) 8 * (4 * length(map$scale) + 64 * map$size)

#' @export
check_map_data.fastfood_map <- function(map, x, name) {
  # every transform's entries and projection stay below this
  reach <- max(abs(x)) * map$d * map$size * max(abs(map$gaussian)) * max(1, map$scale)
  if (!is.finite(reach) || reach > 1e300) {
    fail("`%s` has entries up to %s, so the map's transforms overflow; rescale the data (and the kernel's length scale with it).",
         name, format(max(abs(x)), digits = 3), class = "data")
  }
  invisible(x)
}

#' @export
print.fastfood_map <- function(x, ...) {
  x <- validate_map(x, "x")
  blocks <- ncol(x$scale)
  cat(sprintf("<askrff fastfood map> %s\n", kernel_label(x$kernel)))
  cat(sprintf("  d = %d (padded to %d), %s frequencies in %d block%s, %s feature columns per side\n", x$d, x$size,
              format_count(x$n_features), blocks, if (blocks > 1L) "s" else "", format_count(2 * x$n_features)))
  invisible(x)
}

#' @export
validate_fields.fastfood_map <- function(map, arg) {
  check_object(map, arg, "fastfood_map", "a map made by fastfood_map()")
  kernel <- fastfood_kernel(validate_kernel(map$kernel, field(arg, "kernel")), field(arg, "kernel"))
  d <- check_count(map$d, field(arg, "d"), max = 2^24)
  n <- check_count(map$n_features, field(arg, "n_features"), max = .Machine$integer.max %/% 2L)
  size <- as.integer(2^ceiling(log2(d)))
  if (!identical(map$size, size)) fail("`%s` must be %d, d = %d rounded up to a power of two.", field(arg, "size"), size, d)
  blocks <- ceiling(n / size)
  shape <- function(name, ok, rule) {
    m <- map[[name]]
    if (!is.numeric(m) || !is_matrix(m) || is.object(m) || !identical(dim(m), c(size, as.integer(blocks))) || anyNA(m) ||
        !ok(m)) {
      fail("`%s` must be a %d x %d matrix (one column per block) of %s.", field(arg, name), size, blocks, rule)
    }
  }
  shape("sign", function(m) all(m %in% c(-1, 1)), "signs, -1 or 1")
  shape("gaussian", function(m) all(is.finite(m)) && all(colSums(m^2) > 0), "finite numbers, not all zero in a column")
  shape("scale", function(m) all(is.finite(m) & m >= 0), "finite numbers of at least 0")
  shape("permutation", function(m) all(m == round(m) & m >= 1 & m <= size) && !any(apply(m, 2L, anyDuplicated)),
        sprintf("permutations of 1 to %d", size))
  mass <- core(.cpp_sample_radii(kernel, size, 1L, c(0, 0)))$mass
  if (!is_single_number(map$mass) || !isTRUE(abs(map$mass - mass) <= 1e-12 * mass)) {
    fail("`%s` must be %s, the mass of the kernel's measure; make the map again with fastfood_map().",
         field(arg, "mass"), format(mass, digits = 15))
  }
  check_seed_words(map$seed, field(arg, "seed"))
  permutation <- map$permutation
  storage.mode(permutation) <- "integer"
  structure(list(kernel = kernel, d = d, n_features = n, size = size, mass = mass, sign = map$sign + 0,
                 permutation = permutation, gaussian = map$gaussian + 0, scale = map$scale + 0, seed = map$seed,
                 format_version = format_version), class = map_class("fastfood_map"))
}

#' @export
study_gram.fastfood_map <- function(method, kernel, x, y, n, seed, n_threads) {
  map <- fastfood_map(kernel, ncol(x), n, seed)
  list(K_hat = rff_kernel_matrix(map, x, y, n_threads), columns = 2L * n)
}
