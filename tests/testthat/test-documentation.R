# Documentation cites papers by authors and year, never by an internal working
# paper ("SPEC", "SPEC.md") or an internal paper number (000 to 004 standing
# alone, not inside a number such as 0.001, 1,000, 10 000 or 1000). This file
# holds the pattern, so the scans leave it out.

internal_reference <- paste0(
  "\\bSPEC\\b",
  # a hex colour such as #000 in a vignette's HTML is no paper number
  "|(?<![[:alnum:]_#])(?<![0-9][., ])00[0-4](?![[:alnum:]_])(?![.,][0-9])"
)

# "where:line: text" for every line of `lines` with an internal reference.
offending_lines <- function(lines, where) {
  hit <- grep(internal_reference, lines, perl = TRUE)
  sprintf("%s:%d: %s", where, hit, trimws(lines[hit]))
}

expect_no_internal_references <- function(found, what) {
  expect(length(found) == 0L,
         sprintf("%s cite an internal document or a paper by number; cite authors and year:\n%s",
                 what, paste(utils::head(found, 50L), collapse = "\n")))
}

# The lines of a text file; for HTML, the text a reader sees, with scripts,
# styles (embedded fonts and KaTeX) and tags blanked, keeping line numbers.
readable_lines <- function(path) {
  lines <- readLines(path, warn = FALSE, encoding = "UTF-8")
  if (!grepl("\\.html?$", path)) return(lines)
  text <- paste(lines, collapse = "\n")
  blocks <- gregexpr("(?s)<(script|style)\\b.*?</\\1>", text, perl = TRUE)
  regmatches(text, blocks) <- list(vapply(regmatches(text, blocks)[[1L]], function(block) {
    strrep("\n", sum(gregexpr("\n", block, fixed = TRUE)[[1L]] > 0L))
  }, ""))
  gsub("<[^<>\n]*>", " ", strsplit(text, "\n", fixed = TRUE)[[1L]])
}

scan_files <- function(paths, root = NULL) {
  paths <- paths[basename(paths) != "test-documentation.R"]
  unlist(lapply(paths, function(path) {
    where <- if (is.null(root)) path else substring(path, nchar(root) + 2L)
    offending_lines(readable_lines(path), where)
  }))
}

text_files <- function(root, directories, pattern = "\\.(R|cpp|h|hpp|c|in|md|Rmd)$") {
  unlist(lapply(file.path(root, directories), list.files, pattern = pattern, recursive = TRUE, full.names = TRUE))
}

test_that("the scan finds internal references and passes numbers", {
  lines <- c("see SPEC 1.3", "SPEC.md section 6", "001 App. E is wrong", "(003 eq. 16)", "004's eqs 10-11",
             "as in 000", "0.001", "1,000 rows", "10 000 radii", "1000 points", "x001", "#000", "SPECTRAL", "spec")
  found <- offending_lines(lines, "f")
  expect_identical(found, sprintf("f:%d: %s", 1:6, lines[1:6]))
})

test_that("help pages and DESCRIPTION cite papers by authors and year", {
  db <- tools::Rd_db("askrff")
  expect_gt(length(db), 25)
  found <- unlist(lapply(names(db), function(page) {
    rd <- strsplit(paste(as.character(db[[page]]), collapse = ""), "\n", fixed = TRUE)[[1L]]
    offending_lines(rd, file.path("man", page))
  }))
  found <- c(found, offending_lines(readLines(system.file("DESCRIPTION", package = "askrff")), "DESCRIPTION"))
  expect_no_internal_references(found, "Help pages")
})

test_that("the source's R, C++, tests, demos, README and DESCRIPTION cite papers by authors and year", {
  root <- package_source()
  skip_if(is.null(root), "the package source is not reachable")
  paths <- c(text_files(root, c("R", "src", "tests", "demo", "man-roxygen")),
             file.path(root, c("DESCRIPTION", "README.md", "inst/CITATION")))
  expect_gt(length(paths), 100)
  expect_no_internal_references(scan_files(paths[file.exists(paths)], root), "Source files")
})

test_that("NEWS cites papers by authors and year", {
  installed <- system.file("NEWS.md", package = "askrff")
  root <- package_source()
  paths <- c(if (nzchar(installed)) installed, if (!is.null(root)) file.path(root, "NEWS.md"))
  skip_if(length(paths) == 0L, "no NEWS.md")
  expect_no_internal_references(scan_files(unique(paths)), "NEWS.md")
})

test_that("vignettes cite papers by authors and year", {
  doc <- system.file("doc", package = "askrff")
  root <- package_source()
  paths <- c(if (nzchar(doc)) list.files(doc, pattern = "\\.(Rmd|R|html)$", full.names = TRUE),
             if (!is.null(root)) text_files(root, "vignettes", "\\.(Rmd|R)$"))
  skip_if(length(paths) == 0L, "neither installed nor source vignettes")
  expect_no_internal_references(scan_files(paths), "Vignettes")
})

test_that("citation('askrff') cites the package and the papers it implements", {
  entries <- expect_silent(utils::citation("askrff"))
  expect_s3_class(entries, "bibentry")
  expect_gte(length(entries), 5L)
  expect_identical(tolower(entries[[1L]]$bibtype), "manual")
  expect_match(entries[[1L]]$note, as.character(utils::packageVersion("askrff")), fixed = TRUE)
  text <- paste(expect_silent(format(entries, style = "text")), collapse = "\n")
  for (arxiv in c("2209.08461", "2006.00247", "2104.06204", "2004.06560")) {
    expect_match(text, paste0("arXiv:", arxiv), fixed = TRUE)
  }
})
