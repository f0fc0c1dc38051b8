# The Laplace covariance of a Cox fit to data in memory: the inverse of
# the penalized Hessian of minus the partial log-likelihood at the fit,
# with its effective degrees of freedom, as other GLM fits keep them.
#
# At event time s with n tied events of weight d, Efron's term of -l is
# (d / n) sum_j log R_j, R_j = S0 - f_j T0 with f_j = j / n (Breslow's: n = 1),
# S0 the risk set's sum of e = w exp(eta) and T0 the tied events'. Its
# Hessian is (d / n) sum_j [(S2 - f_j T2) / R_j - m_j m_j'] with m_j =
# (S1 - f_j T1) / R_j (S1, S2 the sums of e z and e z z'). Summed over the
# event times, the first part is sum_i e_i c_i z_i z_i', with c_i the
# row's cumulative hazard (the engine's Poisson offset: sum over the event
# times up to the row's of (d / n) sum_j 1 / R_j, less (d / n) sum_j f_j /
# R_j at its own time if it is one of the tied events); the second is, per
# event time, alpha S1 S1' - beta (S1 T1' + T1 S1') + gamma T1 T1' with
# alpha, beta, gamma the sums of (d / n) f_j^k / R_j^2 for k = 0, 1, 2.
# S1 and T1 are sums over ranks of the rows' e z, which one pass of
# cross-products gives beside the first part: the rows sorted by time rank
# in blocks, each row's weight e c and its response 1 / c in the column of
# its rank (and of its rank among events), so that Z' diag(e c) (Y / c) =
# Z' diag(e) Y. The partial likelihood is invariant to a common shift of
# eta, so e is taken relative to its largest value.

# What the fit keeps of its likelihood (glm_likelihood()'s list) with the
# Hessian, covariance and df; `kept` unchanged when the matrices would not
# fit in the memory available.
cox_likelihood <- function(fit, kept, x, y, w, times, ties, n_threads) {
  columns <- nrow(fit$coefficients)
  n_times <- length(times)
  # the Gram and its copies, and the buckets by rank and their sums
  bytes <- 8 * (6 * as.double(columns)^2 + 4 * as.double(columns) * (n_times + 1))
  available <- if (bytes < 2^26) Inf else available_memory()
  if (bytes > (if (is.na(available)) 2^33 else available)) return(kept)
  eta <- fit$linear_predictors[, 1L]
  rank <- findInterval(y[, 1L], times)
  event <- y[, 2L] == 1 & w > 0
  e <- w * exp(eta - max(eta))
  by_rank <- function(v) {
    sums <- numeric(n_times + 1L)
    grouped <- rowsum(v, rank)
    sums[as.integer(rownames(grouped)) + 1L] <- grouped
    sums[-1L]
  }
  s0 <- rev(cumsum(rev(by_rank(e))))
  t0 <- by_rank(e * event)
  d <- by_rank(w * event)
  n <- if (ties == "efron") by_rank(as.double(event)) else as.double(d > 0)
  if (sum(n) == 0) return(kept)
  # one entry per event time s and share j
  at <- rep(seq_len(n_times), n)
  f <- sequence(n) - 1
  f <- f / n[at]
  r <- s0[at] - f * t0[at]
  share <- d[at] / n[at]
  per_time <- function(v) {
    sums <- numeric(n_times)
    sums[sort(unique(at))] <- rowsum(share * v, at)
    sums
  }
  h <- per_time(1 / r)
  g <- per_time(f / r)
  hazard <- c(0, cumsum(h))[rank + 1L] - ifelse(event, c(0, g)[rank + 1L], 0)
  used <- which(w > 0 & hazard > 0)
  sums <- cox_rank_sums(fit, x, used[order(rank[used])], rank, event, e, hazard, n_times, n_threads)
  s1 <- sums$by_rank
  for (k in rev(seq_len(n_times - 1L))) s1[, k] <- s1[, k] + s1[, k + 1L]
  t1 <- sums$events
  alpha <- per_time(1 / r^2)
  beta <- per_time(f / r^2)
  gamma <- per_time(f^2 / r^2)
  # (alpha S1 - beta T1) S1' + (gamma T1 - beta S1) T1', the second only
  # over the times with tied events (beta = gamma = 0 at the others)
  scaled <- function(m, by) m * rep(by, each = columns)
  low_rank <- core(.cpp_matrix_product(scaled(s1, alpha) - scaled(t1, beta), t(s1), n_threads))
  tied <- which(gamma > 0)
  if (length(tied) > 0L) {
    s1 <- s1[, tied, drop = FALSE]
    t1 <- t1[, tied, drop = FALSE]
    low_rank <- low_rank + core(.cpp_matrix_product(scaled(t1, gamma[tied]) - scaled(s1, beta[tied]), t(t1), n_threads))
  }
  hessian <- sums$gram - (low_rank + t(low_rank)) / 2
  penalized <- hessian + diag(fit$lambda, columns)
  factor <- tryCatch(chol(penalized), error = function(e) NULL)
  kept$hessian <- TRUE
  if (is.null(factor)) return(kept)
  covariance <- chol2inv(factor)
  kept$covariance <- (covariance + t(covariance)) / 2
  kept$df <- max(columns - fit$lambda * sum(diag(covariance)), 0)
  kept
}

# One pass of cross-products over the rows `rows` (sorted by rank) in
# blocks: the Gram of the features weighted by e c, and per rank the sums
# of e z over its rows and over its events (feature columns by ranks 1 to
# `n_times`).
cox_rank_sums <- function(fit, x, rows, rank, event, e, hazard, n_times, n_threads) {
  columns <- nrow(fit$coefficients)
  gram <- matrix(0, columns, columns)
  by_rank <- matrix(0, columns, n_times + 1L)
  events <- matrix(0, columns, n_times + 1L)
  # a block's distinct ranks are at most its rows: with D / 4 rows the
  # responses' products cost at most half the Gram's
  block_rows <- max(64L, columns %/% 4L)
  for (block in split(rows, ceiling(seq_along(rows) / block_rows))) {
    ranks <- unique(rank[block])
    column <- match(rank[block], ranks)
    m <- length(ranks)
    y <- matrix(0, length(block), 2L * m)
    y[cbind(seq_along(block), column)] <- 1 / hazard[block]
    y[cbind(seq_along(block), m + column)] <- event[block] / hazard[block]
    input <- core_input(fit$map, x[block, , drop = FALSE], "left", n_threads)
    sums <- core(.cpp_cross_products(input$map, fit$fun, input$x, y, e[block] * hazard[block], numeric(columns),
                                     numeric(2L * m), n_threads))
    gram <- gram + sums$zz
    by_rank[, ranks + 1L] <- by_rank[, ranks + 1L] + sums$zy[, seq_len(m)]
    events[, ranks + 1L] <- events[, ranks + 1L] + sums$zy[, m + seq_len(m)]
  }
  # the core sums the lower triangle
  gram[upper.tri(gram)] <- t(gram)[upper.tri(gram)]
  list(gram = gram, by_rank = by_rank[, -1L, drop = FALSE], events = events[, -1L, drop = FALSE])
}
