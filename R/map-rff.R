# Sampled maps: frequencies drawn from every positive part of a measure, with
# what is needed to weight the left and right features. A map is a plain list,
# so saveRDS() and readRDS() keep it whole.

#' Sample a random Fourier feature map
#'
#' Draws `n_features` frequencies from the positive parts of the kernel's
#' spectral measure. The map gives a left and a right feature matrix
#' ([rff_features()]) whose product approximates the kernel matrix without
#' bias; for a positive definite kernel the two are equal.
#'
#' `n_features` is the total number of frequencies, shared among the parts.
#' With `allocation = "mass"` (the default) part \eqn{p} receives a share
#' proportional to its weight in the estimator, \eqn{|c_p| m_p} (coefficient
#' times total mass), by systematic sampling: its count is the floor or
#' the ceiling of `n_features` times its share, the counts sum to
#' `n_features`, and a part of zero mass gets none. Each frequency is then
#' weighted by \eqn{\sqrt{M / n}} with \eqn{M = \sum_p |c_p| m_p}, which keeps
#' every part's estimator unbiased, however its count fell. A part of
#' negligible mass (the Shift-Gaussian's `real_neg` at small shifts) no
#' longer takes its equal share of the columns. `allocation = "equal"` gives
#' every part the same count (`n_features` divided by the number of parts),
#' as the papers do.
#'
#' Settings for the indefinite kernels: `decomposition = "jordan"` or
#' `"components"` for [delta_gaussian_kernel()]; `tolerance` and `z_max` of
#' the LP measure for [poly_sphere_kernel()]; `route = "dot_product"` or
#' `"stationary"` (then also `tolerance` and `z_max`) for [arccos_kernel()]
#' and [ntk_kernel()]. Their parts are named `pos` and `neg`, and every part
#' takes `method = "orthogonal"`: the GORF of Luo et al. (2021), but with
#' independent Haar blocks per part and each direction paired with an
#' independent radius, since the paper's eqs. 10-11 do not give orthogonal
#' directions (the vignette's section "Orthogonal directions"). The discrete
#' measures of the LP route are sampled stratified: each part's frequencies
#' go to its atoms in proportion to their weights.
#'
#' Settings for the asymmetric kernels ([shift_gaussian_kernel()],
#' [sinh_gaussian_kernel()], [cosh_gaussian_kernel()]):
#' `decomposition = "jordan"` (default) samples the three positive parts of
#' the complex measure, the estimator of He et al. (2022);
#' `decomposition = "phase"`
#' samples \eqn{|\mu|} once and puts the phase of \eqn{\mu} on the left
#' features. Its total mass \eqn{\|\mu\|} is never larger than the Jordan
#' parts' sum, but its variance is not lower everywhere: for the
#' Shift-Gaussian it vanishes at \eqn{x - y = -r}, where the kernel peaks, and
#' is several times lower near it (about 6 times at \eqn{x - y = -r/2} for
#' \eqn{\sigma = 2} and \eqn{r = 2/d} in \eqn{d = 5}), while the Jordan parts'
#' vanishes at \eqn{x - y = 0} and is lower around \eqn{x - y = r} (the
#' vignette's section "Sampling the modulus: the phase form"). The vignette
#' "asymmetric-kernels" compares both.
#'
#' @param kernel A kernel object, such as [gaussian_kernel()].
#' @param d Dimension of the data.
#' @param n_features Total number of frequencies of the map, shared among the
#'   positive parts as `allocation` says. Each frequency gives two features
#'   (cosine and sine), except on the dot-product route of the arc-cosine
#'   kernels (one) and the NTK (`d + 1`); so a map has `2 * n_features`
#'   feature columns on each side (see [n_feature_columns()]).
#' @param method The frequency source: `"iid"`, `"orthogonal"`,
#'   `"structured"` or `"qmc"` (see the section "Frequency sources" of
#'   [rff_map()]).
#' @param ... Kernel-specific settings, by name: `decomposition`, `route`,
#'   `tolerance`, `z_max` (see Details).
#' @param allocation `"mass"` (shares proportional to the parts' masses) or
#'   `"equal"` (the same count for every part, at least one each).
#' @param seed `NULL` (draw from R's random number generator, so [set.seed()]
#'   makes the map reproducible) or a whole number giving the same map on
#'   every call, whatever the number of threads.
#' @return A map of class `c("rff_map", "askrff_map")`: a list holding the kernel, `d`,
#'   `method`, `allocation`, `n_features`, `settings`, the parts table of
#'   [spectral_measure()] with each part's `share` (the expected fraction of
#'   the frequencies it receives), the frequencies `omega` (one column each),
#'   the `part` each belongs to, its left `phase`, and for LP measures the
#'   `bias_bound`.
#' @template frequency-sources
#' @template ref-rahimi2007
#' @template ref-yu2016
#' @references Yang, J., Sindhwani, V., Avron, H. and Mahoney, M. W. (2014).
#'   Quasi-Monte Carlo feature maps for shift-invariant kernels. Proceedings
#'   of the 31st International Conference on Machine Learning (ICML 2014),
#'   PMLR 32.
#'
#'   Halton, J. H. (1960). On the efficiency of certain quasi-random
#'   sequences of points in evaluating multi-dimensional integrals.
#'   Numerische Mathematik 2.
#'
#'   Cranley, R. and Patterson, T. N. L. (1976). Randomization of number
#'   theoretic methods for multiple integration. SIAM Journal on Numerical
#'   Analysis 13.
#' @template ref-he2022
#' @template ref-liu2021
#' @template ref-luo2021
#' @family maps
#' @examples
#' map <- rff_map(gaussian_kernel(1), d = 3, n_features = 64, seed = 1)
#' map
#' x <- matrix(runif(30), 10)
#' relative_error(kernel_matrix(gaussian_kernel(1), x), rff_kernel_matrix(map, x))
#' @export
rff_map <- function(kernel, d, n_features, method = "iid", ...,
                    allocation = c("mass", "equal"), seed = NULL) {
  design <- map_design(kernel, d, method, ..., allocation = allocation)
  draw_map(design, check_count(n_features, "n_features"), resolve_seed(seed))
}

