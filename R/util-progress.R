# Progress through progressr, for work whose number of steps is only
# expected: a scale search stops when its optimizer does, a function chunk
# source when it returns NULL. progressr needs a finite count and warns at
# every update past it, so updates past the expected count but one carry
# their message without a step.

# list(step(message), done()): step() reports one step, done() fills the
# bar. Without progressr both do nothing. The progressor belongs to the
# caller's frame (`envir`), as progressr::progressor()'s does.
progress_of <- function(expected, envir = parent.frame()) {
  if (!requireNamespace("progressr", quietly = TRUE)) {
    return(list(step = function(message) invisible(NULL), done = function() invisible(NULL)))
  }
  expected <- max(1L, as.integer(expected))
  progress <- progressr::progressor(steps = expected, envir = envir)
  taken <- 0L
  list(step = function(message) {
    amount <- if (taken < expected - 1L) 1L else 0L
    taken <<- taken + amount
    progress(message, amount = amount)
  }, done = function() {
    progress(amount = expected - taken)
    taken <<- expected
  })
}
