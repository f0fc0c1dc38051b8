#' Tuning parameters of random-feature models for dials
#'
#' Parameter objects for `tune` grids over the arguments of [step_rff()] and
#' [rff_reg()]: `rff_scale()` for `scale`, the factor of the kernel's length
#' scale: for a kernel given by name, in median distances between training
#' rows (so one default range suits any data set: a tenth to ten times the
#' median heuristic; see [kernel_scale]), `rff_num_features()`
#' for `n_features`, the number of frequencies (64 to 2,048 by default, on a
#' log2 scale: the error of the features falls as one over its square root),
#' and `rff_kernel_family()` for a `kernel` given by name.
#'
#' @param range The range, in the transformed units of `trans` (so
#'   `c(-1, 1)` is 0.1 to 10 for `rff_scale()`).
#' @param trans A transformation from the scales package, or `NULL`.
#' @param values For `rff_kernel_family()`, the kernel families to try;
#'   `NULL` for every family whose only parameter is its length scale
#'   (`"gaussian"`, `"laplace"` and `"exponential"`).
#' @return A dials parameter object.
#' @family tidymodels
#' @examples
#' if (requireNamespace("dials", quietly = TRUE)) {
#'   rff_scale()
#'   dials::grid_regular(rff_scale(), rff_num_features(c(6, 8)), levels = 3)
#' }
#' @export
rff_scale <- function(range = c(-1, 1), trans = scales::transform_log10()) {
  require_suggested(c("dials", "scales"), "rff_scale()")
  check_param_range(range, trans)
  dials::new_quant_param(type = "double", range = range, inclusive = c(TRUE, TRUE), trans = trans,
                         label = c(rff_scale = "Kernel scale (median distances)"))
}

#' @rdname rff_scale
#' @export
rff_num_features <- function(range = c(6L, 11L), trans = scales::transform_log2()) {
  require_suggested(c("dials", "scales"), "rff_num_features()")
  check_param_range(range, trans)
  dials::new_quant_param(type = "integer", range = range, inclusive = c(TRUE, TRUE), trans = trans,
                         label = c(rff_num_features = "# Frequencies"))
}

#' @rdname rff_scale
#' @export
rff_kernel_family <- function(values = NULL) {
  require_suggested("dials", "rff_kernel_family()")
  names <- names(scale_only_kernels())
  if (is.null(values)) values <- names
  if (!is.character(values) || length(values) < 1L || anyNA(values) || !all(values %in% names)) {
    fail("`values` must name kernel families among %s.", paste0('"', names, '"', collapse = ", "))
  }
  dials::new_qual_param(type = "character", values = values, label = c(rff_kernel_family = "Kernel family"))
}

check_param_range <- function(range, trans) {
  if (!is.numeric(range) || is.object(range) || length(range) != 2L || any(!is.finite(range)) ||
      range[1L] >= range[2L]) {
    fail("`range` must be two finite increasing numbers, in the units of `trans`.")
  }
  if (!is.null(trans) && !inherits(trans, c("transform", "trans"))) {
    fail("`trans` must be NULL or a transformation of the scales package, such as scales::transform_log10().")
  }
}