# Everything of a map but its size and seed, validated, with the kernel's
# prepared spec: approximation_study() draws many maps from one design.
map_design <- function(kernel, d, method = "iid", ..., allocation = c("mass", "equal")) {
  kernel <- check_has_measure(validate_kernel(kernel))
  d <- check_count(d, "d")
  method <- check_source(method, "method")
  allocation <- check_choice(allocation, c("mass", "equal"), "allocation")
  settings <- resolve_kernel_settings(kernel, list(...))
  check_kernel_dimension(kernel, d)
  spec <- kernel_with_settings(kernel, settings, d)
  check_method(kernel, spec, d, method)
  list(kernel = kernel, d = d, method = method, allocation = allocation, settings = settings, spec = spec)
}

draw_map <- function(design, n_features, seed_words) {
  d <- design$d
  block <- if (source_traits(design$method)$blocked) 2 * as.double(d) * min(d, n_features) else 0
  # beside the frequencies: each one's part (4 bytes) and phase (8)
  check_output_size(d, n_features, "the frequency matrix", extra = 8 * (block + 4 * as.double(d)) + 12 * as.double(n_features))
  sampled <- sample_frequencies(design$kernel, design$spec, d, n_features, design$method, design$allocation, seed_words)
  sampled$parts$share <- sampled$share
  structure(list(kernel = design$kernel, d = d, method = design$method, allocation = design$allocation,
                 n_features = n_features, settings = design$settings, seed = seed_words, parts = sampled$parts,
                 omega = sampled$omega, part = sampled$part, phase = sampled$phase,
                 bias_bound = c(design$spec$lp$bias_bound, design$spec$numeric$bias), format_version = format_version),
            class = map_class("rff_map"))
}

# The core's draw of a map's frequencies. They grow as 1 / sigma, and a
# length scale so small that some overflow is refused here, naming the
# kernel, rather than left to fail the next call that takes the map.
sample_frequencies <- function(kernel, spec, d, n_features, method, allocation, seed_words) {
  sampled <- core(.cpp_sample_map(spec, d, n_features, method, allocation, seed_words))
  if (!all(is.finite(sampled$omega))) {
    fail("`kernel` draws frequencies beyond the largest double: the %s has a length scale too small for double precision (frequencies grow as 1 / sigma); rescale the data and the length scale together.",
         kernel_label(kernel))
  }
  sampled
}

# The frequency sources of rff_map() and rpf_map(): the core's table of their
# `name`s and traits (`blocked`, `exact`, `independent`; sampling.h), and a
# source's row of it as a list.
source_table <- function() .cpp_frequency_sources()
frequency_sources <- function() source_table()$name
source_traits <- function(method) as.list(source_table()[source_table()$name == method, ])

check_source <- function(method, name) {
  sources <- frequency_sources()
  if (!is.character(method) || length(method) != 1L || is.na(method) || !method %in% sources) {
    fail("`%s` must be one of %s.", name, paste0('"', sources, '"', collapse = ", "))
  }
  method
}

# A source that some part of the kernel's measure (the prepared `spec` in
# dimension d) cannot take is refused before sampling.
check_method <- function(kernel, spec, d, method) {
  takes <- core(.cpp_measure_sources(spec, d))
  if (!method %in% takes) {
    fail("`method = \"%s\"` is not one the %s takes: its spectral measure takes %s.", method, kernel_label(kernel),
         paste0('"', takes, '"', collapse = ", "))
  }
  invisible(method)
}

