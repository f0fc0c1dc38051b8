# The test of conditional independence in the manner of RCoT (Strobl, Zhang
# and Visweswaran 2019): the features of x and of y, each residualized on
# the features of z by ridge regression, and the HSIC of the residuals,
# whose null is the chi-square mixture of their products' covariance.

#' Kernel test of conditional independence on random features
#'
#' Tests whether `x` and `y` are independent given `z`, as the randomized
#' conditional correlation test (RCoT) of Strobl, Zhang and Visweswaran
#' (2019) does: the random features of `x` and of `y` (few: `n_features`
#' frequencies each) are regressed on those of `z` (`n_features_z`
#' frequencies) by ridge regression, [rff_ridge()] with one penalty for
#' both sides chosen by generalized cross-validation, the rotation-invariant
#' form of leave-one-out (Golub, Heath and Wahba 1979), and by default the
#' length scale of z's kernel too (GCV gave the same size as exact
#' leave-one-out in our simulations, in a quarter of the time: leave-one-out
#' costs a pass per response and penalty); the
#' statistic is \eqn{T = n \|C\|_F^2} with \eqn{C} the cross-covariance of
#' the two residual feature vectors. If x and y are conditionally
#' independent, and the regression captures how each depends on z, the
#' products \eqn{u_i = r_{x,i} \otimes r_{y,i}} have mean 0, and \eqn{T}
#' tends to \eqn{\sum_k \lambda_k \chi^2_{1,k}} with \eqn{\lambda} the
#' eigenvalues of their covariance (\eqn{D_x D_y} of them, 100 by
#' default). Estimating that covariance from the products themselves, not
#' as the product of the two sides' covariances, keeps the size where the
#' residuals' spread still depends on z. With `z = NULL` the residuals are
#' the centered features, and the test is one of independence with the same
#' null.
#'
#' All of it is passes over the rows (the regression's, then the products'
#' covariance), \eqn{O(n D_z^2)}, and no \eqn{n \times n} matrix. The
#' size holds when the regression captures how each side's features depend
#' on z: a dependence on z that the features of z cannot follow (high
#' frequencies, several coordinates of z with few rows) stays in both
#' residuals, and the test then rejects too often, as every test of this
#' kind does (Shah and Peters 2020). The kernels, the data and the seeds are as in
#' [rff_independence_test()].
#'
#' @param x,y,z The variables, one row (or entry) per observation: numeric
#'   vectors, matrices or data frames (factors enter as indicators); `z` may
#'   be `NULL`. Or `x` a list of chunks `list(x = , y = , z = )` of numeric
#'   matrices (with `y` and `z` `NULL`): each pass reads every chunk.
#' @param kernel_x,kernel_y,kernel_z Each variable's kernel: see
#'   [rff_independence_test()].
#' @param n_features Frequencies of the maps of `x` and of `y`: the null has
#'   \eqn{(2 \cdot} `n_features`\eqn{)^2} weights.
#' @param n_features_z Frequencies of the map of `z`.
#' @param scale_z For a kernel of `z` by name: `"search"` (the default)
#'   chooses its length scale by the same criterion as the penalty, as
#'   [rff_ridge()] does by default; `"median"` takes the tests' median
#'   heuristic (see [rff_independence_test()]), as RCoT does, which is
#'   faster (no search) but leaves more of the
#'   dependence on z in the residuals where it is far from linear, and then
#'   rejects too often.
#' @param method `"chi2_mixture"` (the default: the mixture's tail by
#'   Davies' algorithm) or `"gamma"` (its mean and variance).
#' @inheritParams rff_independence_test
#' @return An object of class `"htest"`: `statistic`, `parameter` (the rows
#'   and the feature columns of x, y and z), `p.value`, `estimate` (the
#'   residuals' HSIC), `method`, `data.name`, `kernels`, and with `z`,
#'   `lambda`, the two ridge penalties.
#' @references Strobl, E. V., Zhang, K. and Visweswaran, S. (2019).
#'   Approximate kernel-based conditional independence tests for fast
#'   non-parametric causal discovery. Journal of Causal Inference 7,
#'   20180017.
#'
#'   Shah, R. D. and Peters, J. (2020). The hardness of conditional
#'   independence testing and the generalised covariance measure. Annals of
#'   Statistics 48, 1514-1538.
#'
#'   Golub, G. H., Heath, M. and Wahba, G. (1979). Generalized
#'   cross-validation as a method for choosing a good ridge parameter.
#'   Technometrics 21, 215-223.
#'
#'   Zhang, K., Peters, J., Janzing, D. and Schölkopf, B. (2011).
#'   Kernel-based conditional independence test and application in causal
#'   discovery. Uncertainty in Artificial Intelligence (UAI 2011).
#' @family kernel tests
#' @examples
#' set.seed(1)
#' z <- rnorm(1000)
#' x <- sin(2 * z) + rnorm(1000, sd = 0.3)
#' y <- cos(2 * z) + rnorm(1000, sd = 0.3)
#' rff_independence_test(x, y, seed = 1)$p.value   # dependent through z
#' rff_ci_test(x, y, z, seed = 1)                   # but not given z
#' @export
rff_ci_test <- function(x, y = NULL, z = NULL, kernel_x = NULL, kernel_y = NULL, kernel_z = NULL, n_features = 5,
                        n_features_z = 100, scale_z = c("search", "median"), method = c("chi2_mixture", "gamma"),
                        seed = NULL, standardize = NULL, n_threads = NULL) {
  data_name <- sprintf("%s and %s given %s", deparse1(substitute(x)), deparse1(substitute(y)), deparse1(substitute(z)))
  method <- check_choice(method, c("chi2_mixture", "gamma"), "method")
  scale_z <- check_choice(scale_z, c("search", "median"), "scale_z")
  if (is.null(x)) fail("`x` must be given: a variable, or a list of chunks.")
  check_test_kernel(kernel_z, "kernel_z")
  n_features <- check_count(n_features, "n_features", max = 1e4)
  n_features_z <- check_count(n_features_z, "n_features_z", max = 1e5)
  n_threads <- resolve_threads(n_threads)
  seeds <- test_seeds(seed, 3L)
  kernels <- list(x = kernel_x, y = kernel_y)
  data <- if (is_test_chunk_source(x)) {
    if (is.function(x)) fail("`x` must be a list of chunks, which each of the test's passes reads again, not a function.")
    if (!is.null(y) || !is.null(z)) fail("`y` and `z` must be NULL when `x` is a list of chunks; each chunk carries its own.")
    data_name <- sprintf("the chunks of %s", deparse1(substitute(x)))
    ci_chunks(x, kernels, n_features, seeds, standardize)
  } else {
    ci_in_memory(x, y, z, kernels, n_features, seeds, standardize)
  }
  maps <- lapply(data$variables, function(v) v$map)
  features <- function(chunk) {
    cbind(rff_features(maps$x, chunk$x, n_threads = n_threads), rff_features(maps$y, chunk$y, n_threads = n_threads))
  }
  has_z <- !is.null(data$chunks[[1L]]$z)
  regression <- if (has_z) {
    ci_regression(data$chunks, features, kernel_z, n_features_z, scale_z, seeds[3L], data$standardize, n_threads)
  } else {
    ci_means(data$chunks, features, n_threads)
  }
  dx <- 2L * ncol(maps$x$omega)
  products <- Reduce(add_feature_sums, lapply(data$chunks, function(chunk) {
    residuals <- features(chunk) - regression$fitted(chunk)
    u <- residual_products(residuals[, seq_len(dx), drop = FALSE], residuals[, -seq_len(dx), drop = FALSE])
    feature_sums(list(ncol(u)), u, rep(0, ncol(u)), n_threads)
  }))
  n <- products$n
  moments <- feature_moments(products, rep(0, ncol(products$cross)))
  statistic <- n * sum(moments$mean^2)
  covariance <- moments$covariance * n / (n - 1)
  p_value <- if (method == "gamma") {
    mixture_p_value(statistic, method, power_sums = c(sum(diag(covariance)), sum(covariance^2)))
  } else {
    mixture_p_value(statistic, method, covariance_eigenvalues(covariance))
  }
  variables <- data$variables
  widths <- c(x = dx, y = 2 * ncol(maps$y$omega))
  if (has_z) {
    variables$z <- list(map = regression$fit$map, by_name = FALSE)
    widths <- c(widths, z = 2 * ncol(regression$fit$map$omega))
  }
  result <- test_result("RCoT test of conditional independence", c(nHSIC = statistic), p_value,
                        c(HSIC = statistic / n), c(n = n, stats::setNames(widths, paste("features", names(widths)))),
                        method, 0, data_name, variables, data$dropped)
  if (has_z) result$lambda <- regression$fit$lambda
  result
}

