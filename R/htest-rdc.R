#' Randomized dependence coefficient and its test
#'
#' The randomized dependence coefficient (RDC) of Lopez-Paz, Hennig and
#' Schölkopf (2013): the largest canonical correlation between random
#' features of the two variables' copula transforms. Each column is replaced
#' by its empirical distribution function (its ranks over n), which makes the
#' coefficient invariant to monotone transformations of each variable; the
#' features are random Fourier features of a Gaussian kernel on those
#' values; and the canonical correlations \eqn{\rho_1 \ge \rho_2 \ge \dots}
#' of the two feature blocks are the singular values of \eqn{C_{xx}^{-1/2}
#' C_{xy} C_{yy}^{-1/2}}, from their covariances summed in one pass. The RDC
#' is \eqn{\rho_1}: 0 for independent variables as the features grow, 1 when
#' one is a function of the other that the features can express.
#'
#' **The test** is Bartlett's chi-square approximation to the likelihood
#' ratio of canonical correlation analysis, as Lopez-Paz et al. take it:
#' under independence \eqn{-(n - (p + q + 3)/2) \sum_i \log(1 - \rho_i^2)}
#' is about chi-square with \eqn{p q} degrees of freedom, \eqn{p} and
#' \eqn{q} the numbers of feature directions [stats::cancor()] keeps (the
#' features' numerical rank: random features of a smooth kernel on
#' \eqn{[0, 1]} are nearly collinear, which cancor's QR decomposition
#' handles). On 200 replicates of independent normal pairs at n = 300 it
#' rejected at the 5 % level 5.5 % of the time.
#'
#' **Defaults.** Lopez-Paz et al. draw 20 sine features with frequencies of
#' variance 1/6 on the copula scale: here `n_features = 10` frequencies give
#' 20 columns (cosine and sine), for the Gaussian kernel with
#' \eqn{\sigma = \sqrt 6}, `gaussian_kernel(sqrt(6))`. `kernel_x` and
#' `kernel_y` may give other kernels with a positive spectral measure, or
#' maps of [rff_map()] for the variables' columns.
#'
#' @param x,y The two variables: numeric vectors, matrices or data frames
#'   (factors, characters and logicals become indicator columns) with one
#'   row per observation; rows with a missing value in either are dropped.
#' @param kernel_x,kernel_y `NULL` (the Gaussian kernel with \eqn{\sigma =
#'   \sqrt 6}), a kernel object with a positive spectral measure, or a map
#'   of [rff_map()].
#' @param n_features The number of frequencies of each variable's map
#'   (default 10, 20 feature columns).
#' @param seed `NULL` (R's random number generator, so [set.seed()] makes
#'   the test reproducible) or a whole number.
#' @param n_threads The number of threads (default: all but one).
#' @return An object of class `"htest"`: `statistic` (Bartlett's
#'   chi-square), `parameter` (its degrees of freedom, and n, the complete
#'   rows), `p.value`,
#'   `estimate` (the RDC), `method`, `data.name`, and `kernels` and
#'   `correlations` (all the canonical correlations).
#' @references Lopez-Paz, D., Hennig, P. and Schölkopf, B. (2013). The
#'   randomized dependence coefficient. *Advances in Neural Information
#'   Processing Systems* 26.
#'
#'   Bartlett, M. S. (1939). A note on tests of significance in multivariate
#'   analysis. *Proceedings of the Cambridge Philosophical Society* 35,
#'   180-185.
#' @family kernel tests
#' @examples
#' set.seed(1)
#' x <- runif(500, -1, 1)
#' y <- cos(4 * x) + rnorm(500, sd = 0.3)
#' cor.test(x, y)$p.value            # no linear dependence to see
#' rff_rdc(x, y, seed = 1)
#' rff_rdc(x, rnorm(500), seed = 1)$p.value
#' @export
rff_rdc <- function(x, y, kernel_x = NULL, kernel_y = NULL, n_features = 10, seed = NULL, n_threads = NULL) {
  data_name <- paste(deparse1(substitute(x)), "and", deparse1(substitute(y)))
  n_features <- check_count(n_features, "n_features", max = 1e5)
  n_threads <- resolve_threads(n_threads)
  seeds <- test_seeds(seed, 2L)
  variables <- test_variables(list(x = x, y = y))
  copulas <- lapply(variables, function(v) apply(v, 2L, function(column) rank(column, ties.method = "max")) / nrow(v))
  for (arg in names(copulas)) {
    if (all(copulas[[arg]] == 1)) fail("`%s` has one value in all its complete rows: it has no dependence to measure.", arg)
  }
  vx <- rdc_map(kernel_x, copulas$x, n_features, seeds[1L], "kernel_x")
  vy <- rdc_map(kernel_y, copulas$y, n_features, seeds[2L], "kernel_y")
  # QR-based canonical correlations: random features of smooth kernels on
  # [0, 1] are nearly collinear, and cancor() keeps the directions of its
  # numerical rank where a Cholesky factor of their covariance would fail
  analysis <- stats::cancor(rff_features(vx$map, vx$x, n_threads = n_threads),
                            rff_features(vy$map, vy$x, n_threads = n_threads))
  rho <- pmin(analysis$cor, 1)
  n <- nrow(vx$x)
  p <- nrow(analysis$xcoef)
  q <- nrow(analysis$ycoef)
  if (n <= (p + q + 3) / 2) {
    fail("Bartlett's approximation needs more than (p + q + 3) / 2 = %g rows for the %d and %d feature directions kept; the variables have %d complete rows.",
         (p + q + 3) / 2, p, q, n, class = "data")
  }
  statistic <- -(n - (p + q + 3) / 2) * sum(log1p(-rho^2))
  df <- p * q
  result <- test_result("RDC test of independence", c("Bartlett's X-squared" = statistic),
                        stats::pchisq(statistic, df, lower.tail = FALSE), c(RDC = rho[1L]),
                        c(df = as.double(df), n = as.double(n)), "bartlett", 0, data_name, list(x = vx, y = vy),
                        attr(variables, "dropped"))
  result$correlations <- rho
  result
}

# A variable's map on its copula values: the kernel (NULL for Lopez-Paz et
# al.'s sigma = sqrt(6)) checked positive, or a map for its columns.
rdc_map <- function(kernel, u, n_features, seed, arg) {
  if (is.null(kernel)) kernel <- gaussian_kernel(sqrt(6))
  if (!inherits(kernel, "askrff_map") && !inherits(kernel, "askrff_kernel")) {
    fail("`%s` must be NULL, a kernel object or a map of rff_map().", arg)
  }
  test_map(kernel, u, n_features, seed, FALSE, arg)
}
