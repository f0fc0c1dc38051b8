#' @references He, M., He, F., Liu, F. and Huang, X. (2022). Random Fourier
#'   features for asymmetric kernels. arXiv:2209.08461.
