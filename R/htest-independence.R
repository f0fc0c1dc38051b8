# The test of independence by the Hilbert-Schmidt independence criterion on
# random features: HSIC is the squared Frobenius norm of the D_x x D_y
# cross-covariance of the two variables' features.

#' Kernel test of independence on random features (HSIC)
#'
#' Tests whether `x` and `y` are independent by the Hilbert-Schmidt
#' independence criterion (Gretton et al. 2005, 2008) of their random
#' Fourier features: with \eqn{z_x} and \eqn{z_y} the features of the two
#' variables' kernels, HSIC is the squared Frobenius norm of their
#' cross-covariance \eqn{C_{xy}}, a \eqn{D_x \times D_y} matrix summed over
#' the rows, and the statistic is \eqn{T = n \|C_{xy}\|_F^2}. With a
#' characteristic kernel (the Gaussian, the default) HSIC is zero exactly
#' when the variables are independent, so the test sees any dependence, not
#' only a correlation; no \eqn{n \times n} matrix is formed, so it runs on
#' millions of rows (Zhang et al. 2018).
#'
#' Under independence, \eqn{\sqrt{n}\,\mathrm{vec}(C_{xy})} tends to a normal
#' vector with covariance \eqn{\Sigma_y \otimes \Sigma_x} (the features'
#' covariances), so \eqn{T} tends to \eqn{\sum_{ij} \lambda_i \mu_j
#' \chi^2_{1,ij}} with \eqn{\lambda, \mu} the eigenvalues of the two
#' covariances. The weights are scaled by \eqn{n / (n - 1)}, which makes
#' the mixture's mean equal the statistic's mean over permutations of the
#' rows exactly. `method` says how the p-value is computed:
#' * `"gamma"` (the default): the gamma distribution with the mixture's mean
#'   \eqn{\sum\lambda \sum\mu} and variance \eqn{2 \sum\lambda^2 \sum\mu^2}
#'   (Gretton et al. 2008), which needs no eigendecomposition;
#' * `"chi2_mixture"`: the mixture's upper tail by Davies' (1980) algorithm
#'   (its 500 largest weights; the others by their mean and variance),
#'   from the covariances' eigenvalues (CompQuadForm's implementation);
#' * `"permutation"`: \eqn{(1 + \#\{T_b \ge T\}) / (1 + B)} over `B`
#'   permutations of the rows of `y`, each costing \eqn{O(n D_x D_y)} on
#'   the threads, from the features held in memory (\eqn{n (D_x + D_y)}
#'   doubles); exact in size for any `B`, for data in memory only.
#'
#' **Joint independence** of three or more variables, given as a list `x`
#' (and `y = NULL`), is tested by dHSIC (Pfister et al. 2018): with \eqn{F}
#' frequencies drawn for each variable's kernel, the products of the
#' variables' complex features \eqn{\prod_j e^{i w_{jf}'x_j}} are the
#' features of the product kernel at \eqn{F} joint frequencies, and
#' \eqn{F^{d-1} \sum_f |\overline{\prod_j \zeta_j} - \prod_j
#' \bar\zeta_j|^2} estimates dHSIC; its null is taken from `B`
#' permutations of every variable's rows but the first (each \eqn{O(n F d)}),
#' so `method` must be `"permutation"` (the default for a list), and each
#' kernel must have one spectral part. A list of two variables is the test
#' of `x[[1]]` and `x[[2]]`.
#'
#' A kernel given by name (the default `"gaussian"`) gets its length scale
#' from the data by the median heuristic of the kernel tests (Gretton et
#' al. 2008, Pfister et al. 2018): the median distance between rows of the
#' variable, after standardizing its columns, over \eqn{\sqrt 2}, so that
#' the Gaussian is \eqn{\exp(-d^2 / \mathrm{median}(d^2))} (in the units
#' of [kernel_scale], a scale of \eqn{1/\sqrt 2}); the kernels used are in
#' the result. Factors and logicals enter as one indicator column per level,
#' as in the models' formulas; rows with a missing value in either variable
#' are dropped.
#'
#' @param x,y The two variables, with one row (or entry) per observation
#'   each: numeric vectors, matrices or data frames (whose factors,
#'   characters and logicals enter as indicators of their levels). Or `x` a
#'   chunk source (a list of chunks or a function returning the next chunk
#'   and `NULL` at the end, as in [rff_ridge()]) whose chunks are
#'   `list(x = , y = )` of numeric matrices, and `y` `NULL`: the sums are
#'   then accumulated a chunk at a time (the kernels' scales come from the
#'   first chunk, unstandardized). Or `x` a list of three or more
#'   variables (and `y` `NULL`) for a test of their joint independence.
#' @param kernel_x,kernel_y Each variable's kernel (for a list `x`,
#'   `kernel_x` is one kernel for all or a list of one per variable): a name (`"gaussian"`,
#'   `"laplace"`, `"exponential"`; `NULL` is `"gaussian"`), whose length
#'   scale is the median heuristic above; a kernel object with a positive spectral
#'   measure, used as given; or a map of [rff_map()] for the variable's
#'   columns.
#' @param n_features Frequencies of each variable's map (each gives two
#'   feature columns, so \eqn{D = 2} `n_features`).
#' @param method `"gamma"`, `"chi2_mixture"` or `"permutation"`: see
#'   Details.
#' @param B The number of permutations for `method = "permutation"`.
#' @param seed `NULL` (draw from R's generator, so [set.seed()] reproduces
#'   the test) or a whole number, from which the maps, the median's
#'   subsample and the permutations are drawn.
#' @param standardize Whether to scale each variable's columns to mean 0 and
#'   variance 1 before the map; `NULL`: for kernels by name only.
#' @inheritParams rff_features
#' @return An object of class `"htest"`: `statistic` (\eqn{n}HSIC),
#'   `parameter` (the rows and each variable's feature columns), `p.value`,
#'   `estimate` (HSIC), `method`, `data.name`, and `kernels`, the two kernels
#'   used.
#' @references Gretton, A., Bousquet, O., Smola, A. and Schölkopf, B. (2005).
#'   Measuring statistical dependence with Hilbert-Schmidt norms.
#'   Algorithmic Learning Theory (ALT 2005).
#'
#'   Gretton, A., Fukumizu, K., Teo, C. H., Song, L., Schölkopf, B. and
#'   Smola, A. J. (2008). A kernel statistical test of independence.
#'   Advances in Neural Information Processing Systems 20.
#'
#'   Zhang, Q., Filippi, S., Gretton, A. and Sejdinovic, D. (2018).
#'   Large-scale kernel methods for independence testing. Statistics and
#'   Computing 28, 113-130.
#'
#'   Pfister, N., Bühlmann, P., Schölkopf, B. and Peters, J. (2018). Kernel-based
#'   tests for joint independence. Journal of the Royal Statistical Society
#'   B 80, 5-31.
#'
#'   Davies, R. B. (1980). Algorithm AS 155: the distribution of a linear
#'   combination of chi-squared random variables. Applied Statistics 29,
#'   323-333.
#' @family kernel tests
#' @examples
#' set.seed(1)
#' x <- runif(500, -1, 1)
#' y <- cos(4 * x) + rnorm(500, sd = 0.3)
#' cor.test(x, y)$p.value            # no linear dependence to see
#' rff_independence_test(x, y, seed = 1)
#' @export
rff_independence_test <- function(x, y = NULL, kernel_x = NULL, kernel_y = NULL, n_features = 100,
                                  method = c("gamma", "chi2_mixture", "permutation"), B = 1000, seed = NULL,
                                  standardize = NULL, n_threads = NULL) {
  data_name <- paste(deparse1(substitute(x)), "and", deparse1(substitute(y)))
  method_given <- !missing(method)
  method <- check_test_method(method)
  n_features <- check_count(n_features, "n_features", max = 1e5)
  B <- check_permutations(B)
  n_threads <- resolve_threads(n_threads)
  if (is.null(y) && is_variable_list(x)) {
    if (length(x) < 2L) fail("`x` must hold at least two variables when `y` is NULL.")
    if (length(x) == 2L) {
      return(rff_independence_test(x[[1L]], x[[2L]], kernel_x, kernel_y, n_features, method, B, seed, standardize,
                                   n_threads))
    }
    if (method_given && method != "permutation") {
      fail("`method` must be \"permutation\" for three or more variables: dHSIC's null is taken from permutations.")
    }
    if (!is.null(kernel_y)) fail("`kernel_y` must be NULL for three or more variables; give their kernels in `kernel_x`.")
    return(joint_independence_test(x, kernel_x, n_features, B, test_seeds(seed, length(x) + 1L), standardize,
                                   n_threads, deparse1(substitute(x))))
  }
  seeds <- test_seeds(seed, 3L)
  streamed <- test_streams(x, y, method)
  if (streamed) data_name <- sprintf("the chunks of %s", deparse1(substitute(x)))
  sums <- if (streamed) {
    streamed_independence_sums(x, kernel_x, kernel_y, n_features, seeds, standardize, n_threads)
  } else {
    independence_sums(x, y, kernel_x, kernel_y, n_features, seeds, standardize, n_threads)
  }
  parts <- list(sums$x$map, sums$y$map)
  moments <- feature_moments(sums$sums, sums$shift)
  ix <- feature_block(parts, 1L)
  iy <- feature_block(parts, 2L)
  n <- moments$n
  statistic <- n * sum(moments$covariance[ix, iy]^2)
  p_value <- if (method == "permutation") {
    zx <- centered_features(sums$x$map, sums$x$x, moments$mean[ix], n_threads, "The features of `x` for the permutations")
    zy <- centered_features(sums$y$map, sums$y$x, moments$mean[iy], n_threads, "The features of `y` for the permutations")
    permuted <- core(.cpp_permuted_cross_norms(zx, zy, resolve_seed(seeds[3L]), B, n_threads)) / n
    permutation_p_value(statistic, permuted)
  } else {
    kronecker_p_value(statistic, moments$covariance[ix, ix], moments$covariance[iy, iy], n, method)
  }
  test_result("HSIC test of independence", c(nHSIC = statistic), p_value, c(HSIC = statistic / n),
              c(n = n, "features x" = length(ix), "features y" = length(iy)), method, B, data_name,
              list(x = sums$x, y = sums$y), sums$dropped)
}

