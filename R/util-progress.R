# Progress through progressr, for work whose number of steps is only
# expected: a scale search stops when its optimizer does, a function chunk
# source when it returns NULL. progressr needs a finite count and warns at
# every update past it, so updates past the expected count but one carry
# their message without a step.
#
# progressr's handlers follow one progressor at a time: a second one made
# while the first is under way ends the first, whose later updates are then
# refused with a warning each (a scale search's candidates, each of whose
# passes made its own). So the first progress made owns the only
# progressor until its frame exits or it is done, and progress made within
# its work (a pass within a search, an eigendecomposition within a pass)
# reports its messages through that one, without steps.
progress_owner <- new.env(parent = emptyenv())

# list(step(message), add(message, amount), done()): step() reports one
# step, add() `amount` steps, done() fills the bar. Without progressr all do
# nothing. The progressor belongs to the caller's frame (`envir`, a
# function's: on.exit() needs one), as progressr::progressor()'s does, until
# that frame exits or the bar is full.
progress_of <- function(expected, envir = parent.frame()) {
  if (!requireNamespace("progressr", quietly = TRUE)) {
    return(list(step = function(message) invisible(NULL), add = function(message, amount) invisible(NULL),
                done = function() invisible(NULL)))
  }
  outer <- progress_owner$progress
  if (!is.null(outer)) {
    return(list(step = function(message) outer(message, amount = 0L),
                add = function(message, amount) outer(message, amount = 0L), done = function() invisible(NULL)))
  }
  expected <- max(1L, as.integer(expected))
  progress <- progressr::progressor(steps = expected, envir = envir)
  progress_owner$progress <- progress
  release <- function() if (identical(progress_owner$progress, progress)) progress_owner$progress <- NULL
  # as withr::defer() does: run when the owner's frame exits, even by an error
  do.call(base::on.exit, list(as.call(list(release)), add = TRUE), envir = envir)
  taken <- 0L
  # up to `left` of the steps not yet taken; a full bar is done, and the
  # work after it within the same frame makes its own
  add <- function(message, amount, left = expected - taken) {
    amount <- max(0L, min(as.integer(amount), left))
    taken <<- taken + amount
    progress(message, amount = amount)
    if (taken >= expected) release()
  }
  list(step = function(message) add(message, 1L, expected - 1L - taken), add = add, done = function() {
    progress(amount = expected - taken)
    taken <<- expected
    release()
  })
}
