# Installs every package DESCRIPTION asks for (Depends, Imports, LinkingTo,
# Suggests) that is missing or too old, from the repositories R is configured
# with. With --dev it also installs the tools that regenerate man/ and
# NAMESPACE; with --site, what the pkgdown site needs (Config/Needs/website).
args <- commandArgs(trailingOnly = TRUE)
desc <- read.dcf("DESCRIPTION")
fields <- c("Depends", "Imports", "LinkingTo", "Suggests", if ("--site" %in% args) "Config/Needs/website")
fields <- intersect(fields, colnames(desc))
entries <- trimws(unlist(strsplit(desc[1, fields], ",")))
entries <- entries[nzchar(entries)]
names <- trimws(sub("\\(.*$", "", entries))
minimum <- ifelse(grepl(">=", entries), trimws(sub(".*>=\\s*([^)]*)\\).*", "\\1", entries)), NA)
if ("--dev" %in% args) {
  names <- c(names, "roxygen2")
  minimum <- c(minimum, NA)
}
keep <- !(names %in% c("R", rownames(installed.packages(priority = "base"))))
names <- names[keep]
minimum <- minimum[keep]

is_satisfied <- function(name, min_version) {
  if (!requireNamespace(name, quietly = TRUE)) return(FALSE)
  # The version in the library, not that of a namespace loaded before an upgrade.
  is.na(min_version) || utils::packageVersion(name, lib.loc = .libPaths()) >= min_version
}
missing <- names[!mapply(is_satisfied, names, minimum)]
if (length(missing) > 0) {
  message("Installing: ", paste(missing, collapse = ", "))
  cores <- max(1L, parallel::detectCores())
  # Parallel make inside each package as well: highs compiles the HiGHS
  # solver, about 15 minutes on one core.
  if (!nzchar(Sys.getenv("MAKEFLAGS"))) Sys.setenv(MAKEFLAGS = paste0("-j", cores))
  utils::install.packages(missing, Ncpus = cores)
}
still_missing <- names[!mapply(is_satisfied, names, minimum)]
if (length(still_missing) > 0) {
  stop("could not install: ", paste(still_missing, collapse = ", "), call. = FALSE)
}
