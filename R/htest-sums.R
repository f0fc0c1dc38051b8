# The sums every kernel test starts from: the features of its variables'
# maps side by side, [f_1(x_1), ..., f_k(x_k)], summed over the rows by the
# core in one pass (.cpp_joint_cross_products: their sum and the lower
# triangle of their cross-products, about the first row's features so that
# centering later does not cancel), for data in memory or a chunk at a
# time. A part given as a number of columns passes data through unchanged.

# The features of one row of `x` (the first), the shift of every sum.
feature_shift <- function(parts, x, n_threads) {
  row <- x[1L, , drop = FALSE]
  unlist(lapply(seq_along(parts), function(i) {
    columns <- part_columns(parts, i)
    values <- row[, columns, drop = FALSE]
    if (is.numeric(parts[[i]])) values else rff_features(parts[[i]], values, n_threads = n_threads)
  }))
}

# The columns of x part i reads.
part_columns <- function(parts, i) {
  widths <- vapply(parts, function(part) if (is.numeric(part)) as.integer(part) else as.integer(part$d), 0L)
  sum(widths[seq_len(i - 1L)]) + seq_len(widths[i])
}

feature_sums <- function(parts, x, shift, n_threads) {
  sums <- core(.cpp_joint_cross_products(parts, x, rep(1, nrow(x)), shift, n_threads))
  list(n = sums$weight, sum = sums$z_sum, cross = sums$zz)
}

add_feature_sums <- function(total, sums) {
  if (is.null(total)) return(sums)
  list(n = total$n + sums$n, sum = total$sum + sums$sum, cross = total$cross + sums$cross)
}

# The features' mean and covariance (divided by n) from their sums.
feature_moments <- function(sums, shift) {
  mean <- sums$sum / sums$n
  cross <- sums$cross
  cross[upper.tri(cross)] <- t(cross)[upper.tri(cross)]
  list(n = sums$n, mean = shift + mean, covariance = cross / sums$n - tcrossprod(mean))
}

# The columns of the joint features that belong to map i.
feature_block <- function(parts, i) {
  widths <- vapply(parts, function(part) if (is.numeric(part)) as.integer(part) else 2L * ncol(part$omega), 0L)
  sum(widths[seq_len(i - 1L)]) + seq_len(widths[i])
}

# A variable's features centered at their mean, held for the permutations
# (n x D doubles, checked against the memory available).
centered_features <- function(map, x, mean, n_threads, what) {
  check_output_size(nrow(x), length(mean), what)
  z <- rff_features(map, x, n_threads = n_threads)
  z - by_column(mean, z)
}
