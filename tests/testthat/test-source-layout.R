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

test_that("the core's folders include only from their own layer and those below", {
  root <- package_source()
  skip_if(is.null(root), "the package source is not reachable")
  layers <- c("numerics", "laws", "kernels", "periodic", "features", "sampling", "models", "statistics")
  upward <- unlist(lapply(layers, function(layer) {
    files <- list.files(file.path(root, "src", "core", layer), pattern = "\\.(h|cpp)$", full.names = TRUE)
    unlist(lapply(files, function(f) {
      lines <- readLines(f, warn = FALSE)
      included <- regmatches(lines, regexpr("(?<=#include \"core/)[a-z_]+(?=/)", lines, perl = TRUE))
      above <- included[match(included, layers) > match(layer, layers)]
      if (length(above)) sprintf("%s/%s includes %s", layer, basename(f), paste(unique(above), collapse = ", "))
    }))
  }))
  expect(length(upward) == 0L, paste(c("upward includes:", upward), collapse = "\n"))
  expect_setequal(list.dirs(file.path(root, "src", "core"), full.names = FALSE, recursive = FALSE), layers)
})