# The variables in memory as one chunk, x and y standardized for kernels by
# name, with the maps of x and y (z's is the regression's).
ci_in_memory <- function(x, y, z, kernels, n_features, seeds, standardize) {
  if (is.null(y)) fail("`y` must be given (or `x` a list of chunks).")
  variables <- test_variables(Filter(Negate(is.null), list(x = x, y = y, z = z)))
  chosen <- Map(function(name, seed) test_map(kernels[[name]], variables[[name]], n_features, seed, standardize,
                                              paste0("kernel_", name)),
                c("x", "y"), seeds[1:2])
  chunk <- list(x = chosen$x$x, y = chosen$y$x, z = variables$z)
  list(chunks = list(chunk), standardize = standardize, variables = lapply(chosen, function(v) {
    v$x <- NULL
    v
  }), dropped = attr(variables, "dropped"))
}

# A list of chunks, checked, with the maps of x and y drawn for the first
# one's rows.
ci_chunks <- function(source, kernels, n_features, seeds, standardize) {
  check_streamed_standardize(standardize)
  fields <- if (is.list(source[[1L]]) && !is.null(source[[1L]]$z)) c("x", "y", "z") else c("x", "y")
  columns <- NULL  # each field's columns, from the first chunk on
  chunks <- lapply(seq_along(source), function(i) {
    chunk <- check_test_chunk(source[[i]], i, fields, columns)
    if (is.null(columns)) columns <<- vapply(chunk, ncol, 0L)
    chunk
  })
  variables <- Map(function(name, seed) {
    v <- test_map(kernels[[name]], chunks[[1L]][[name]], n_features, seed, FALSE, paste0("kernel_", name))
    v$x <- NULL
    v
  }, c("x", "y"), seeds[1:2])
  list(chunks = chunks, variables = variables, dropped = 0, standardize = FALSE)
}

