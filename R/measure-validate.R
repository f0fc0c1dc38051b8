# The parts table every measure and map carries, and measures themselves.

# The columns of a measure's parts table, as the core returns them.
parts_columns <- list(part = is.character, mass = is.double, exact = is.logical, coefficient = is.double,
                      right_phase = is.double, phased = is.logical, orthogonal = is.logical,
                      density_variable = is.character, features = is.character)

validate_parts <- function(parts, arg) {
  # a damaged file can give a data frame columns shorter than its rows
  if (!is.data.frame(parts) || nrow(parts) < 1L || any(lengths(parts) != nrow(parts))) {
    fail("`%s` must be a data frame with one row per positive part.", arg)
  }
  for (column in names(parts_columns)) {
    value <- parts[[column]]
    if (is.null(value) || !parts_columns[[column]](value) || anyNA(value)) {
      fail("`%s` must be a column of %s values without NA.", field(arg, column),
           if (identical(parts_columns[[column]], is.double)) "numeric" else
             if (identical(parts_columns[[column]], is.logical)) "logical" else "character")
    }
  }
  if (any(!is.finite(parts$mass)) || any(parts$mass < 0)) {
    fail("`%s` must hold finite, nonnegative total masses.", field(arg, "mass"))
  }
  if (any(!is.finite(parts$coefficient)) || any(parts$coefficient == 0)) {
    fail("`%s` must hold finite, nonzero coefficients.", field(arg, "coefficient"))
  }
  if (any(!is.finite(parts$right_phase))) fail("`%s` must be finite.", field(arg, "right_phase"))
  if (!all(parts$density_variable %in% names(law_description))) {
    fail("`%s` must be one of %s.", field(arg, "density_variable"), paste(names(law_description), collapse = ", "))
  }
  if (!all(parts$features == parts$features[1L]) || !parts$features[1L] %in% c("trig", names(feature_description))) {
    fail("`%s` must name one feature kind (\"trig\", %s) for every part.", field(arg, "features"),
         paste0('"', names(feature_description), '"', collapse = ", "))
  }
  parts
}

# A measure is what spectral_measure() returns for its kernel, dimension and
# settings; the parts must match that exactly.
validate_measure <- function(measure, arg = "x") as_condition_class("invalid_object", {
  check_object(measure, arg, "askrff_measure", "a measure made by spectral_measure()")
  base <- validate_map_kernel(measure, arg)
  validate_parts(measure$parts, field(arg, "parts"))
  fresh <- do.call(spectral_measure, c(list(base$kernel, base$d), base$settings), quote = TRUE)
  if (!isTRUE(all.equal(fresh$parts, measure$parts, tolerance = 1e-12)) ||
      !isTRUE(all.equal(fresh$lp, measure$lp, tolerance = 1e-12)) ||
      !isTRUE(all.equal(fresh$numeric, measure$numeric, tolerance = 1e-12))) {
    fail("`%s` does not match the spectral measure of its kernel; make it again with spectral_measure().",
         field(arg, "parts"))
  }
  fresh
})
