# The Cox model's partial likelihood by its definition, one event time at
# a time, independent of the package's buckets by time rank: the reference
# of test-glm-cox.R and of the registry's tests of the survival kind
# (test-model-families.R, test-offsets.R).

# The partial log-likelihood at linear predictors eta with weights w, for
# Breslow's ties or Efron's (survival::coxph()'s weighted form: the tied
# events' mean weight times the sum over their shares), one event time at
# a time: the definition, independent of the package's buckets.
partial_loglik <- function(eta, time, status, w, ties) {
  l <- 0
  for (s in unique(time[status == 1])) {
    risk <- time >= s
    tied <- time == s & status == 1
    n <- if (ties == "efron") sum(tied) else 1
    shares <- (seq_len(n) - 1) / n
    risk_sum <- sum(w[risk] * exp(eta[risk])) - shares * sum(w[tied] * exp(eta[tied]))
    l <- l + sum(w[tied] * eta[tied]) - sum(w[tied]) / n * sum(log(risk_sum))
  }
  l
}

# Its deviance 2 (l_sat - l), with l_sat = -sum over event times of d log d
# (for Efron's ties, less (d / n) sum_j log(1 - j / n) over the n tied
# events), the bound the fits' deviances take, as glmnet's do.
partial_deviance <- function(eta, time, status, w, ties) {
  saturated <- 0
  for (s in unique(time[status == 1])) {
    tied <- time == s & status == 1
    d <- sum(w[tied])
    n <- if (ties == "efron") sum(tied) else 1
    saturated <- saturated - d * log(d) - d / n * sum(log1p(-(seq_len(n) - 1) / n))
  }
  2 * (saturated - partial_loglik(eta, time, status, w, ties))
}

# Right-censored times for the registry's tests: a hazard growing with
# `signal`, times rounded to a tenth so that some events tie.
survival_times <- function(signal) {
  n <- length(signal)
  event <- stats::rexp(n, exp(signal))
  censor <- stats::rexp(n, 0.5)
  survival::Surv(round(pmin(event, censor), 1) + 0.05, as.integer(event <= censor))
}

# The Hessian of minus the partial log-likelihood in b at eta = z b + offset, event
# time by event time from its definition: (d / n) sum_j [(S2 - f_j T2) / R_j
# - m_j m_j'] with m_j = (S1 - f_j T1) / R_j, f_j = j / n (Breslow's: n =
# 1), the S sums over the risk set and the T over the tied events of w
# exp(eta), w exp(eta) z and w exp(eta) z z'.
partial_hessian <- function(z, b, time, status, w, ties, offset = 0) {
  e <- w * exp(drop(z %*% b) + offset)
  hessian <- matrix(0, ncol(z), ncol(z))
  for (s in unique(time[status == 1 & w > 0])) {
    risk <- time >= s
    tied <- time == s & status == 1 & w > 0
    n <- if (ties == "efron") sum(tied) else 1
    sums <- function(rows) {
      list(s0 = sum(e[rows]), s1 = colSums(e[rows] * z[rows, , drop = FALSE]),
           s2 = crossprod(z[rows, , drop = FALSE], e[rows] * z[rows, , drop = FALSE]))
    }
    all <- sums(risk)
    events <- sums(tied)
    for (f in (seq_len(n) - 1) / n) {
      r <- all$s0 - f * events$s0
      m <- (all$s1 - f * events$s1) / r
      hessian <- hessian + sum(w[tied]) / n * ((all$s2 - f * events$s2) / r - tcrossprod(m))
    }
  }
  hessian
}
