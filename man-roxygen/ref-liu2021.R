#' @references Liu, F., Huang, X., Chen, Y. and Suykens, J. A. K. (2021). Fast
#'   learning in reproducing kernel Krein spaces via signed measures. AISTATS
#'   2021, PMLR 130, 388-396. arXiv:2006.00247; askrff cites the numbering of
#'   equations, theorems and figures of its earlier version, "Generalizing
#'   random Fourier features via generalized measures".