# The p-value of n ||C_xy||^2 under the mixture with weights
# lambda_i mu_j n / (n - 1), from the two covariances.
kronecker_p_value <- function(statistic, cxx, cyy, n, method) {
  factor <- n / (n - 1)
  if (method == "gamma") {
    return(mixture_p_value(statistic, method, power_sums = c(factor * sum(diag(cxx)) * sum(diag(cyy)),
                                                             factor^2 * sum(cxx^2) * sum(cyy^2))))
  }
  weights <- factor * as.vector(outer(covariance_eigenvalues(cxx), covariance_eigenvalues(cyy)))
  mixture_p_value(statistic, method, weights)
}

# The sums of two variables in memory: their maps and standardized rows.
independence_sums <- function(x, y, kernel_x, kernel_y, n_features, seeds, standardize, n_threads) {
  variables <- test_variables(list(x = x, y = y))
  vx <- test_map(kernel_x, variables$x, n_features, seeds[1L], standardize, "kernel_x")
  vy <- test_map(kernel_y, variables$y, n_features, seeds[2L], standardize, "kernel_y")
  parts <- list(vx$map, vy$map)
  data <- cbind(vx$x, vy$x)
  shift <- feature_shift(parts, data, n_threads)
  list(x = vx, y = vy, shift = shift, sums = feature_sums(parts, data, shift, n_threads), dropped = attr(variables, "dropped"),
       xlevels = lapply(variables, attr, "xlevels"))
}

