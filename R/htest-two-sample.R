# The two-sample test by the maximum mean discrepancy on random features:
# the MMD is the distance between the two samples' mean feature vectors.

#' Kernel two-sample test on random features (MMD)
#'
#' Tests whether `x` and `y` are samples of one distribution by the maximum
#' mean discrepancy (Gretton et al. 2012) of their random Fourier features:
#' with \eqn{\bar z_x} and \eqn{\bar z_y} the samples' mean feature vectors
#' under one map, \eqn{\mathrm{MMD}^2 = \|\bar z_x - \bar z_y\|^2} and the
#' statistic is \eqn{T = \frac{n_x n_y}{n_x + n_y} \mathrm{MMD}^2}. With a
#' characteristic kernel (the Gaussian, the default) the MMD is zero
#' exactly when the distributions are equal; the cost is one pass over the
#' rows, \eqn{O(n D^2)}, and no \eqn{n \times n} matrix is formed.
#'
#' Under the null hypothesis \eqn{T} tends to \eqn{\sum_j \lambda_j
#' \chi^2_{1,j}}, \eqn{\lambda} the eigenvalues of the pooled features'
#' covariance, taken with divisor \eqn{n - 1}: the mixture's mean is then
#' the statistic's mean over permutations of the samples' labels exactly.
#' `method = "gamma"` matches its mean and variance, `"chi2_mixture"`
#' computes its tail (Davies 1980), `"permutation"` relabels the pooled
#' rows `B` times (each \eqn{O(n D)}, on the threads, from the features
#' held in memory). See [rff_independence_test()] for the kernels, the
#' data and the seeds.
#'
#' @param x,y The two samples, with the same columns: numeric vectors,
#'   matrices or data frames (factors enter as indicators of the levels of
#'   both samples together). Or `x` a chunk source whose chunks are
#'   `list(x = , y = )`, either of which may be `NULL` (rows of the first
#'   sample, of the second), and `y` `NULL`.
#' @param kernel The kernel of both samples (see `kernel_x` of
#'   [rff_independence_test()]); a kernel by name gets the median heuristic
#'   of the pooled rows.
#' @inheritParams rff_independence_test
#' @return An object of class `"htest"`: `statistic`, `parameter` (the two
#'   samples' rows and the feature columns), `p.value`, `estimate` (the
#'   squared MMD), `method`, `data.name` and `kernels`.
#' @references Gretton, A., Borgwardt, K. M., Rasch, M. J., Schölkopf, B.
#'   and Smola, A. (2012). A kernel two-sample test. Journal of Machine
#'   Learning Research 13, 723-773.
#'
#'   Zhao, J. and Meng, D. (2015). FastMMD: ensemble of circular discrepancy
#'   for efficient two-sample test. Neural Computation 27, 1345-1372.
#' @family kernel tests
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(1000), ncol = 2)
#' y <- cbind(rnorm(500), rnorm(500, sd = 1.5))   # same means, other spread
#' t.test(x[, 2], y[, 2])$p.value
#' rff_two_sample_test(x, y, seed = 1)
#' @export
rff_two_sample_test <- function(x, y = NULL, kernel = NULL, n_features = 100,
                                method = c("gamma", "chi2_mixture", "permutation"), B = 1000, seed = NULL,
                                standardize = NULL, n_threads = NULL) {
  data_name <- paste(deparse1(substitute(x)), "and", deparse1(substitute(y)))
  method <- check_test_method(method)
  n_features <- check_count(n_features, "n_features", max = 1e5)
  B <- check_permutations(B)
  n_threads <- resolve_threads(n_threads)
  seeds <- test_seeds(seed, 2L)
  streamed <- test_streams(x, y, method)
  if (streamed) data_name <- sprintf("the chunks of %s", deparse1(substitute(x)))
  sums <- if (streamed) {
    streamed_sample_sums(x, kernel, n_features, seeds[1L], standardize, n_threads)
  } else {
    sample_sums(x, y, kernel, n_features, seeds[1L], standardize, n_threads)
  }
  n1 <- sums$x$n
  n2 <- sums$y$n
  if (n1 < 2 || n2 < 2) fail("Each sample must have at least 2 complete rows; they have %d and %d.", n1, n2)
  pooled <- feature_moments(add_feature_sums(sums$x, sums$y), sums$shift)
  n <- n1 + n2
  mmd2 <- sum((sums$x$sum / n1 - sums$y$sum / n2)^2)
  statistic <- n1 * n2 / n * mmd2
  covariance <- pooled$covariance * n / (n - 1)
  p_value <- if (method == "permutation") {
    z <- centered_features(sums$variable$map, sums$rows, pooled$mean, n_threads,
                           "The pooled features for the permutations")
    permuted <- core(.cpp_permuted_mean_distances(z, n1, resolve_seed(seeds[2L]), B, n_threads)) * n1 * n2 / n
    permutation_p_value(statistic, permuted)
  } else if (method == "gamma") {
    mixture_p_value(statistic, method, power_sums = c(sum(diag(covariance)), sum(covariance^2)))
  } else {
    mixture_p_value(statistic, method, covariance_eigenvalues(covariance))
  }
  test_result("MMD two-sample test", c(T = statistic), p_value, c("MMD^2" = mmd2),
              c("n x" = n1, "n y" = n2, features = length(pooled$mean)), method, B, data_name,
              list(pooled = sums$variable), sums$dropped)
}

