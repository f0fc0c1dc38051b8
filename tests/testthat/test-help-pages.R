# An unescaped % starts an Rd comment and silently cuts a help page short.
# Every page's description, details and value, and every argument, must
# render whole, which here means ending with a full stop, with as many
# closing as opening quotes (a cut inside code leaves one open). The package
# page's details list its authors.

rendered_sections <- function(rd) {
  text <- utils::capture.output(tools::Rd2txt(rd, options = list(underline_titles = FALSE)))
  headings <- grep("^[A-Z][A-Za-z ]+:$", text)
  stats::setNames(lapply(seq_along(headings), function(i) {
    end <- if (i < length(headings)) headings[i + 1L] - 1L else length(text)
    trimws(paste(trimws(text[seq.int(headings[i] + 1L, length.out = max(0L, end - headings[i]))]), collapse = " "))
  }), sub(":$", "", text[headings]))
}

test_that("every help page renders whole", {
  db <- tools::Rd_db("askrff")
  expect_gt(length(db), 25)
  for (page in names(db)) {
    sections <- rendered_sections(db[[page]])
    expect_false(is.null(sections[["Description"]]))
    checked <- c("Description", if (!grepl("-package", page)) "Details", "Value")
    for (name in intersect(checked, names(sections))) {
      text <- sections[[name]]
      count <- function(pattern) lengths(regmatches(text, gregexpr(pattern, text)))
      whole <- grepl("[.]\\)?$", text) && count("\u2018") == count("\u2019")
      expect(whole, sprintf("%s: %s is cut short: '...%s'", page, name, substr(text, nchar(text) - 60, nchar(text))))
    }
    arguments <- db[[page]][vapply(db[[page]], attr, "", "Rd_tag") == "\\arguments"]
    for (item in unlist(lapply(arguments, function(a) a[vapply(a, attr, "", "Rd_tag") == "\\item"]), recursive = FALSE)) {
      words <- trimws(paste(unlist(item[[2L]]), collapse = ""))
      expect(grepl("[.]\\)?$", words), sprintf("%s: argument %s is cut short: '%s'", page, unlist(item[[1L]]), words))
    }
  }
})
