# The layout the project keeps: R files of one topic, each short enough to
# read at once.

test_that("no R file is longer than 300 lines", {
  root <- package_source()
  skip_if(is.null(root), "the package source is not reachable")
  files <- list.files(file.path(root, "R"), pattern = "\\.R$", full.names = TRUE)
  expect_gt(length(files), 30)
  lengths <- vapply(files, function(f) length(readLines(f, warn = FALSE)), 1L)
  long <- lengths[lengths > 300L]
  expect(length(long) == 0L,
         sprintf("R files over 300 lines: %s", paste(sprintf("%s (%d)", basename(names(long)), long), collapse = ", ")))
})
