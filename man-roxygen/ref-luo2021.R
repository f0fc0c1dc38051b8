#' @references Luo, Q., Fang, K., Yang, J. and Huang, X. (2021). Towards
#'   unbiased random features with lower variance for stationary indefinite
#'   kernels. arXiv:2104.06204.
