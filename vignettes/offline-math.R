# The vignettes' formulas render with no network: KaTeX, which R itself ships
# for its help pages (R >= 4.2, in R.home("doc")/html/katex), is embedded in
# the page as data URIs, its main fonts included, and typesets the \( \) and
# $$ $$ that the Markdown renderer leaves in the text. Where R has no KaTeX
# the formulas stay readable TeX. The page template (offline.html) leaves out
# the renderer's own scripts, which would come from a CDN.
offline_math <- function() {
  katex <- file.path(R.home("doc"), "html", "katex")
  if (!file.exists(file.path(katex, "katex.js"))) return(invisible())
  data_uri <- function(bytes, type) paste0("data:", type, ";base64,", xfun::base64_encode(bytes))
  read_bytes <- function(path) readBin(path, "raw", file.size(path))
  css <- rawToChar(read_bytes(file.path(katex, "katex.css")))
  # Each @font-face keeps one source, its woff2 file embedded, for the fonts
  # the formulas here use; the others are dropped and fall back to the
  # reader's fonts.
  used <- c("AMS-Regular", "Main-Bold", "Main-Italic", "Main-Regular", "Math-Italic",
            "Size1-Regular", "Size2-Regular", "Size3-Regular", "Size4-Regular")
  lines <- strsplit(css, "\n")[[1]]
  sources <- grep("^\\s*src: url\\(fonts/", lines)
  font <- sub("^.*url\\(fonts/KaTeX_([A-Za-z0-9-]+)\\.woff2\\).*$", "\\1", lines[sources])
  lines[sources] <- vapply(font, function(name) {
    file <- file.path(katex, "fonts", sprintf("KaTeX_%s.woff2", name))
    if (!name %in% used || !file.exists(file)) return("")
    sprintf("  src: url(%s) format('woff2');", data_uri(read_bytes(file), "font/woff2"))
  }, "")
  css <- paste(lines, collapse = "\n")
  render <- '
document.addEventListener("DOMContentLoaded", function () {
  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), nodes = [];
  while (walker.nextNode()) {
    var node = walker.currentNode;
    if (!node.parentNode.closest("pre, code, script, style") && /\\\\\\(|\\$\\$/.test(node.nodeValue)) nodes.push(node);
  }
  nodes.forEach(function (node) {
    var text = node.nodeValue, pattern = /\\$\\$([\\s\\S]+?)\\$\\$|\\\\\\(([\\s\\S]+?)\\\\\\)/g;
    var out = document.createDocumentFragment(), last = 0, match;
    while ((match = pattern.exec(text))) {
      var display = match[1] !== undefined, box = document.createElement(display ? "div" : "span");
      out.appendChild(document.createTextNode(text.slice(last, match.index)));
      katex.render(display ? match[1] : match[2], box, {displayMode: display, throwOnError: false});
      out.appendChild(box);
      last = pattern.lastIndex;
    }
    out.appendChild(document.createTextNode(text.slice(last)));
    node.parentNode.replaceChild(out, node);
  });
});'
  # Everything as base64 text run by a script: the Markdown renderer would
  # take a `$` for mathematics and an `@` for a cross-reference, and
  # replaces links to data URIs.
  script <- function(code) sprintf('<script>eval(atob("%s"));</script>\n', xfun::base64_encode(charToRaw(code)))
  style <- sprintf('var style = document.createElement("style"); style.textContent = atob("%s"); document.head.appendChild(style);',
                   xfun::base64_encode(charToRaw(css)))
  cat(script(style), script(rawToChar(read_bytes(file.path(katex, "katex.js")))), script(render), sep = "")
}