# The same sums a chunk at a time: the maps drawn for the first chunk's rows.
streamed_independence_sums <- function(source, kernel_x, kernel_y, n_features, seeds, standardize, n_threads) {
  check_streamed_standardize(standardize)
  reader <- chunk_reader(source, "x")
  maps <- NULL
  shift <- NULL
  total <- NULL
  repeat {
    item <- reader()
    if (is.null(item)) break
    chunk <- check_test_chunk(item$chunk, item$index, c("x", "y"),
                              if (!is.null(maps)) c(x = maps$x$map$d, y = maps$y$map$d))
    if (is.null(maps)) {
      maps <- list(x = test_map(kernel_x, chunk$x, n_features, seeds[1L], FALSE, "kernel_x"),
                   y = test_map(kernel_y, chunk$y, n_features, seeds[2L], FALSE, "kernel_y"))
      maps$x$x <- maps$y$x <- NULL
      shift <- feature_shift(list(maps$x$map, maps$y$map), cbind(chunk$x, chunk$y), n_threads)
    }
    total <- add_feature_sums(total, feature_sums(list(maps$x$map, maps$y$map), cbind(chunk$x, chunk$y), shift,
                                                  n_threads))
  }
  if (is.null(total) || total$n < min_test_rows) fail("The chunks of `x` must hold at least %d rows.", min_test_rows)
  list(x = maps$x, y = maps$y, shift = shift, sums = total, dropped = 0)
}
