# Packages in Suggests: the methods that need one (broom's tidiers need
# tibble; the tidymodels interfaces recipes, parsnip and dials) check first,
# so that a missing one is a refusal naming what to install, not an error
# from deep inside a call.

# Fails naming every package of `packages` that is not installed, and `what`
# (the call) that needs them.
require_suggested <- function(packages, what) {
  missing <- packages[!vapply(packages, requireNamespace, logical(1), quietly = TRUE)]
  if (length(missing) == 0L) return(invisible(TRUE))
  quoted <- paste0("\"", missing, "\"")
  names <- if (length(missing) > 1L) {
    paste(paste(missing[-length(missing)], collapse = ", "), "and", missing[length(missing)])
  } else {
    missing
  }
  fail("%s needs the %s package%s: install.packages(%s)", what, names,
       if (length(missing) > 1L) "s" else "",
       if (length(missing) > 1L) sprintf("c(%s)", paste(quoted, collapse = ", ")) else quoted,
       class = "missing_package")
}
