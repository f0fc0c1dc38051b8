# The kernel-specific settings of rff_map() and spectral_measure(): their
# rules come from the family's traits in the core.

# One setting's value against its rule from the registry: a word among its
# `choices`, or a number in (lower, upper] (open at `upper` when `upper_open`).
check_setting <- function(name, value, rule) {
  if (is.null(rule$choices)) {
    valid <- is_single_number(value) && is.finite(value) && value > rule$lower &&
      (if (rule$upper_open) value < rule$upper else value <= rule$upper)
    if (!valid) {
      fail("`%s` must be a single number in (%s, %s%s.", name, format(rule$lower), format(rule$upper),
           if (rule$upper_open) ")" else "]")
    }
    return(as.double(value))
  }
  if (!is.character(value) || length(value) != 1L || is.na(value) || !value %in% rule$choices) {
    fail("`%s` must be one of %s.", name, paste0('"', rule$choices, '"', collapse = ", "))
  }
  value
}

setting_default <- function(rule) if (is.null(rule$choices)) rule$default else rule$choices[[1L]]

#' Settings that travel with a kernel
#'
#' Attaches kernel-specific settings, those that [rff_map()] and
#' [spectral_measure()] take in `...`, to a kernel object, so that they apply
#' wherever the kernel is used. This is how a term of a kernel expression
#' gets settings of its own (see [kernel-arithmetic]); the terms of an
#' expression otherwise use their default settings. Settings given in a
#' call's `...` override the kernel's; a kernel setting that needs another
#' setting's value (such as `tolerance`, which needs `route = "lp"`) is
#' dropped when the call chooses another value.
#'
#' The settings are checked against the kernel's family as `...` of
#' [rff_map()] would be, and kept in the kernel's `defaults`, which every
#' function checks again when it receives the kernel.
#'
#' @param kernel A kernel object.
#' @param ... Named settings of the kernel's family; none removes the
#'   kernel's settings.
#' @return The kernel object, with its settings in `defaults`.
#' @family kernels
#' @examples
#' # a cusp at 0: its spectral density decays too slowly for the density
#' # route, so this term takes the L1-minimal measure on [0, 6]
#' cusp <- with_settings(radial_kernel(function(r) exp(-r)), route = "lp", z_max = 6, tolerance = 1e-2)
#' cusp
#' \donttest{
#' spectral_measure(cusp + gaussian_kernel(1), d = 2)
#' }
#' @export
with_settings <- function(kernel, ...) {
  kernel <- validate_kernel(kernel)
  kernel$defaults <- NULL
  settings <- list(...)
  if (length(settings) == 0L) return(kernel)
  kernel$defaults <- resolve_kernel_settings(kernel, settings)[names(settings)]
  kernel
}

# A kernel's `defaults` read back from a user: the settings with_settings()
# would accept, coerced as it would.
validate_defaults <- function(kernel, defaults, arg) {
  if (is.null(defaults)) return(kernel)
  given <- names(defaults)
  if (!is.list(defaults) || is.object(defaults) || length(defaults) == 0L || is.null(given) || anyNA(given) ||
      any(given == "") || anyDuplicated(given)) {
    fail("`%s` must be a list of named settings, as with_settings() makes.", field(arg, "defaults"))
  }
  resolved <- tryCatch(resolve_kernel_settings(kernel, defaults), askrff_error = function(e) {
    fail("`%s` is not valid for its kernel: %s", field(arg, "defaults"), conditionMessage(e))
  })
  kernel$defaults <- resolved[given]
  kernel
}

# `...` of rff_map(): each setting must be one the kernel's family declares,
# given by name, with a valid value. Returns every setting that applies,
# defaults filled in (the family's, then the kernel's own from
# with_settings()); a setting that `needs` another's value (the LP settings
# need route = "lp") is refused when given without it, and dropped when it
# came from the kernel.
resolve_kernel_settings <- function(kernel, settings) {
  rules <- kernel_traits(kernel)$settings
  given <- names(settings)
  if (length(settings) > 0L && (is.null(given) || anyNA(given) || any(given == ""))) {
    fail("`...` takes named settings only, such as decomposition = \"phase\".")
  }
  unknown <- setdiff(given, names(rules))
  if (length(unknown) > 0L) {
    takes <- if (length(rules) == 0L) "takes none" else paste("takes", paste(names(rules), collapse = ", "))
    fail("`...` has settings the %s does not take: %s (it %s).%s", kernel_label(kernel),
         paste(unknown, collapse = ", "), takes, term_settings_hint(kernel, unknown))
  }
  resolved <- lapply(rules, setting_default)
  resolved[names(kernel$defaults)] <- kernel$defaults
  for (name in given) resolved[[name]] <- check_setting(name, settings[[name]], rules[[name]])
  for (name in names(rules)) {
    needs <- rules[[name]]$needs
    if (length(needs) == 2L && !identical(resolved[[needs[1L]]], needs[2L])) {
      if (name %in% given) {
        fail("`%s` applies only to %s = \"%s\"; the %s \"%s\" does not use it.", name, needs[1L], needs[2L],
             needs[1L], resolved[[needs[1L]]])
      }
      resolved[[name]] <- NULL
    }
  }
  resolved
}

# Settings a call gave an expression that belong to its terms: a term takes
# its own through with_settings(), which the error then shows.
term_settings_hint <- function(kernel, unknown) {
  if (is.null(kernel$terms)) return("")
  owners <- Filter(function(i) any(unknown %in% names(kernel_traits(kernel$terms[[i]])$settings)), seq_along(kernel$terms))
  if (length(owners) == 0L) return("")
  term <- kernel$terms[[owners[1L]]]
  taken <- intersect(unknown, names(kernel_traits(term)$settings))
  sprintf(" Term k%d (the %s) takes %s: a term of an expression takes settings of its own through with_settings(), as in with_settings(<term>, %s), before it is combined.",
          owners[1L], kernel_label(term), paste(taken, collapse = ", "), paste0(taken, " = ...", collapse = ", "))
}

# The kernel object as the C++ core reads it in dimension d, carrying the
# settings and what R computes for the core: the atoms of an LP measure (with
# `lp` kept for printing) for a stationary route on the sphere, and a radial
# kernel's profile and tabulated density (R/kernel-radial.R), by its class.
kernel_with_settings <- function(kernel, settings, d) UseMethod("kernel_with_settings")

#' @export
kernel_with_settings.askrff_kernel <- function(kernel, settings, d) {
  kernel$settings <- settings
  if (!is.null(settings$tolerance)) return(with_lp_atoms(kernel, settings, d, lp_radius_max(d)))
  kernel
}

with_lp_atoms <- function(kernel, settings, d, radius_max) {
  lp <- lp_radial_measure(kernel, d, settings$tolerance, settings$z_max, radius_max)
  kernel$settings$atom_radius <- lp$radius
  kernel$settings$atom_weight <- lp$weight
  kernel$settings$bias_bound <- lp$bias_bound
  kernel$lp <- lp
  kernel
}
