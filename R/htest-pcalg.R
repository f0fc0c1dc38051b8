# The conditional independence test as pcalg's `indepTest`, so that pc(),
# fci() and their kin learn causal graphs with it.

#' The conditional independence test for pcalg's causal discovery
#'
#' `rff_ci_test_pcalg(x, y, S, suffStat)` has the signature that
#' `pcalg::pc()`, `pcalg::fci()` and the other learners of pcalg take as
#' `indepTest`: it returns the p-value of [rff_ci_test()] of columns `x` and
#' `y` of the data given the columns `S` (of [rff_independence_test()]'s
#' statistic when `S` is empty, by the same null), with the settings that
#' `rff_ci_suff_stat()` keeps in `suffStat`. The seed is fixed there, so a
#' test asked twice gives the same p-value, as a learner expects.
#'
#' @param data A numeric matrix or a data frame (factors enter as
#'   indicators), one column per node of the graph. Rows with a missing
#'   value are dropped once, so that every test sees the same rows.
#' @param n_features,n_features_z,scale_z,method,kernel_x,kernel_y,kernel_z,standardize
#'   As in [rff_ci_test()]; every node's kernel is the same.
#' @param seed A whole number: the seed of every test's maps.
#' @inheritParams rff_features
#' @param x,y The columns (numbers) of the two nodes tested.
#' @param S The columns of the conditioning set (possibly empty).
#' @param suffStat The list `rff_ci_suff_stat()` returns.
#' @return `rff_ci_suff_stat()`: a list of class `"rff_ci_suff_stat"` with
#'   the data and the settings. `rff_ci_test_pcalg()`: the p-value.
#' @family kernel tests
#' @examples
#' set.seed(1)
#' n <- 500
#' a <- rnorm(n)
#' b <- sin(2 * a) + rnorm(n, sd = 0.3)
#' c <- cos(2 * a) + rnorm(n, sd = 0.3)
#' suff <- rff_ci_suff_stat(cbind(a, b, c))
#' rff_ci_test_pcalg(2, 3, integer(), suff)   # b and c dependent
#' rff_ci_test_pcalg(2, 3, 1, suff)           # but not given a
#' \donttest{
#' if (requireNamespace("pcalg", quietly = TRUE)) {
#'   graph <- pcalg::pc(suff, indepTest = rff_ci_test_pcalg, alpha = 0.01, labels = c("a", "b", "c"))
#'   graph
#' }
#' }
#' @export
rff_ci_suff_stat <- function(data, n_features = 5, n_features_z = 100, scale_z = c("search", "median"),
                             method = c("chi2_mixture", "gamma"),
                             kernel_x = NULL, kernel_y = NULL, kernel_z = NULL, seed = 1, standardize = NULL,
                             n_threads = NULL) {
  if (!is.data.frame(data) && !(is_matrix(data) && is.numeric(data))) {
    fail("`data` must be a numeric matrix or a data frame, one column per node.")
  }
  if (ncol(data) < 2L) fail("`data` must have at least two columns (nodes).")
  if (is.null(seed)) fail("`seed` must be a whole number: a learner asks for the same test more than once.")
  resolve_seed(seed)
  if (!is.null(standardize)) check_flag(standardize, "standardize")
  settings <- list(n_features = check_count(n_features, "n_features", max = 1e4),
                   n_features_z = check_count(n_features_z, "n_features_z", max = 1e5),
                   scale_z = check_choice(scale_z, c("search", "median"), "scale_z"),
                   method = check_choice(method, c("chi2_mixture", "gamma"), "method"),
                   kernel_x = check_test_kernel(kernel_x, "kernel_x"), kernel_y = check_test_kernel(kernel_y, "kernel_y"),
                   kernel_z = check_test_kernel(kernel_z, "kernel_z"), seed = seed, standardize = standardize,
                   n_threads = resolve_threads(n_threads))
  structure(list(data = complete_nodes(data), settings = settings), class = "rff_ci_suff_stat")
}

# The rows of `data` complete in every column (every test then sees the
# same rows, as a learner's tests should), without infinite values.
complete_nodes <- function(data) as_condition_class("data", {
  complete <- stats::complete.cases(data)
  if (sum(complete) < min_test_rows) fail("`data` must have at least %d complete rows.", min_test_rows)
  data <- data[complete, , drop = FALSE]
  numbers <- if (is.data.frame(data)) unlist(Filter(is.numeric, data)) else data
  if (any(is.infinite(numbers))) fail("`data` must not contain infinite values.")
  data
})

#' @rdname rff_ci_suff_stat
#' @export
rff_ci_test_pcalg <- function(x, y, S, suffStat) {
  if (!inherits(suffStat, "rff_ci_suff_stat") || !is.list(suffStat$settings) ||
      !(is.data.frame(suffStat$data) || is_matrix(suffStat$data))) {
    fail("`suffStat` must be made by rff_ci_suff_stat().")
  }
  data <- suffStat$data
  node <- function(value, arg, several = FALSE) {
    if (!is.numeric(value) || is.object(value) || anyNA(value) || any(value != round(value)) || any(value < 1) ||
        any(value > ncol(data)) || (!several && length(value) != 1L)) {
      fail("`%s` must be %s of the data's columns (1 to %d).", arg, if (several) "numbers" else "the number of one",
           ncol(data))
    }
    as.integer(value)
  }
  x <- node(x, "x")
  y <- node(y, "y")
  S <- node(if (is.null(S)) integer() else S, "S", several = TRUE)
  settings <- suffStat$settings
  expected <- names(formals(rff_ci_suff_stat))[-1L]
  if (!identical(sort(names(settings)), sort(expected))) {
    fail("`suffStat$settings` must hold exactly %s, as rff_ci_suff_stat() makes it.",
         paste(sprintf("`%s`", expected), collapse = ", "))
  }
  columns <- function(i) if (length(i) == 0L) NULL else data[, i, drop = is.data.frame(data) || length(i) > 1L]
  arguments <- c(list(x = columns(x), y = columns(y), z = columns(S)), settings)
  do.call(rff_ci_test, arguments, quote = TRUE)$p.value
}