n_frequencies <- function(map) ncol(map$omega)

# How the map's frequencies become features: "trig" (cos and sin), or the
# step, ReLU and NTK features of the dot-product kernels on the sphere.
feature_kind <- function(map) map$parts$features[1L]

#' @export
map_columns.rff_map <- function(map) core(.cpp_feature_columns(feature_kind(map), map$d, n_frequencies(map)))

#' @export
map_memory.rff_map <- function(map, rows) 8 * length(map$omega)

#' @export
check_map_data.rff_map <- function(map, x, name) {
  NextMethod()
  check_projections(x, map$omega, name)
}

#' Number of feature columns of each side of a map
#'
#' How many columns [rff_features()] (or [rpf_features()]) returns: for a map
#' of [rff_map()], two per frequency (cosine and sine), so `2 * n_features`; one per
#' frequency on the dot-product route of the arc-cosine kernels and
#' `d + 1` per frequency for the NTK. For a map of [rpf_map()], one per
#' frequency; for a map of [nystrom_map()], its rank; for maps of
#' [maclaurin_map()] and [tensor_sketch_map()], `n_features`.
#'
#' @param map A map from [rff_map()], [rpf_map()], [nystrom_map()],
#'   [maclaurin_map()] or [tensor_sketch_map()].
#' @return A named integer vector, `c(left = , right = )`.
#' @family maps
#' @examples
#' n_feature_columns(rff_map(shift_gaussian_kernel(1, 0.5), d = 3, n_features = 10, seed = 1))
#' @export
n_feature_columns <- function(map) {
  n <- map_columns(validate_map(map))
  c(left = as.integer(n), right = as.integer(n))
}

#' @export
print.rff_map <- function(x, ...) {
  x <- validate_map(x, "x")
  cat("<askrff map> ", kernel_label(x$kernel), ", d = ", x$d, "\n", sep = "")
  if (length(x$settings) > 0L) {
    cat("  settings: ", paste(names(x$settings), unlist(x$settings), sep = " = ", collapse = ", "), "\n", sep = "")
  }
  counts <- tabulate(x$part, nrow(x$parts))
  shared <- if (nrow(x$parts) == 1L) "" else
    sprintf(" (%s: %s)", if (x$allocation == "mass") "shared by mass" else "equal shares",
            paste(x$parts$part, counts, sep = " ", collapse = ", "))
  cat(sprintf("  %s frequencies: %s%s = %s features per side\n", x$method, format_count(x$n_features), shared,
              format_count(map_columns(x))))
  if (feature_kind(x) != "trig") cat("  features: ", feature_description[[feature_kind(x)]], "\n", sep = "")
  masses <- paste(sprintf("%s = %s%s", x$parts$part, format(part_masses(x), digits = 6),
                          ifelse(x$parts$exact, "", " (estimated)")), collapse = ", ")
  cat("  total masses: ", masses, "\n", sep = "")
  if (!is.null(x$bias_bound)) cat("  ", bias_bound_line(x$bias_bound, x$settings$z_max), "\n", sep = "")
  if (feature_kind(x) == "trig") {
    cat(sprintf("  error scale: each entry's standard deviation is at most %s, k(0) = %s\n",
                format(entry_sd_bound(x), digits = 3), format(kernel_at_zero(x$kernel, x$d), digits = 4)))
  }
  invisible(x)
}

# Each part contributes coefficient * mass times the mean of the cosines of
# its n_p = n share_p expected frequencies, each bounded by one, so (parts
# being sampled independently) an entry of the approximate Gram matrix has
# variance at most about sum_p (coefficient_p mass_p)^2 / (n share_p). Masses
# that grow, as exp(sigma^2 ||beta||^2 / 2) for the Sinh- and Cosh-Gaussian,
# raise it.
entry_sd_bound <- function(map) {
  shared <- map$parts$share > 0
  sqrt(sum((map$parts$coefficient * map$parts$mass)[shared]^2 / (map$n_features * map$parts$share[shared])))
}

# approximation_study()'s methods of this kind share one design, checked once.
#' @export
study_design.rff_map <- function(method, kernel, d) {
  method$design <- tryCatch(do.call(map_design, c(list(kernel = kernel, d = d), method$args), quote = TRUE),
                            askrff_error = function(e) fail("`methods$%s` is not valid: %s", method$label, conditionMessage(e)))
  method
}

#' @export
study_gram.rff_map <- function(method, kernel, x, y, n, seed, n_threads) {
  map <- draw_map(method$design, n, resolve_seed(seed))
  list(K_hat = map_gram(map, map_data(map, x, "x"), map_data(map, y, "y"), n_threads), columns = map_columns(map))
}
