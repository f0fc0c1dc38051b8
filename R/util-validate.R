# What every validator shares. Kernels, measures, maps and packed features
# are plain lists that users save, load, share and edit, so every function
# that receives one checks it, against every invariant the C++ core relies
# on, before any .Call; each object's validator lives in its own file
# (kernel-validate.R, measure-validate.R, the map-*.R files). Each error
# names the object and field and says how to get a valid object.

# The layout of the objects this version makes. An object with another
# version, or none (made before versions were stored, or edited), is refused.
# Format 2: maps carry their `allocation`, each part's `share` and (random
# periodic maps) their `method`. Format 3: periodic functions are known by
# `name` (with `binary`), and an expected periodic kernel names its two in
# `settings$left` and `settings$right`.
format_version <- 3L

check_object <- function(object, arg, class, remake) {
  if (!is.list(object) || !inherits(object, class)) {
    fail("`%s` must be %s.", arg, remake)
  }
  version <- object$format_version
  if (is.null(version)) {
    fail("`%s` has no `format_version`: it was made by an earlier askrff, or edited. Make it again: %s.", arg, remake)
  }
  if (!is_single_number(version) || version != format_version) {
    fail("`%s` has `format_version` %s, but this version of askrff reads format %d. Make it again: %s.",
         arg, format(version)[1L], format_version, remake)
  }
  invisible(object)
}

# A field of an object: `map$omega`, say.
field <- function(arg, name) sprintf("%s$%s", arg, name)

# A fit's map and the function of its features (fit_map()), or an error
# naming the fit's `map`.
validate_fit_map <- function(fit, arg) {
  tryCatch(fit_map(fit$map, if (identical(fit$fun, "")) NULL else fit$fun), askrff_error = function(e) {
    fail("`%s` has an invalid map: %s", field(arg, "map"), conditionMessage(e))
  })
}

# A fit's standardization (not NULL, in field `name`): the centre and
# positive scale of the map's d columns.
validate_fit_scaling <- function(scaling, d, arg, name = "scaling") {
  wrong <- function(...) {
    fail("`%s` must be NULL or the `center` and positive `scale` of the map's %d columns.", field(arg, name), d)
  }
  scaling <- tryCatch(column_scaling(scaling, NULL), askrff_error = wrong)
  if (length(scaling$center) != d) wrong()
  scaling
}
