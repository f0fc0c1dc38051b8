#' @references Rahimi, A. and Recht, B. (2007). Random features for
#'   large-scale kernel machines. Advances in Neural Information Processing
#'   Systems 20 (NIPS 2007).
