#' @section Data larger than memory:
#' `x` may be a *chunk source*, with `y = NULL`:
#' a function of no arguments that returns the next chunk, `list(x = , y =
#' )`, and `NULL` at the end, or a list of such chunks. A chunk may also carry
#' its rows' weights `w` and their `offset` (as the arguments `weights` and
#' `offset` give them for data in memory, which must then be `NULL`); every
#' chunk carries an offset, or none. The fit is the same as
#' with all rows in memory up to rounding: chunks change only the order of the
#' sums, which the solve amplifies by the condition number of \eqn{Z'Z +
#' \lambda I} (coefficients agree to about 1e-12 at a moderate \eqn{\lambda},
#' fitted values also at a tiny one). When the future package
#' is installed and a plan other than sequential is set ([future::plan()]:
#' multisession on one machine, a cluster, or a scheduler through
#' future.batchtools), the chunks are processed by its workers: each gets
#' the map (a small object) and one chunk and returns its sums, which are
#' added in chunk order, so the fit is identical under every plan. Workers
#' use one thread each unless `n_threads` is given; data given in memory
#' stay on this process's threads. Progress is reported
#' through progressr ([progressr::with_progress()]), a step per chunk and
#' then the percents of the eigendecomposition; it is silent unless asked
#' for.
