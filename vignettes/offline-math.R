# The vignettes' formulas are typeset with no network by KaTeX, shipped once
# for all of them in doc/katex/ (vignettes/katex/, which .install_extras
# installs beside the pages) and loaded by the page template offline.html.
# offline_math() sets a knitr hook that puts each formula the Markdown
# renderer would find ($...$ and $$...$$, found by the same
# xfun::protect_math()) in a <span class="math inline"> or
# <span class="math display">, as Pandoc marks mathematics; the template's
# script typesets those. Write formulas with dollars: CommonMark reads \( as
# an escaped parenthesis. Under pkgdown, which typesets the dollars itself,
# it does nothing.
offline_math <- function() {
  if (identical(Sys.getenv("IN_PKGDOWN"), "true")) return(invisible())
  knitr::knit_hooks$set(document = function(x) {
    token <- "askrffmathtoken"
    lines <- xfun::split_lines(x)
    prose <- seq_along(lines) %in% xfun::prose_index(lines) & nzchar(trimws(lines))
    # A formula may wrap onto the next line, as Pandoc allows, so
    # protect_math() reads each paragraph whole.
    starts <- !prose | !c(FALSE, prose[-length(prose)])
    text <- vapply(split(seq_along(lines), cumsum(starts)), function(i) {
      paragraph <- paste(lines[i], collapse = "\n")
      if (prose[i[1L]]) xfun::protect_math(paragraph, token) else paragraph
    }, "")
    text <- paste(text, collapse = "\n")
    pattern <- sprintf("(?s)`%s(.+?)%s`", token, token)
    found <- regmatches(text, gregexpr(pattern, text, perl = TRUE))[[1]]
    math <- gsub(sprintf("^`%s|%s`$", token, token), "", found)
    display <- !startsWith(math, "\\(")
    # Inline formulas come as \(...\), displayed ones as $$...$$ or a
    # \begin{...} environment, which KaTeX reads as it is.
    tex <- ifelse(display, gsub("^\\$\\$|\\$\\$$", "", math), gsub("^\\\\\\(|\\\\\\)$", "", math))
    # Every ASCII punctuation character backslash-escaped reaches the HTML
    # as itself: CommonMark then reads no emphasis, smart quote, dash, link
    # or HTML in the formula, nor the renderer a superscript or reference.
    tex <- gsub("([!-/:-@[-`{-~])", "\\\\\\1", gsub("\\s*\n\\s*", " ", tex), perl = TRUE)
    spans <- sprintf('<span class="math %s">%s</span>', ifelse(display, "display", "inline"), tex)
    regmatches(text, gregexpr(pattern, text, perl = TRUE)) <- list(spans)
    text
  })
  invisible()
}
