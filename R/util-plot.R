# The plot methods draw with their own defaults (axes, log scales, titles),
# which the user's graphical arguments in `...` replace by name instead of
# clashing with them; what the graphics system then refuses (a log axis with
# limits at or below zero, say) is an askrff_error naming `...`.
draw_with_defaults <- function(fun, defaults, user) {
  if (length(user) > 0L && (is.null(names(user)) || any(names(user) == ""))) {
    fail("The graphical arguments in `...` must be named, such as `main = \"title\"` or `ylim = c(0, 1)`.")
  }
  arguments <- defaults
  arguments[names(user)] <- user
  tryCatch(do.call(fun, arguments, quote = TRUE), error = function(e) {
    fail("The graphical arguments in `...` do not fit this plot: %s", conditionMessage(e))
  })
}
