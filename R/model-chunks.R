# Data that arrive in chunks: a chunk source is a function of no arguments
# returning the next chunk, list(x = , y = ), and NULL at the end, or a list
# of such chunks. Each chunk's work runs where the user's future::plan()
# puts it; the results are reduced in chunk order, so they do not depend on
# the plan.

is_chunk_source <- function(x) is.function(x) || (is.list(x) && !is.data.frame(x) && !is.object(x))

# A function returning the next chunk with its number, or NULL at the end.
# A chunk that fails to arrive is reported with its number.
chunk_reader <- function(source, arg) {
  index <- 0L
  if (is.function(source)) {
    return(function() {
      index <<- index + 1L
      chunk <- tryCatch(source(), error = function(e) {
        fail("Reading chunk %d from `%s` failed: %s", index, arg, conditionMessage(e), class = "data")
      })
      if (is.null(chunk)) NULL else list(index = index, chunk = chunk)
    })
  }
  if (length(source) == 0L) fail("`%s` must hold at least one chunk.", arg)
  function() {
    index <<- index + 1L
    if (index > length(source)) NULL else list(index = index, chunk = source[[index]])
  }
}

# A chunk read back from the source: list(x = , y = ) with x of d columns
# and y with one entry or row per row of x; `fields` "x" for data without a
# response.
check_chunk <- function(chunk, index, arg, d, fields = c("x", "y")) as_condition_class("data", {
  where <- sprintf("chunk %d of `%s`", index, arg)
  if (!is.list(chunk) || is.data.frame(chunk) || !all(fields %in% names(chunk))) {
    fail("%s must be a list with %s.", where,
         if (length(fields) == 1L) "an element `x`" else "elements `x` and `y`")
  }
  x <- tryCatch(check_data(chunk$x, "x", d), askrff_error = function(e) fail("%s: %s", where, conditionMessage(e)))
  list(x = x, y = chunk$y, where = where)
})

# Whether the user's future plan has workers other than this process.
chunks_distributed <- function() {
  requireNamespace("future", quietly = TRUE) && !inherits(future::plan(), "sequential")
}

# Calls work(chunk) for every chunk of the reader, on the workers of the
# current future plan when `distribute`, future is installed and the plan is
# not sequential, and reduce(total, result) in chunk order. At most as many
# chunks as there are workers are in flight. Progress goes to progressr, a
# step per chunk, each named by `unit` and its index.
# `work` travels to the workers with its enclosing environment: make it in a
# small function of its own, never in one that holds the data.
map_reduce_chunks <- function(reader, prepare, work, reduce, steps = NA, distribute = TRUE, unit = "chunk") {
  distributed <- distribute && chunks_distributed()
  # a function source's chunks are not counted before they are read
  progress <- progress_of(if (is.na(steps)) 100L else steps)$step
  total <- NULL
  pending <- list()
  collect <- function() {
    job <- pending[[1L]]
    pending[[1L]] <<- NULL
    result <- tryCatch(future::value(job$future), error = function(e) {
      fail("Processing %s failed: %s", job$where, conditionMessage(e))
    })
    total <<- reduce(total, result)
    progress(sprintf("%s %d", unit, job$index))
  }
  repeat {
    item <- reader()
    if (is.null(item)) break
    chunk <- prepare(item$chunk, item$index)
    if (!distributed) {
      total <- reduce(total, work(chunk))
      progress(sprintf("%s %d", unit, item$index))
      next
    }
    job <- future::future(work(chunk), globals = list(work = work, chunk = chunk), packages = "askrff", seed = NULL)
    pending[[length(pending) + 1L]] <- list(future = job, index = item$index, where = chunk$where)
    if (length(pending) >= future::nbrOfWorkers()) collect()
  }
  while (length(pending) > 0L) collect()
  total
}