# The ridge regression of the x and y features on z's (rff_ridge(): one
# penalty for both by GCV; with scale_z = "search" and a
# kernel by name, the length scale too), and its fitted values for a chunk.
ci_regression <- function(chunks, features, kernel_z, n_features_z, scale_z, seed, standardize, n_threads) {
  by_name <- kernel_by_name(kernel_z)
  map_z <- if (inherits(kernel_z, "askrff_map")) kernel_z
  kernel <- if (is.null(map_z)) kernel_z
  scale <- if (by_name && scale_z == "median") test_scale
  fit <- if (length(chunks) == 1L) {
    rff_ridge(chunks[[1L]]$z, features(chunks[[1L]]), map = map_z, kernel = kernel, n_features = n_features_z,
              seed = seed, standardize = if (by_name) standardize, criterion = "gcv", scale = scale,
              n_threads = n_threads, shared_lambda = TRUE)
  } else {
    source <- lapply(chunks, function(chunk) list(x = chunk$z, y = features(chunk)))
    rff_ridge(source, map = map_z, kernel = kernel, n_features = n_features_z, seed = seed, criterion = "gcv",
              scale = scale, n_threads = n_threads, shared_lambda = TRUE)
  }
  list(fit = fit, fitted = function(chunk) stats::predict(fit, chunk$z, n_threads = n_threads))
}

# Without z: the features' means, which the residuals are taken from.
ci_means <- function(chunks, features, n_threads) {
  sums <- Reduce(function(a, b) list(n = a$n + b$n, sum = a$sum + b$sum),
                 lapply(chunks, function(chunk) {
                   f <- features(chunk)
                   list(n = nrow(f), sum = colSums(f))
                 }))
  mean <- sums$sum / sums$n
  list(fitted = function(chunk) matrix(mean, nrow(chunk$x), length(mean), byrow = TRUE))
}

# Each row's products r_x r_y' as one row of D_x D_y columns.
residual_products <- function(rx, ry) {
  rx[, rep(seq_len(ncol(rx)), ncol(ry)), drop = FALSE] * ry[, rep(seq_len(ncol(ry)), each = ncol(rx)), drop = FALSE]
}
