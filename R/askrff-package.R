#' askrff: random Fourier features beyond positive definite, symmetric kernels
#'
#' Every map askrff samples gives a pair of feature matrices, a left one for
#' the first kernel argument and a right one for the second, whose product
#' approximates the kernel matrix: see [rff_map()], [rff_features()] and
#' [rff_kernel_matrix()]. Exact Gram matrices come from [kernel_matrix()].
#'
#' Heavy calls take `n_threads`; its default is `getOption("askrff.threads")`,
#' else RcppParallel's default.
#'
#' @keywords internal
#' @useDynLib askrff, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom RcppParallel RcppParallelLibs
"_PACKAGE"
