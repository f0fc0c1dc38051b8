#' askrff: random Fourier features beyond positive definite, symmetric kernels
#'
#' Every map askrff samples gives a pair of feature matrices, a left one for
#' the first kernel argument and a right one for the second, whose product
#' approximates the kernel matrix: see [rff_map()], [rff_features()] and
#' [rff_kernel_matrix()]. Exact Gram matrices come from [kernel_matrix()].
#'
#' Heavy calls take `n_threads`; its default is `getOption("askrff.threads")`,
#' else RcppParallel's default (at most 2 under `R CMD check --as-cran`, which
#' sets the environment variable `_R_CHECK_LIMIT_CORES_`).
#'
#' [rff_glm()]'s engine preconditions its steps with Hessians of the loss
#' (\eqn{n D^2} multiply-adds each) taken from a sample of about
#' `getOption("askrff.hessian_rows")` rows (default 50,000; every row when
#' there are fewer), drawn by the row's index like the folds, so the fits
#' stay the same for any chunking and thread count. For data in memory the
#' first Hessian, of the intercept-only model, takes the same sample; a loss
#' with kinks samples the rows near its kinks while they are more than that.
#' The sample changes how many passes a fit takes, not the fit it converges
#' to.
#'
#' The L1-minimal measures of the kernels on the sphere (and of the LP route
#' of [radial_kernel()]) come from a linear program (HiGHS, through the highs
#' package), solved once per kernel, dimension, `tolerance` and `z_max` in a
#' session. With `options(askrff.disk_cache = TRUE)` they are also saved under
#' `tools::R_user_dir("askrff", "cache")` and read back in later sessions. A
#' measure read back is verified before use, not trusted: its radii must be
#' distinct points of the program's grid, its masses finite, its error on the
#' program's distances within `tolerance`, and the bias bound recomputed from
#' its atoms the one stored; otherwise it is solved again and the file
#' rewritten. Delete that directory to clear the cache.
#'
#' **Conditions.** Every error askrff raises has the class `"askrff_error"`
#' and names, as its call, the function you called that refused (the
#' generic, such as `predict()`, for a method). Its first class says what
#' went wrong:
#' * `"askrff_invalid_argument"`: an argument breaks a rule; the message
#'   names it and the rule;
#' * `"askrff_invalid_object"` (also an invalid argument): a kernel, map,
#'   measure, fit or study, plain lists that can be saved and edited, fails
#'   its checks; the message names the field;
#' * `"askrff_data_error"` (also an invalid argument): the data (`x`, `y`,
#'   weights, chunks, a formula's model frame, new data) break a rule or
#'   cannot be fitted, such as a class with no rows;
#' * `"askrff_too_large"`: a result would not fit in memory, or exceeds R's
#'   limits on a matrix; nothing was allocated;
#' * `"askrff_missing_package"`: a suggested package the call needs is not
#'   installed;
#' * `"askrff_core_error"`: the C++ core refused what the R checks let
#'   through.
#'
#' Warnings have the class `"askrff_warning"`; a fit that did not converge
#' warns with `"askrff_not_converged"` first. So
#' `tryCatch(fit, askrff_data_error = function(e) ...)` handles one kind.
#'
#' Where askrff departs from the papers it implements (constants, signs,
#' orientations, total masses), `vignette("mathematics", package = "askrff")`
#' gives the argument. To cite askrff and those papers, see
#' `citation("askrff")`.
#'
#' @template ref-rahimi2007
#' @template ref-he2022
#' @template ref-liu2021
#' @template ref-luo2021
#' @template ref-schellekens2020
#' @keywords internal
#' @useDynLib askrff, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importFrom RcppParallel RcppParallelLibs
"_PACKAGE"

.onLoad <- function(libname, pkgname) {
  apply_cpu_option()
  register_kernel_generics(pkgname)
  # a failed registration must not stop askrff loading; rff_reg() registers
  # again and reports the error
  register_quietly <- function(...) tryCatch(register_parsnip_models(), error = function(e) invisible(FALSE))
  register_quietly()
  setHook(packageEvent("parsnip", "onLoad"), register_quietly)
  declare_marginaleffects_classes()
}
