# Dense linear algebra in the core rather than R's LAPACK, so that a user's
# interrupt stops it within a second.

# eigen(A, symmetric = TRUE) from A's lower triangle: values decreasing and,
# unless `only_values`, the eigenvectors as the columns of `vectors`.
symmetric_eigen <- function(A, only_values = FALSE) {
  core(.cpp_symmetric_eigen(A, !only_values, eigen_progress(nrow(A))))
}

# For progressr, a function the core calls with the percents of an
# eigendecomposition of order n it has gained; NULL below order 512, which
# takes a fraction of a second, or without progressr. The progress belongs
# to the caller's frame (progress_of()).
eigen_progress <- function(n, envir = parent.frame()) {
  if (n < 512L || !requireNamespace("progressr", quietly = TRUE)) return(NULL)
  progress <- progress_of(100L, envir)
  function(amount) progress$add("eigendecomposition", amount)
}

# The largest singular value of A, as svd(A)$d[1L].
largest_singular_value <- function(A) core(.cpp_spectral_norm(A))
