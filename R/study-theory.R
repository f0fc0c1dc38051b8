# Closed-form variances of the estimators approximation_study() measures.
# The derivation is on approximation_study()'s help page, "Theory".

# The mean over pairs of the closed-form variance of one entry of K_hat for
# a method, one per number of features, or NA where there is none. Each
# method's moments are formed once; only the division by n (and the count
# variance) depends on the size.
theory_variance <- function(method, kernel, x, y, K, n_features, n_threads) {
  at_size <- theory_at_size(method, kernel, x, y, K, n_features[1L], n_threads)
  if (is.null(at_size)) return(rep(NA_real_, length(n_features)))
  # a variance that is 0 (pairs at distance 0) may come out as -1e-16
  vapply(n_features, function(n) mean(pmax(at_size(n), 0)), double(1))
}

# A function of the size giving the variance of each entry of K_hat for a
# method, or NULL where there is no closed form: a map kind with one has a
# method (rff_map's below, rpf_map's and maclaurin_map's).
theory_at_size <- function(method, kernel, x, y, K, n, n_threads) UseMethod("theory_at_size")

#' @export
theory_at_size.askrff_study_method <- function(method, kernel, x, y, K, n, n_threads) NULL

#' @export
theory_at_size.rff_map <- function(method, kernel, x, y, K, n, n_threads) {
  rff_theory_variance(method$design, x, y, K, n, n_threads)
}

#' @export
theory_at_size.rpf_map <- function(method, kernel, x, y, K, n, n_threads) rpf_theory_variance(method, kernel, x, y)

#' @export
theory_at_size.maclaurin_map <- function(method, kernel, x, y, K, n, n_threads) {
  maclaurin_theory_variance(kernel, x, y, K)
}

# Random Maclaurin: n i.i.d. columns, each with second moment
# sum_n c_n^2 M^n / q_n (maclaurin_map()'s page), less the kernel squared.
maclaurin_theory_variance <- function(kernel, x, y, K) {
  coefficients <- dot_product_series(kernel)
  law <- maclaurin_law(coefficients)
  M <- outer(rowSums(x^2), rowSums(y^2)) + 2 * tcrossprod(x, y)^2 - 2 * tcrossprod(x^2, y^2)
  second <- Reduce(`+`, Map(function(c, q, p) c^2 / q * M^p, coefficients[law$degrees + 1L], law$probabilities,
                            law$degrees))
  function(n) (second - K^2) / n
}

# Random Fourier features with i.i.d. frequencies: sum_p V_p / (n s_p) plus
# the variance of the counts, Var(sum_p N_p T_p / (n s_p)) = a'Ca with a_p =
# T_p / (n s_p) and C the covariance of the counts N_p. The core gives each
# part's moments over the pairs, T_p and S_p (V_p = S_p - T_p^2), from the
# characteristic function of its law (.cpp_part_moments), and the shares
# and C at each size (.cpp_allocation_law); R does the arithmetic.
rff_theory_variance <- function(design, x, y, K, n, n_threads) {
  if (!source_traits(design$method)$independent) return(NULL)
  allocation <- function(n) core(.cpp_allocation_law(design$spec, design$d, n, design$allocation))
  share <- allocation(n)$share
  used <- which(share > 0)
  check_output_size(nrow(x), nrow(y), "the parts' moments", extra = 8 * (2 * length(share) - 1) * length(K))
  moments <- core(.cpp_part_moments(design$spec, design$d, x, y, n_threads))
  if (!all(moments$known[used])) return(NULL)
  first <- moments$first[used]
  variance <- Map(function(t, s) s - t^2, first, moments$second[used])
  # the parts must add up to the kernel, or their moments are not right; a
  # tabulated or LP measure's, to the kernel within its bias bound
  if (!isTRUE(max(abs(Reduce(`+`, first) - K)) <= max(1e-8 * max(abs(K)), moments$bias_bound))) return(NULL)
  function(n) {
    law <- allocation(n)
    share <- law$share[used]
    within <- Reduce(`+`, Map(function(v, s) v / (n * s), variance, share))
    a <- matrix(unlist(Map(function(t, s) t / (n * s), first, share)), ncol = length(used))
    within + rowSums((a %*% law$covariance[used, used, drop = FALSE]) * a)
  }
}

# Random periodic features with independent frequencies: one frequency's
# product s f(a + xi) g(b + xi) has second moment s^2 sum_k A_k B_k kappa(k
# delta) over the Fourier coefficients A_k, B_k of f^2 and g^2.
rpf_theory_variance <- function(method, kernel, x, y) {
  args <- method$args
  if (!source_traits(args$method)$independent) return(NULL)
  left <- as_periodic_function(args$left, "left")
  right <- as_periodic_function(args$right, "right")
  at_zero <- kernel_at_zero(kernel, ncol(x))
  s <- at_zero / rpf_inner_product(left, right)
  series <- squared_map_series(left, right, function(k) gram_matrix(kernel, k * x, k * y, 1L) / at_zero,
                               same_rows(x, y))
  if (is.null(series)) return(NULL)
  expected <- kernel_matrix(rpf_expected_kernel(kernel, left, right), x, y, n_threads = 1L)
  function(n) (s^2 * series - expected^2) / n
}

