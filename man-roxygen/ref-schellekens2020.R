#' @references Schellekens, V. and Jacques, L. (2020). Breaking the waves:
#'   asymmetric random periodic features for low-bitrate kernel machines.
#'   arXiv:2004.06560.
