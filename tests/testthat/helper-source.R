# The package's source tree: under R CMD check beside the check directory,
# under devtools::test() and test_file() two levels up; NULL if neither.
package_source <- function() {
  for (root in c("../../00_pkg_src/askrff", "../..")) {
    description <- file.path(root, "DESCRIPTION")
    if (file.exists(description) && identical(unname(read.dcf(description, "Package")[1L, 1L]), "askrff")) {
      return(normalizePath(root, winslash = "/"))
    }
  }
  NULL
}
