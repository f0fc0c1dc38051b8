#' Relative Frobenius error
#'
#' `norm(K - K_hat, "F") / norm(K, "F")`, the error measure of the papers'
#' convergence experiments.
#'
#' @param K Exact kernel matrix.
#' @param K_hat Its approximation, of the same dimensions.
#' @return A single number.
#' @examples
#' relative_error(diag(2), diag(2) + 0.1)
#' @export
relative_error <- function(K, K_hat) {
  K <- check_data(K, "K")
  K_hat <- check_data(K_hat, "K_hat")
  if (!identical(dim(K), dim(K_hat))) {
    fail("`K_hat` must have the dimensions of `K` (%d x %d), not %d x %d.",
         nrow(K), ncol(K), nrow(K_hat), ncol(K_hat))
  }
  reference <- norm(K, "F")
  if (reference == 0) fail("`K` must not be all zero: the relative error would divide by zero.")
  norm(K - K_hat, "F") / reference
}
