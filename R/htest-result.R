# What the kernel tests return, and the chunks they read.

# An "htest" as stats' tests return it, with the kernels used in `method`
# and in `kernels` (one per variable, named).
test_result <- function(name, statistic, p_value, estimate, parameter, method, B, data_name, variables,
                        dropped = 0) {
  null <- switch(method, gamma = "gamma approximation of the null",
                 chi2_mixture = "chi-square mixture null (Davies)",
                 permutation = sprintf("%s permutations", format_count(B)),
                 bartlett = "Bartlett's chi-square approximation")
  kernels <- vapply(variables, kernel_description, "")
  if (dropped > 0) data_name <- sprintf("%s (%s incomplete rows dropped)", data_name, format_count(dropped))
  structure(list(statistic = statistic, parameter = parameter, p.value = p_value, estimate = estimate,
                 method = sprintf("%s on random features, %s; kernels: %s", name, null,
                                  paste(sprintf("%s: %s", names(variables), kernels), collapse = "; ")),
                 data.name = data_name, kernels = lapply(variables, function(v) v$map$kernel)),
            class = "htest")
}

# A chunk source of a test (a function, or a list whose elements are all
# plain lists, as chunks are) as opposed to a list of variables.
is_test_chunk_source <- function(x) {
  is.function(x) || (is_chunk_source(x) && length(x) > 0L &&
                       all(vapply(x, function(e) is.list(e) && !is.data.frame(e) && !is.object(e), logical(1))))
}

# Whether `x` is a chunk source, under the rules a streamed test keeps.
test_streams <- function(x, y, method) {
  if (!is_test_chunk_source(x)) return(FALSE)
  if (!is.null(y)) fail("`y` must be NULL when `x` is a chunk source; each chunk carries its own `y`.")
  if (method == "permutation") fail("`method = \"permutation\"` needs the data in memory, not a chunk source.")
  TRUE
}

# Chunks are not standardized: their columns cannot be summarised first.
check_streamed_standardize <- function(standardize) {
  if (!is.null(standardize) && !isFALSE(standardize)) {
    fail("`standardize` must be NULL or FALSE for chunks, whose columns cannot be summarised first.")
  }
}

# A chunk with numeric matrices in its `fields`, of one row count, and of
# `columns` columns (named by field; NULL before the first chunk is read).
check_test_chunk <- function(chunk, index, fields, columns) as_condition_class("data", {
  where <- sprintf("chunk %d of `x`", index)
  if (!is.list(chunk) || is.data.frame(chunk) || !all(fields %in% names(chunk))) {
    fail("%s must be a list with elements %s.", where, paste(sprintf("`%s`", fields), collapse = " and "))
  }
  out <- lapply(stats::setNames(nm = fields), function(field) {
    value <- chunk[[field]]
    if (is.numeric(value) && is.null(dim(value))) value <- matrix(value, ncol = 1L)
    tryCatch(check_data(value, field, if (is.null(columns)) NULL else columns[[field]]),
             askrff_error = function(e) fail("%s: %s", where, conditionMessage(e)))
  })
  rows <- vapply(out, nrow, 0L)
  if (any(rows != rows[1L])) fail("%s: its %s must have the same number of rows.", where,
                                  paste(sprintf("`%s`", fields), collapse = " and "))
  out
})
