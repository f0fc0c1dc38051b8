# What every model fit on features does before and between its sums: read
# the first chunk, fix the map, the standardization and the response's
# encoding from it, check the memory, and run passes over the data. The
# models (R/model-ridge.R, R/model-glm.R) differ in what a chunk is encoded
# to (`encode`), what a pass sums and how the sums are solved.

# The setup of a fit on the chunks of `data` (list(source, streamed, what),
# one chunk for data in memory, and the `fields` every chunk has, x and y
# unless it says "x"): `map_of(x, what)` draws or checks the map
# for the first chunk's standardized rows x; `encode(chunk, index, arg, model, response)`
# checks and encodes a chunk (`arg` NULL for data in memory, `response`
# NULL for the first chunk, which sets it); `memory` counts the D x D
# matrices the fit holds at once.
model_setup <- function(data, map_of, standardize, fun, n_threads, memory, encode) {
  threads_given <- !is.null(n_threads)
  n_threads <- resolve_threads(n_threads)
  streamed <- data$streamed
  reader <- chunk_reader(data$source, if (streamed) "x" else "x and y")
  first <- reader()
  if (is.null(first)) fail("`x` returned no chunk: a chunk source must give at least one chunk before NULL.")
  fields <- if (is.null(data$fields)) c("x", "y") else data$fields
  columns <- if (streamed) check_chunk(first$chunk, first$index, "x", NULL, fields)$x else check_data(first$chunk$x, "x")
  first$chunk$x <- columns
  scaling <- column_scaling(standardize, if (streamed) NULL else columns)
  model <- fit_map(map_of(apply_scaling(columns, scaling), data$what), fun)
  model$scaling <- scaling
  model$coordinates <- colnames(columns)
  check_output_size(model$columns, model$columns, "Z'Z of the features", extra = memory * 8 * as.double(model$columns)^2)
  start <- encode(first$chunk, first$index, if (streamed) "x" else NULL, model, NULL)
  unit <- weight_unit(start$w)
  start$given_w <- start$w
  start$w <- start$w / unit
  list(data = data, streamed = streamed, reader = reader, first = first, start = start, model = model,
       encode = function(...) {
         prepared <- encode(...)
         prepared$w <- prepared$w / unit
         prepared
       }, weight_unit = unit, n_threads = n_threads,
       # a worker of a parallel plan shares its machine with others
       worker_threads = if (streamed && chunks_distributed() && !threads_given) 1L else n_threads)
}

# The map and, for random periodic maps, the function of its features.
fit_map <- function(map, fun) {
  map <- validate_map(map)
  list(map = map, fun = ridge_function(map, fun), d = map$d, columns = map_columns(map))
}

# A function running one pass over the data of `setup`:
# `pass(work, reduce, model)` calls work(chunk) on every chunk (on the
# workers of the user's future plan for a chunk source) and reduces the
# results in chunk order. The first pass goes on from the chunk already
# read; later ones read the source again, so a function source must start
# again after returning NULL. The first chunk keeps its encoding; each chunk
# gets `first_row`, the position of its first row in the data (counted from
# 0), and every pass must give the rows of the first. `caller` names the
# fitting function in the error that says so.
model_passes <- function(setup, caller) {
  data <- setup$data
  streamed <- setup$streamed
  steps <- if (!streamed) 1L else if (is.function(data$source)) NA else length(data$source)
  passes <- 0L
  rows <- NULL
  function(work, reduce, model = setup$model) {
    passes <<- passes + 1L
    pass <- passes
    next_chunk <- if (pass == 1L) {
      pending_first <- TRUE
      function() {
        if (pending_first) {
          pending_first <<- FALSE
          return(setup$first)
        }
        setup$reader()
      }
    } else {
      chunk_reader(data$source, if (streamed) "x" else "x and y")
    }
    offset <- 0
    prepare <- function(chunk, index) {
      prepared <- if (index == setup$first$index) setup$start else {
        setup$encode(chunk, index, "x", model, setup$start$response)
      }
      prepared$first_row <- offset
      offset <<- offset + nrow(prepared$x)
      prepared
    }
    # data already in memory stay here, on this process's threads
    sums <- map_reduce_chunks(next_chunk, prepare, work, reduce, steps = steps, distribute = streamed,
                              unit = sprintf("pass %d, chunk", pass))
    if (is.null(rows)) rows <<- offset
    if (offset != rows) {
      fail("`x` gave %s rows on pass %d but %s on the first: %s reads the data once per pass, so a function chunk source must start again from its first chunk after returning NULL and give the same rows.",
           format_count(offset), pass, format_count(rows), caller, class = "data")
    }
    sums
  }
}

# Shifts that make centering safe: the first row's features and response,
# typical values fixed before any sum, the same however the rows are cut
# into chunks.
model_shifts <- function(model, start, n_threads) {
  input <- core_input(model$map, start$x[1L, , drop = FALSE], "left", n_threads)
  z <- core(.cpp_map_features(input$map, input$x, "left", model$fun, n_threads))
  list(z = z[1L, ], y = start$y[1L, ])
}

# b0 + Z(x) B of a fit, a block of rows at a time (rows by the `names` of
# its responses or classes); `maker` names the function to fit it again
# with when its coefficients are too large for these data.
fit_scores <- function(fit, x, n_threads, maker, names) {
  input <- core_input(fit$map, x, "left", n_threads)
  scores <- core(.cpp_feature_products(input$map, fit$fun, input$x, t(fit$coefficients), n_threads))
  scores <- sweep(scores, 2L, fit$intercept, "+")
  if (!all(is.finite(scores))) {
    fail("The predictions overflow: the fit's `coefficients` (up to %s) or `intercept` are too large for these features; fit the model again with %s.",
         format(max(abs(fit$coefficients)), digits = 3), maker)
  }
  dimnames(scores) <- list(rownames(x), names)
  scores
}

add_sums <- function(total, sums) {
  if (is.null(total)) return(sums)
  for (name in names(total)) total[[name]] <- total[[name]] + sums[[name]]
  total
}

check_no_dots <- function(...) {
  if (...length() > 0L) {
    given <- names(list(...))
    fail("Unknown argument%s: %s.", if (...length() > 1L) "s" else "",
         if (is.null(given)) "an unnamed value" else paste(sprintf("`%s`", given[nzchar(given)]), collapse = ", "))
  }
}

check_lambda <- function(lambda) {
  if (is.null(lambda)) return(NULL)
  if (!is.numeric(lambda) || is.object(lambda) || length(lambda) < 1L || anyNA(lambda) ||
      any(!is.finite(lambda)) || any(lambda <= 0)) {
    fail("`lambda` must be NULL or positive finite numbers.")
  }
  if (anyDuplicated(lambda) > 0L) fail("`lambda` must hold distinct values; %s is given twice.", format(lambda[anyDuplicated(lambda)]))
  as.double(lambda)
}
