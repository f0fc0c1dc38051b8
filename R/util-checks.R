# Argument validation. Every public function checks its arguments here before
# any C++ runs; each message names the argument and the rule it broke.

# One of a few words: the first is the default when the argument is left as
# its vector of choices. Unlike match.arg(), the message names the argument.
check_choice <- function(value, choices, name) {
  if (identical(value, choices)) return(choices[[1L]])
  if (!is.character(value) || length(value) != 1L || is.na(value) || !value %in% choices) {
    fail("`%s` must be one of %s.", name, paste0('"', choices, '"', collapse = ", "))
  }
  value
}

is_single_number <- function(x) is.numeric(x) && !is.object(x) && length(x) == 1L && !is.na(x)

# A matrix whose dimensions match its length: one read back from a damaged
# file can claim more rows than it holds, and reading them would leave its
# memory.
is_matrix <- function(x) is.matrix(x) && length(x) == prod(as.double(dim(x)))

check_flag <- function(x, name) {
  if (!is.logical(x) || is.object(x) || length(x) != 1L || is.na(x)) fail("`%s` must be TRUE or FALSE.", name)
  x
}

check_string <- function(x, name) {
  if (!is.character(x) || is.object(x) || length(x) != 1L || is.na(x)) fail("`%s` must be a single string.", name)
  x
}

check_positive_number <- function(x, name) {
  if (!is_single_number(x) || !is.finite(x) || x <= 0) {
    fail("`%s` must be a single positive finite number.", name)
  }
  as.double(x)
}

check_count <- function(x, name, max = .Machine$integer.max) {
  if (!is_single_number(x) || !is.finite(x) || x < 1 || x != round(x)) {
    fail("`%s` must be a single positive whole number.", name)
  }
  if (x > max) fail("`%s` must be at most %s.", name, format_count(max))
  as.integer(x)
}

# The expected kernels of random periodic features have Gram matrices only.
check_has_measure <- function(kernel) {
  if (!is.null(kernel$base)) {
    fail("`kernel` is an expected kernel of random periodic features, which has no spectral measure to sample; use the original %s.",
         kernel_label(kernel$base))
  }
  kernel
}

# A vector of per-coordinate values, or one value for every coordinate.
check_coordinates <- function(x, name) {
  if (!is.numeric(x) || is.object(x) || length(x) < 1L || anyNA(x) || any(!is.finite(x))) {
    fail("`%s` must be a numeric vector of finite values (one per coordinate, or a single value for all).", name)
  }
  as.double(x)
}

# Length scales: one positive value per coordinate, or one for all.
check_scales <- function(x, name) {
  if (!is.numeric(x) || is.object(x) || length(x) < 1L || anyNA(x) || any(!is.finite(x)) || any(x <= 0)) {
    fail("`%s` must be positive finite numbers: one per coordinate, or a single value for all.", name)
  }
  # one scale per coordinate keeps the coordinates' names (a scale search
  # names them by the data's columns)
  scales <- as.double(x)
  if (length(x) > 1L) names(scales) <- names(x)
  scales
}

# Data: a numeric matrix (or a data frame of numeric columns) with one row per
# observation, finite values, and `d` columns when `d` is given.
check_data <- function(x, name, d = NULL) as_condition_class("data", {
  if (isS4(x) && methods::is(x, "Matrix")) x <- as.matrix(x)
  if (is.data.frame(x)) {
    numeric_columns <- vapply(x, is.numeric, logical(1))
    if (!all(numeric_columns)) {
      fail("`%s` must have numeric columns only; column %s is not numeric.", name,
           names(x)[which(!numeric_columns)[1L]])
    }
    x <- as.matrix(x)
  }
  if (!is_matrix(x) || !is.numeric(x)) fail("`%s` must be a numeric matrix or data frame.", name)
  if (nrow(x) < 1L) fail("`%s` must have at least one row.", name)
  if (ncol(x) < 1L) fail("`%s` must have at least one column.", name)
  if (anyNA(x)) fail("`%s` must not contain NA or NaN.", name)
  if (any(is.infinite(x))) fail("`%s` must not contain infinite values.", name)
  if (!is.null(d) && ncol(x) != d) fail("`%s` must have %d columns, not %d.", name, d, ncol(x))
  storage.mode(x) <- "double"
  x
})

# The projections w'x of the data must stay finite, or their cosines are NaN:
# |w'x| <= d max|w| max|x|. Far below overflow they are only imprecise, which
# the papers' scaling of the data (and the kernel's bandwidth) avoids.
check_projections <- function(x, omega, name) {
  bound <- ncol(x) * max(abs(omega)) * max(abs(x))
  if (!is.finite(bound) || bound > 1e300) {
    fail("`%s` has entries up to %s and the map's frequencies reach %s, so the projections w'x overflow; rescale the data (and the kernel's length scale with it).",
         name, format(max(abs(x)), digits = 3), format(max(abs(omega)), digits = 3), class = "data")
  }
  invisible(x)
}

# Fails before allocating when a result of rows x cols doubles, with the
# intermediates of `extra` bytes the computation holds beside it, cannot fit:
# R matrices need both dimensions below 2^31, and the bytes must be available.
check_output_size <- function(rows, cols, what, extra = 0) {
  if (rows > .Machine$integer.max || cols > .Machine$integer.max) {
    fail("%s would be %s x %s; R matrices allow at most %s rows and columns.", what,
         format_count(rows), format_count(cols), format_count(.Machine$integer.max), class = "too_large")
  }
  bytes <- 8 * as.double(rows) * as.double(cols) + extra
  # Asking the system costs more than a small result could save.
  if (bytes < 2^26) return(invisible(bytes))
  available <- available_memory()
  if (!is.na(available) && bytes > available) {
    fail("%s (%s x %s) needs %s of memory with its intermediates, but only %s is available.", what,
         format_count(rows), format_count(cols),
         format_bytes(bytes), format_bytes(available), class = "too_large")
  }
  invisible(bytes)
}

# The bytes the system can give a new allocation without swapping, as the ps
# package reads them on each OS: MemAvailable of /proc/meminfo on Linux, the
# free and inactive pages of host_statistics() on macOS, the available
# physical memory of GlobalMemoryStatusEx() on Windows. NA where ps cannot
# tell (another OS, or a sandbox that hides the figures); the guard then
# leaves the allocation to decide.
available_memory <- function() {
  bytes <- tryCatch(ps::ps_system_memory()$avail, error = function(e) NULL)
  if (!is.numeric(bytes) || length(bytes) != 1L || !is.finite(bytes) || bytes <= 0) return(NA_real_)
  as.double(bytes)
}

format_count <- function(n) format(n, big.mark = ",", scientific = FALSE, trim = TRUE)

format_bytes <- function(bytes) format(structure(bytes, class = "object_size"), units = "auto")
