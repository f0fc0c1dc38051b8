# Packages in Suggests: the tidymodels and broom methods need them, the rest
# of the package does not. A call that needs one says which are missing.
require_suggested <- function(packages, what) {
  missing <- packages[!vapply(packages, requireNamespace, logical(1), quietly = TRUE)]
  if (length(missing) > 0L) {
    fail("%s needs the package%s %s: install.packages(c(%s)).", what, if (length(missing) > 1L) "s" else "",
         paste(sprintf("'%s'", missing), collapse = ", "), paste(sprintf("\"%s\"", missing), collapse = ", "))
  }
  invisible(TRUE)
}
