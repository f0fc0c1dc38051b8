#' @section The primal and the dual form, and their cost:
#' Both forms give every \eqn{\lambda} from one symmetric
#' eigendecomposition, and the same fit up to rounding; below, \eqn{n}
#' counts the rows of positive weight and \eqn{D} the feature columns
#' (twice `n_features` for most maps of [rff_map()]). `fit$form` says
#' which one fitted.
#'
#' * The **primal** form sums \eqn{Z'Z} (\eqn{D \times D}) over blocks of
#'   rows, \eqn{O(n D^2)} on `n_threads` threads, and decomposes it,
#'   \eqn{O(D^3)} on one thread whatever \eqn{n}: we measured about 1.2 s
#'   for \eqn{D = 2048} and 11 s for \eqn{D = 4096} on one core of an AMD
#'   EPYC server, so 8,000 columns take a minute and a half. It never
#'   stores \eqn{Z}: memory \eqn{O(D^2)} whatever \eqn{n}. Leave-one-out
#'   takes a second pass over the rows. It fits chunk sources, and data
#'   with at least as many rows as columns.
#' * The **dual** form fits data in memory with fewer rows than columns
#'   (\eqn{n < D}), a scale search's candidates included, when what it
#'   holds (below) fits in the memory available. It computes the
#'   \eqn{n \times D} features once and holds them, forms the rows'
#'   centered weighted Gram matrix, \eqn{O(n^2 D)} on `n_threads` threads,
#'   and decomposes it, \eqn{O(n^3)} on one thread; the eigenvectors of
#'   \eqn{Z'Z} that the fit keeps for its intervals cost one more product,
#'   \eqn{O(n^2 D)} (a scale search's candidates skip it). Memory
#'   \eqn{O(n D)}, less than the primal's \eqn{D^2}. Leave-one-out comes
#'   from the same decomposition, without a second pass. Where the fit
#'   nearly interpolates (\eqn{\lambda} below the smallest eigenvalues), its
#'   criteria keep their digits, where the primal's residual sum of
#'   squares, a difference of nearly equal sums, loses them (GCV could then
#'   favour interpolation). With 2,048 columns, leave-one-out and one
#'   thread (`bench/ridge-dual.R`), it fitted 500 rows 38 times as fast as
#'   the primal, 1,000 rows 8 times and 2,000 rows 1.4 times; with the
#'   scale searched, 35, 10 and 1.7 times.
#'
#' The eigendecomposition stops within a fraction of a second on a user
#' interrupt (Ctrl-C), and from 512 columns on (512 rows in the dual) it
#' reports its progress through progressr (see below).
