#' Posterior draws of a ridge fit's function
#'
#' `simulate()` draws whole functions from the posterior of an [rff_ridge()]
#' fit to one numeric response, at the rows of `newdata`: each column is one
#' function, the same draw at every row, so a maximum, an integral or a
#' Thompson-sampling choice over a column is one of that function. With
#' `noise = TRUE` each draw adds new responses' noise.
#'
#' The posterior is the one `predict(se.fit = TRUE)` and its intervals
#' read: the fit as Bayesian linear regression on its features, y = b0 +
#' z'b + e with e ~ N(0, sigma^2 / w), b ~ N(0, (sigma^2 / lambda) I) at the
#' chosen lambda and a flat prior on b0. Given sigma^2, the coefficients are
#' normal about the ridge solution with covariance sigma^2 (G + lambda
#' I)^-1, G the centred weighted cross-products of the features, which the
#' fit keeps as its eigendecomposition: a draw is the ridge solution plus
#' sigma times V diag(1 / sqrt(s + lambda)) e1 + (I - V V') e2 /
#' sqrt(lambda) (e1, e2 standard normal; the second term is the prior's in
#' the directions the data do not reach), and sigma e0 / sqrt(sum w) for
#' the intercept. sigma^2 itself is drawn from its posterior under the
#' reference prior, the residual sum of squares over a chi-squared of the
#' residual degrees of freedom, so each row's draws follow the t
#' distribution whose quantiles give `predict(interval = "confidence")`
#' (and with `noise = TRUE`, `"prediction"`). The cost is one product of
#' the rows' features with a D x `nsim` matrix: O(n D nsim), with the
#' features computed a block of rows at a time.
#'
#' @param object A fit of [rff_ridge()] to one numeric response.
#' @param nsim The number of draws.
#' @param seed As for [stats::simulate()]: `NULL`, or an integer for
#'   [set.seed()] (the random number generator's state is restored
#'   afterwards).
#' @param newdata The rows to draw the functions at, as for
#'   [predict()][predict.askrff_ridge] (the fit keeps no training rows);
#'   rows with a missing value get `NA`.
#' @param noise Whether to add the noise of new responses (of weight 1).
#' @param n_threads The number of threads; `NULL` for the package's default.
#' @param ... Not used; an error if given.
#' @return A data frame with one row per row of `newdata` and columns
#'   `sim_1` to `sim_<nsim>`, with the attribute `"seed"` as
#'   [stats::simulate()] gives it.
#' @examples
#' set.seed(1)
#' x <- matrix(runif(400, -2, 2), ncol = 1)
#' y <- sin(2 * x[, 1]) + rnorm(400, sd = 0.2)
#' fit <- rff_ridge(x, y, kernel = gaussian_kernel(0.5), n_features = 64, seed = 1)
#' grid <- matrix(seq(-2, 2, length.out = 50))
#' draws <- simulate(fit, nsim = 20, seed = 2, newdata = grid)
#' matplot(grid, draws, type = "l", lty = 1, col = "grey")
#' # Thompson sampling: where each drawn function is largest
#' grid[apply(draws, 2, which.max)]
#' @importFrom stats simulate
#' @export
simulate.askrff_ridge <- function(object, nsim = 1, seed = NULL, newdata, noise = FALSE, n_threads = NULL, ...) {
  check_no_dots(...)
  object <- validate_ridge(object, "object")
  nsim <- check_count(nsim, "nsim", max = 1e6)
  check_flag(noise, "noise")
  if (object$response$kind != "numeric") {
    fail("simulate() draws the function of a fit to one numeric response; this fit's response is a %s.",
         response_text(object$response))
  }
  if (missing(newdata) || is.null(newdata)) {
    fail("simulate() needs `newdata`: the fit keeps no training rows to draw its functions at.")
  }
  residual <- ridge_residual_variance(object)
  rows <- ridge_newdata(object, newdata, NULL, 1L)
  n_threads <- resolve_threads(n_threads)
  scores <- ridge_row_scores(object, rows, n_threads)[, 1L]
  check_output_size(length(scores), nsim, "the draws (rows of `newdata` x `nsim`)")
  # the random number generator as stats:::simulate.lm() handles it
  if (!exists(".Random.seed", envir = .GlobalEnv, inherits = FALSE)) stats::runif(1)
  if (is.null(seed)) {
    state <- get(".Random.seed", envir = .GlobalEnv)
  } else {
    if (!is_single_number(seed) || !is.finite(seed) || seed != round(seed) || abs(seed) > .Machine$integer.max) {
      fail("`seed` must be NULL or a whole number of at most %d in size.", .Machine$integer.max)
    }
    saved <- get(".Random.seed", envir = .GlobalEnv)
    set.seed(seed)
    state <- structure(seed, kind = as.list(RNGkind()))
    on.exit(assign(".Random.seed", saved, envir = .GlobalEnv))
  }
  draws <- ridge_function_draws(object, rows, scores, residual, nsim, noise, n_threads)
  out <- as.data.frame(draws, row.names = if (is.null(names(scores))) seq_along(scores) else names(scores))
  names(out) <- paste0("sim_", seq_len(nsim))
  attr(out, "seed") <- state
  out
}

