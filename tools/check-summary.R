# Reads an R CMD check directory: fails on any ERROR or WARNING, and prints
# the testthat counts as "N passed, N failed" and then the failed tests, so
# that the end of the log says what broke.
check_dir <- commandArgs(trailingOnly = TRUE)[1]
log_file <- file.path(check_dir, "00check.log")
if (!file.exists(log_file)) stop("R CMD check left no log in ", check_dir, call. = FALSE)
log <- readLines(log_file, warn = FALSE)
status <- grep("^Status:", log, value = TRUE)
problems <- grep("\\.\\.\\. (ERROR|WARNING)$", log)
for (i in problems) cat(log[i:min(length(log), i + 30L)], sep = "\n")
cat(status, "\n")
test_output <- file.path(check_dir, "tests", "testthat.Rout")
if (!file.exists(test_output)) test_output <- paste0(test_output, ".fail")
lines <- if (file.exists(test_output)) readLines(test_output, warn = FALSE) else character()
counts <- grep("\\[ FAIL [0-9]+ \\| WARN [0-9]+ \\| SKIP [0-9]+ \\| PASS [0-9]+ \\]", lines, value = TRUE)
if (length(counts) > 0L) {
  number <- function(label) as.integer(sub(sprintf(".*%s ([0-9]+).*", label), "\\1", counts[length(counts)]))
  cat(sprintf("%d passed, %d failed, %d skipped\n", number("PASS"), number("FAIL"), number("SKIP")))
}
failed <- grep("^== Failed tests|^\u2550\u2550 Failed tests", lines)
if (length(failed) > 0L) {
  end <- grep("\\[ FAIL [0-9]+", lines)
  end <- if (length(end) > 0L) max(end) else length(lines)
  cat("\nFailed tests (", test_output, "):\n", sep = "")
  cat(lines[failed[1L]:end], sep = "\n")
} else if (length(counts) == 0L && length(lines) > 0L) {
  cat("\nEnd of ", test_output, ":\n", sep = "")
  cat(utils::tail(lines, 60L), sep = "\n")
}
if (length(status) != 1L || grepl("ERROR|WARNING", status)) {
  stop("R CMD check reported: ", if (length(status) == 1L) status else "no status", call. = FALSE)
}
if (length(counts) == 0L) stop("no testthat summary in ", test_output, call. = FALSE)