# The most terms of squared_map_series() per study, and the table of
# coefficients its tail bounds are read from.
max_squared_terms <- 2000L
squared_table_size <- 2^15

# sum_k A_k B_k kappa(k delta) = A_0 B_0 + 2 sum_{k >= 1} A_k B_k kappa(k
# delta), with kappa(k) the matrix kappa(k delta) over the pairs and `same`
# the pairs at distance 0. f and g change sign over half a period (f(t +
# pi) = -f(t), periodic_function.h), so f^2 and g^2 have period pi and only
# even k enter. A function with finitely many harmonics, the last L, has
# f^2 end at 2L, so with such a side the sum is finite and exact; for two
# step functions it runs until its tail, at most sum_{k > K} |A_k B_k|
# kappa(K delta) since kappa does not increase along rays, is below 1e-6 of
# A_0 B_0 for every pair at a positive distance, while pairs at distance 0
# take its exact value <f^2, g^2>. NULL when that needs more than
# max_squared_terms terms (points almost equal).
squared_map_series <- function(left, right, kappa, same) {
  last <- c(periodic_traits(left)$last_harmonic, periodic_traits(right)$last_harmonic)
  finite <- if (any(last > 0)) min(last[last > 0]) else 0
  if (finite > max_squared_terms) return(NULL)
  size <- if (finite > 0) finite else squared_table_size
  A <- squared_coefficients(left, size)
  B <- squared_coefficients(right, size)
  leading <- A$coefficients[1L] * B$coefficients[1L]
  products <- (A$coefficients * B$coefficients)[-1L]  # k = 2, 4, ...
  # beyond the table |A_k| <= V / (2 pi k) for the total variation V of f^2
  remainder <- A$variation * B$variation / (16 * pi^2 * size)
  tails <- rev(cumsum(rev(abs(products)))) - abs(products) + remainder
  value <- matrix(leading, nrow(same), ncol(same))
  for (j in seq_len(min(size, max_squared_terms))) {
    if (abs(products[j]) <= 1e-15 * leading && tails[j] <= 1e-15 * leading) break
    at <- kappa(2 * j)
    value <- value + 2 * products[j] * at
    if (finite > 0) next
    if (2 * tails[j] * max(at[!same], 0) <= 1e-6 * leading) break
    if (j == max_squared_terms) return(NULL)
  }
  if (finite == 0) value[same] <- A$inner(B)
  value
}

# What the core reports of a periodic function (.cpp_periodic_function()).
periodic_traits <- function(f) core(.cpp_periodic_function(f$name))

# A_0, A_2, ..., A_2K of f^2, its total variation over a period, and for a
# step function, a function giving <f^2, g^2> for another. With finitely
# many harmonics F_k (the last L), A_m = sum_k F_k F_{m - k} over k in -L..L,
# exact, and A_m = 0 past m = 2L, so no tail (variation 0). A step function
# with level v_i on the cell (t_{i+1}, t_i) of [0, pi]: A_k = (1 / (pi k))
# sum_i v_i^2 (sin k t_i - sin k t_{i+1}), from the jumps and levels the
# core reports. The contract of periodic_function.h makes every function
# one or the other.
squared_coefficients <- function(f, K) {
  traits <- periodic_traits(f)
  if (traits$last_harmonic > 0) {
    L <- traits$last_harmonic
    two_sided <- c(rev(rpf_coefficients(f, seq_len(L))), 0, rpf_coefficients(f, seq_len(L)))  # F_-L .. F_L
    at <- function(m) {
      k <- max(-L, m - L):min(L, m + L)
      sum(two_sided[k + L + 1L] * two_sided[m - k + L + 1L])
    }
    coefficients <- vapply(2 * (0:K), function(m) if (m > 2 * L) 0 else at(m), 0)
    return(list(coefficients = coefficients, variation = 0))
  }
  if (length(traits$cosine_jumps) == 0L) fail("the periodic function %s has neither finitely many harmonics nor jumps.", f$name)
  edges <- acos(c(-1, traits$cosine_jumps, 1))  # from pi down to 0
  squares <- traits$levels^2
  k <- 2 * seq_len(K)
  sines <- sin(outer(k, edges))
  coefficients <- c(sum(squares * -diff(edges)) / pi,
                    drop((sines[, -length(edges), drop = FALSE] - sines[, -1L, drop = FALSE]) %*% squares) / (pi * k))
  steps <- list(edges = rev(edges), squares = rev(squares))  # ascending t
  inner <- function(other) {
    cuts <- sort(unique(c(steps$edges, other$steps$edges)))
    middle <- (cuts[-1L] + cuts[-length(cuts)]) / 2
    level <- function(s) s$squares[findInterval(middle, s$edges, all.inside = TRUE)]
    sum(level(steps) * level(other$steps) * diff(cuts)) / pi
  }
  list(coefficients = coefficients, variation = 2 * sum(abs(diff(squares))), steps = steps, inner = inner)
}

# Which pairs of rows of x and y are equal.
same_rows <- function(x, y) {
  key <- function(m) apply(m, 1L, function(row) paste(sprintf("%a", row), collapse = " "))
  outer(key(x), key(y), `==`)
}