# The draws at the rows (rows by draws; NA for incomplete rows), from R's
# random number generator in its current state.
ridge_function_draws <- function(object, rows, scores, residual, nsim, noise, n_threads) {
  posterior <- object$posterior
  lambda <- response_lambdas(object)[[1L]]
  vectors <- posterior$vectors
  within <- matrix(stats::rnorm(ncol(vectors) * nsim), ncol(vectors)) / sqrt(posterior$values + lambda)
  coefficients <- core(.cpp_matrix_product(vectors, within, n_threads))
  if (ncol(vectors) < nrow(vectors)) {
    # the prior's draws in the directions the eigenvectors do not span
    outside <- matrix(stats::rnorm(nrow(vectors) * nsim), nrow(vectors))
    projected <- core(.cpp_matrix_product(vectors, core(.cpp_matrix_product(t(vectors), outside, n_threads)), n_threads))
    coefficients <- coefficients + (outside - projected) / sqrt(lambda)
  }
  intercept <- stats::rnorm(nsim) / sqrt(posterior$weight)
  sigma <- sqrt(residual$sigma2[[1L]] * residual$df[[1L]] / stats::rchisq(nsim, residual$df[[1L]]))
  if (nrow(rows$x) == 0L) return(matrix(NA_real_, length(scores), nsim))
  input <- core_input(object$map, rows$x, "left", n_threads)
  # draw s at row i: b0 + o_i + z_i'b + sigma_s ((z_i - mean z)'c_s + e_s),
  # the fit and sigma folded into the coefficients so that the rows by
  # draws matrix is made by one product and one sum
  total <- object$coefficients[, 1L] + sweep(coefficients, 2L, sigma, "*")
  constant <- object$intercept[[1L]] - (drop(crossprod(posterior$z_mean, coefficients)) - intercept) * sigma
  values <- core(.cpp_feature_products(input$map, object$fun, input$x, t(total), n_threads)) +
    rep(constant, each = nrow(rows$x))
  if (!is.null(rows$offset)) values <- values + rows$offset[, 1L]
  if (noise) values <- values + matrix(stats::rnorm(length(values)), nrow(values)) * rep(sigma, each = nrow(values))
  if (!all(is.finite(values))) {
    fail("The draws overflow: `object$posterior`, `object$rss` or `object$coefficients` hold values no fit has; fit the model again with rff_ridge().")
  }
  if (all(rows$complete)) return(values)
  draws <- matrix(NA_real_, length(scores), nsim)
  draws[rows$complete, ] <- values
  draws
}
