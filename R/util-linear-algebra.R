# Dense linear algebra in the core rather than R's LAPACK, so that a user's
# interrupt stops it within a second.

# eigen(A, symmetric = TRUE) from A's lower triangle: values decreasing and,
# unless `only_values`, the eigenvectors as the columns of `vectors`.
symmetric_eigen <- function(A, only_values = FALSE) {
  core(.cpp_symmetric_eigen(A, !only_values, eigen_progress(nrow(A))))
}

# For progressr, a function the core calls with the percents of an
# eigendecomposition of order n it has gained; NULL below order 512, which
# takes a fraction of a second, or without progressr. The progress
# (progress_of(), in the caller's frame) is made when the decomposition
# first reports, and ends when it is done: a fit makes this function before
# its passes, whose own progress must not report through this one.
eigen_progress <- function(n, envir = parent.frame()) {
  if (n < 512L || !requireNamespace("progressr", quietly = TRUE)) return(NULL)
  force(envir)
  progress <- NULL
  gained <- 0
  function(amount) {
    if (is.null(progress)) progress <<- progress_of(100L, envir)
    progress$add("eigendecomposition", amount)
    # a next decomposition reporting here starts a bar of its own
    gained <<- gained + amount
    if (gained >= 100) {
      progress <<- NULL
      gained <<- 0
    }
  }
}

# The largest singular value of A, as svd(A)$d[1L].
largest_singular_value <- function(A) core(.cpp_spectral_norm(A))
