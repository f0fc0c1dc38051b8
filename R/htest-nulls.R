# The null distributions of the kernel tests. Each statistic is n times a
# squared norm of a centered mean of feature products, so that under the
# null hypothesis it tends to a weighted sum of chi-squares with one degree
# of freedom each, the weights being the eigenvalues of the covariance of
# what is averaged (for independence, products of the two variables'
# covariance eigenvalues). The weights come from D x D covariances of the
# features, never from an n x n matrix.

test_methods <- c("gamma", "chi2_mixture", "permutation")

# The p-value of `statistic` under sum_k weights[k] chi2_1 by `method`:
# "gamma" matches the mixture's mean and variance (Gretton et al. 2008),
# "chi2_mixture" computes its upper tail by Davies' (1980) algorithm
# (CompQuadForm) with
# the largest weights and the others' sum as its mean and a normal term of
# their variance. `power_sums` (sum w, sum w^2) may replace `weights` for
# the gamma approximation, whose moments they are.
mixture_p_value <- function(statistic, method, weights = NULL, power_sums = c(sum(weights), sum(weights^2))) {
  if (method == "gamma") {
    mean <- power_sums[1L]
    variance <- 2 * power_sums[2L]
    if (!(mean > 0) || !(variance > 0)) return(1)
    return(stats::pgamma(statistic, shape = mean^2 / variance, scale = variance / mean, lower.tail = FALSE))
  }
  weights <- sort(weights[weights > 0], decreasing = TRUE)
  if (length(weights) == 0L) return(1)
  kept <- seq_len(min(length(weights), mixture_terms))
  rest <- weights[-kept]
  tail <- chi2_mixture_tail(statistic - sum(rest), weights[kept], sqrt(2 * sum(rest^2)))
  min(1, max(0, tail))
}

# The weights Davies' algorithm sums one by one; smaller ones enter through
# their sum and a normal term (their sum of chi-squares is nearly normal).
mixture_terms <- 500L

chi2_mixture_tail <- function(q, weights, sigma) {
  # Davies' accuracy is absolute: 1e-9 resolves p-values far below any level.
  result <- CompQuadForm::davies(q, weights, sigma = sigma, lim = 1e6, acc = 1e-9)
  if (result$ifault != 0L) {
    fail("The chi-square mixture's tail could not be computed to 1e-9 (Davies' algorithm: fault %d); use method = \"gamma\" or \"permutation\".",
         result$ifault, class = "core")
  }
  result$Qq
}

# The permutation p-value (1 + #{T_b >= T}) / (1 + B), which is exact (never
# below the level under the null) for any B.
permutation_p_value <- function(statistic, permuted) (1 + sum(permuted >= statistic)) / (1 + length(permuted))

# The eigenvalues of a symmetric covariance, negative rounding set to 0.
covariance_eigenvalues <- function(covariance) {
  values <- eigen(covariance, symmetric = TRUE, only.values = TRUE)$values
  pmax(values, 0)
}

check_test_method <- function(method) check_choice(method, test_methods, "method")

# `B`, the number of permutations: 1 to 1e6.
check_permutations <- function(B) check_count(B, "B", max = 1e6)