# The two samples' sums in memory under one map of the pooled rows (the
# sample's rows first, `rows`, kept for the permutations).
sample_sums <- function(x, y, kernel, n_features, seed, standardize, n_threads) as_condition_class("data", {
  pooled <- pool_samples(x, y)
  variables <- test_variables(list(x = pooled$rows))
  group <- pooled$group[attr(variables, "complete")]
  variable <- test_map(kernel, variables$x, n_features, seed, standardize, "kernel")
  parts <- list(variable$map)
  shift <- feature_shift(parts, variable$x, n_threads)
  of_group <- function(g) {
    rows <- variable$x[group == g, , drop = FALSE]
    if (nrow(rows) == 0L) return(list(n = 0, sum = 0, cross = 0))
    feature_sums(parts, rows, shift, n_threads)
  }
  list(x = of_group(1L), y = of_group(2L), shift = shift, variable = variable,
       rows = variable$x[order(group), , drop = FALSE], dropped = attr(variables, "dropped"))
})

# The two samples' rows stacked (data frames by rbind(), so that factors
# take the levels of both), and which sample each row is of.
pool_samples <- function(x, y) {
  if (is.null(y)) fail("`y` must be the second sample (or `x` a chunk source).")
  if (is.data.frame(x) != is.data.frame(y)) fail("`x` and `y` must both be data frames, or neither.")
  count <- function(v) if (is.null(dim(v))) length(v) else nrow(v)
  group <- rep(1:2, c(count(x), count(y)))
  if (is.data.frame(x)) {
    if (!identical(sort(names(x)), sort(names(y)))) fail("`x` and `y` must have the same columns.")
    return(list(rows = rbind(x, y[names(x)]), group = group))
  }
  columns <- function(v) if (is.null(dim(v))) 1L else ncol(v)
  if (columns(x) != columns(y)) fail("`x` and `y` must have the same number of columns; they have %d and %d.",
                                     columns(x), columns(y))
  rows <- if (is.null(dim(x)) && !is.factor(x) && !is.factor(y)) c(x, y) else if (is.factor(x) || is.factor(y)) {
    factor(c(as.character(x), as.character(y)))
  } else {
    rbind(x, y)
  }
  list(rows = rows, group = group)
}

# The same sums a chunk at a time: the map drawn for the first chunk's rows.
streamed_sample_sums <- function(source, kernel, n_features, seed, standardize, n_threads) {
  check_streamed_standardize(standardize)
  reader <- chunk_reader(source, "x")
  variable <- NULL
  shift <- NULL
  totals <- list(x = NULL, y = NULL)
  repeat {
    item <- reader()
    if (is.null(item)) break
    chunk <- item$chunk
    fields <- if (is.list(chunk) && !is.data.frame(chunk)) intersect(c("x", "y"), names(Filter(Negate(is.null), chunk))) else character()
    if (length(fields) == 0L) fail("chunk %d of `x` must be a list with `x` or `y` (or both).", item$index, class = "data")
    chunk <- check_test_chunk(chunk, item$index, fields, NULL)
    if (!is.null(variable)) {
      for (field in fields) {
        if (ncol(chunk[[field]]) != variable$map$d) {
          fail("chunk %d of `x`: `%s` must have %d columns, not %d.", item$index, field, variable$map$d,
               ncol(chunk[[field]]), class = "data")
        }
      }
    }
    if (is.null(variable)) {
      first <- do.call(rbind, unname(chunk[fields]))
      variable <- test_map(kernel, first, n_features, seed, FALSE, "kernel")
      variable$x <- NULL
      shift <- feature_shift(list(variable$map), first, n_threads)
    }
    for (field in fields) {
      totals[[field]] <- add_feature_sums(totals[[field]], feature_sums(list(variable$map), chunk[[field]], shift, n_threads))
    }
  }
  empty <- list(n = 0, sum = 0, cross = 0)
  list(x = if (is.null(totals$x)) empty else totals$x, y = if (is.null(totals$y)) empty else totals$y,
       shift = shift, variable = variable, dropped = 0)
}
