# Reads an R CMD check directory: fails on any ERROR or WARNING, and prints
# the testthat counts as "N passed, N failed".
check_dir <- commandArgs(trailingOnly = TRUE)[1]
log <- readLines(file.path(check_dir, "00check.log"), warn = FALSE)
status <- grep("^Status:", log, value = TRUE)
cat(status, "\n")
test_output <- file.path(check_dir, "tests", "testthat.Rout")
if (!file.exists(test_output)) test_output <- paste0(test_output, ".fail")
counts <- grep("\\[ FAIL [0-9]+ \\| WARN [0-9]+ \\| SKIP [0-9]+ \\| PASS [0-9]+ \\]",
               readLines(test_output, warn = FALSE), value = TRUE)
if (length(counts) == 0L) stop("no testthat summary in ", test_output, call. = FALSE)
number <- function(label) as.integer(sub(sprintf(".*%s ([0-9]+).*", label), "\\1", counts[length(counts)]))
cat(sprintf("%d passed, %d failed, %d skipped\n", number("PASS"), number("FAIL"), number("SKIP")))
if (length(status) != 1L || grepl("ERROR|WARNING", status)) {
  stop("R CMD check reported: ", status, call. = FALSE)
}
