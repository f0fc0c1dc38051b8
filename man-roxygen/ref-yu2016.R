#' @references Yu, F. X., Suresh, A. T., Choromanski, K., Holtmann-Rice, D.
#'   and Kumar, S. (2016). Orthogonal random features. Advances in Neural
#'   Information Processing Systems 29 (NIPS 2016).
