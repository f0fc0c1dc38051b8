# The test of joint independence of three or more variables (dHSIC, Pfister
# et al. 2018) on random features. With F frequencies drawn for each
# variable's kernel, the products of their complex features,
# prod_j exp(i w_jf'x_j), are the features of the product kernel at the F
# joint frequencies (w_1f, ..., w_df), whose law is the product of the
# variables' laws; so F^(d - 1) sum_f |mean prod_j zeta_j - prod_j mean
# zeta_j|^2 estimates dHSIC without bias in the kernels, and a permutation
# of each variable's rows but the first costs O(n F d).

# A list of variables (not a chunk source, not a data frame).
is_variable_list <- function(x) {
  is.list(x) && !is.data.frame(x) && !is.object(x) && !is_test_chunk_source(x)
}

joint_independence_test <- function(values, kernels, n_features, B, seeds, standardize, n_threads, data_name) {
  if (is.null(names(values)) || any(!nzchar(names(values)))) names(values) <- paste0("x", seq_along(values))
  if (!is.list(kernels) || inherits(kernels, c("askrff_kernel", "askrff_map"))) {
    kernels <- rep(list(kernels), length(values))
  }
  if (length(kernels) != length(values)) {
    fail("`kernel_x` must be one kernel or a list of one per variable (%d).", length(values))
  }
  variables <- test_variables(values)
  chosen <- Map(function(kernel, value, seed, i) {
    v <- test_map(kernel, value, n_features, seed, standardize, sprintf("kernel_x[[%d]]", i))
    if (length(unique(v$map$part)) != 1L) {
      fail("`kernel_x[[%d]]` must have a spectral measure of one part for a joint test: the product kernel's features multiply the variables' frequency by frequency.", i)
    }
    v
  }, kernels, variables, seeds[seq_along(values)], seq_along(values))
  names(chosen) <- names(values)
  frequencies <- vapply(chosen, function(v) ncol(v$map$omega), 0L)
  if (any(frequencies != frequencies[1L])) {
    fail("The variables' maps must have the same number of frequencies for a joint test; they have %s.",
         paste(frequencies, collapse = ", "))
  }
  features <- lapply(chosen, function(v) rff_features(v$map, v$x, n_threads = n_threads))
  f <- frequencies[1L]
  n <- nrow(features[[1L]])
  complex_features <- lapply(features, function(z) matrix(complex(real = z[, seq_len(f)], imaginary = z[, f + seq_len(f)]), n))
  distance <- sum(Mod(colMeans(Reduce(`*`, complex_features)) - Reduce(`*`, lapply(complex_features, colMeans)))^2)
  scale <- n * f^(length(values) - 1L)
  permuted <- core(.cpp_permuted_joint_distances(unname(features), resolve_seed(seeds[length(seeds)]), B, n_threads))
  statistic <- scale * distance
  test_result("dHSIC test of joint independence", c(ndHSIC = statistic), permutation_p_value(statistic, scale * permuted),
              c(dHSIC = statistic / n), c(n = n, variables = length(values), frequencies = f), "permutation", B,
              data_name, lapply(chosen, function(v) {
                v$x <- NULL
                v
              }), attr(variables, "dropped"))
}
