# The installed vignettes leave no TeX untypeset and share one KaTeX: every
# formula is in an element of class "math" (vignettes/offline-math.R), which
# the KaTeX in doc/katex/ typesets, and nothing else in the text looks like
# TeX; each page loads that KaTeX by relative address and carries no copy.

installed_vignette_pages <- function() {
  doc <- system.file("doc", package = "askrff")
  pages <- list.files(doc, pattern = "\\.html$", full.names = TRUE)
  pages[basename(pages) != "index.html"]
}

# The class test of XPath 1.0: "math" as one word of @class.
math_class <- "contains(concat(' ', normalize-space(@class), ' '), ' math ')"

tex_patterns <- c(
  "a TeX delimiter \\( \\) \\[ or \\]" = "\\\\[][()[]",
  "a $$ delimiter" = "\\$\\$",
  "a $...$ formula" = "\\$(?=\\S)[^$]*\\S\\$",
  "a TeX command" = "\\\\[A-Za-z]+",
  "a ^{ or _{" = "[\\^_]\\{",
  "a superscript caret" = "[[:alnum:])]\\^[[:alnum:](]")

excerpt <- function(text, at, length) {
  from <- max(1L, at - 30L)
  to <- min(nchar(text), at + length + 30L)
  gsub("\\s+", " ", substr(text, from, to))
}

# Text outside code, scripts, styles and the formulas that still reads as
# TeX: for each kind, its first place and how many there are.
untypeset_tex <- function(html, page) {
  outside <- sprintf(".//body//text()[not(ancestor::pre or ancestor::code or ancestor::script or ancestor::style or ancestor::*[%s])]",
                     math_class)
  texts <- xml2::xml_text(xml2::xml_find_all(html, outside))
  problems <- character()
  for (label in names(tex_patterns)) {
    hits <- regexpr(tex_patterns[[label]], texts, perl = TRUE)
    if (any(hits > 0L)) {
      first <- which(hits > 0L)[1L]
      problems <- c(problems, sprintf("%s: %s in the text, %d place(s), first: \"...%s...\"", page, label,
                                      sum(hits > 0L), excerpt(texts[first], hits[first], attr(hits, "match.length")[first])))
    }
  }
  # What KaTeX receives is the bare formula, without delimiters.
  formulas <- xml2::xml_text(xml2::xml_find_all(html, sprintf("//*[%s]", math_class)))
  bad <- formulas[!nzchar(trimws(formulas)) | grepl("^\\s*(\\$|\\\\[[(])", formulas)]
  if (length(bad) > 0L) {
    problems <- c(problems, sprintf("%s: %d math element(s) hold no bare formula, first: \"%s\"", page, length(bad), bad[1L]))
  }
  problems
}

# The page loads doc/katex/ by relative address and embeds no KaTeX of its own.
katex_problems <- function(html, page) {
  inline <- xml2::xml_text(xml2::xml_find_all(html, "//script | //style"))
  addresses <- c(inline, xml2::xml_attr(xml2::xml_find_all(html, "//script[@src]"), "src"),
                 xml2::xml_attr(xml2::xml_find_all(html, "//link[@href]"), "href"))
  problems <- character()
  for (file in c("katex/katex.min.css", "katex/katex.min.js")) {
    if (!any(grepl(file, addresses, fixed = TRUE), na.rm = TRUE)) {
      problems <- c(problems, sprintf("%s: no reference to the shared %s", page, file))
    }
  }
  # A copy shows as fonts, KaTeX's own style rules or script, or base64.
  own <- grepl("@font-face|KaTeX_|\\.katex[ {.]|katex\\.render\\s*=|data:font/|atob\\(", inline, perl = TRUE) |
    nchar(inline) > 20000L
  if (any(own)) {
    problems <- c(problems, sprintf("%s: embeds KaTeX (%d of its scripts and styles look like a copy)",
                                    page, sum(own)))
  }
  problems
}

test_that("every installed vignette leaves no TeX untypeset and uses the one shared KaTeX", {
  skip_if_not_installed("xml2")
  pages <- installed_vignette_pages()
  # Only an installation from the built tarball has them (R CMD check's does).
  skip_if(length(pages) == 0L, "installed from the source tree, without vignettes")
  problems <- character()
  for (page in pages) {
    html <- xml2::read_html(page)
    problems <- c(problems, untypeset_tex(html, basename(page)), katex_problems(html, basename(page)))
  }
  expect(length(problems) == 0L, paste(c("Vignette HTML with untypeset TeX or its own KaTeX:", problems), collapse = "\n"))
})

test_that("doc/katex holds KaTeX once, with its licence and every woff2 font its style sheet names", {
  pages <- installed_vignette_pages()
  skip_if(length(pages) == 0L, "installed from the source tree, without vignettes")
  katex <- file.path(system.file("doc", package = "askrff"), "katex")
  files <- c("katex.min.js", "katex.min.css", "LICENSE")
  expect_identical(files[!file.exists(file.path(katex, files))], character())
  skip_if_not(file.exists(file.path(katex, "katex.min.css")))
  css <- paste(readLines(file.path(katex, "katex.min.css"), warn = FALSE), collapse = "\n")
  fonts <- unique(regmatches(css, gregexpr("fonts/KaTeX_[A-Za-z0-9-]+\\.woff2", css))[[1]])
  expect_gt(length(fonts), 10L)
  expect_identical(fonts[!file.exists(file.path(katex, fonts))], character())
  copies <- list.files(system.file("doc", package = "askrff"), pattern = "^katex(\\.min)?\\.js$", recursive = TRUE)
  expect_identical(copies, "katex/katex.min.js")
})
