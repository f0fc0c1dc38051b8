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
