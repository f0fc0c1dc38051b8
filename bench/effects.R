# Marginal effects and posterior draws of rff_ridge() fits at scale, their
# coverage, and the exact kernel peers.
#   scale [n]: rff_effects() of 10 variables on n rows (default 1e6) of 10
#     columns, 2,048 feature columns, two threads: the pointwise effects
#     and the average effects with their standard errors (se = FALSE),
#     seconds and peak memory; and the pointwise standard errors' cost on
#     100,000 of the rows.
#   draws: simulate() of 1,000 functions at 100,000 points from a fit of
#     20,000 rows with 1,024 and 2,048 feature columns, two threads:
#     seconds.
#   coverage: 400 replicates of 1,000 rows of a known smooth function, the
#     penalty by the evidence: how often the 95 % intervals of the average
#     marginal effects cover the truth (the average of the true
#     derivatives at the rows), with the posterior's and the sampling
#     variance.
#   peers: KRLS::krls() (exact, n x n) against rff_ridge() + rff_effects()
#     (1,024 feature columns, one thread) at the same kernel and penalty: seconds,
#     correlation of the pointwise derivatives and the average effects.
# Usage: Rscript bench/effects.R scale|draws|coverage|peers [n] (after `make install`).
# Results are recorded in bench/RESULTS.md.

library(askrff)
args <- commandArgs(TRUE)
part <- if (length(args)) args[1] else "scale"

here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "common.R"))

# n rows of d standardized columns and a smooth response of them.
smooth_rows <- function(n, d, seed = 1) {
  set.seed(seed)
  x <- matrix(stats::runif(n * d, -sqrt(3), sqrt(3)), n, d)
  colnames(x) <- paste0("x", seq_len(d))
  truth <- sin(x[, 1]) + x[, 2]^2 / 2 + 0.3 * rowSums(x[, -(1:2), drop = FALSE])
  list(x = x, y = truth + stats::rnorm(n, sd = 0.3))
}

scale_part <- function(n) {
  rows <- smooth_rows(n, 10)
  fit_seconds <- system.time(fit <- rff_ridge(rows$x, rows$y, kernel = gaussian_kernel(3), n_features = 1024,
                                              lambda = 1, seed = 1, n_threads = 2))[["elapsed"]]
  seconds <- system.time(effects <- rff_effects(fit, rows$x, se = FALSE, n_threads = 2))[["elapsed"]]
  average <- summary(effects)
  cat(sprintf("effects, n = %s, 10 variables, %d columns: %.1f s (the fit %.1f s), peak memory %.2f GB\n",
              format(n, big.mark = ",", scientific = FALSE), nrow(fit$coefficients), seconds, fit_seconds, peak_gb()))
  print(average[, c("term", "estimate", "std.error")], digits = 3, row.names = FALSE)
  some <- rows$x[seq_len(min(n, 1e5)), ]
  pointwise <- system.time(rff_effects(fit, some, variables = 1, n_threads = 2))[["elapsed"]]
  without <- system.time(rff_effects(fit, some, variables = 1, se = FALSE, n_threads = 2))[["elapsed"]]
  cat(sprintf("one variable on %s rows: %.2f s with pointwise standard errors, %.2f s without\n",
              format(nrow(some), big.mark = ","), pointwise, without))
}

draws_part <- function() {
  rows <- smooth_rows(20000, 10)
  new <- smooth_rows(1e5, 10, seed = 2)$x
  for (frequencies in c(512, 1024)) {
    fit <- rff_ridge(rows$x, rows$y, kernel = gaussian_kernel(3), n_features = frequencies, lambda = 1, seed = 1,
                     n_threads = 2)
    seconds <- system.time(draws <- simulate(fit, nsim = 1000, newdata = new, seed = 1, n_threads = 2))[["elapsed"]]
    cat(sprintf("simulate(): 1,000 draws at 100,000 points, %d columns: %.1f s, peak memory %.2f GB\n",
                nrow(fit$coefficients), seconds, peak_gb()))
  }
}

coverage_part <- function(replicates = 400) {
  covered <- array(NA, c(replicates, 2L, 2L), list(NULL, c("x1", "x2"), c("posterior", "sampling")))
  seconds <- system.time(for (r in seq_len(replicates)) {
    rows <- smooth_rows(1000, 2, seed = r)
    fit <- rff_ridge(rows$x, rows$y, kernel = gaussian_kernel(1), n_features = 256, seed = r, criterion = "evidence")
    truth <- c(mean(cos(rows$x[, 1])), mean(rows$x[, 2]))
    for (vcov in c("posterior", "sampling")) {
      average <- summary(rff_effects(fit, rows$x, se = FALSE, vcov = vcov))
      covered[r, , vcov] <- average$conf.low <= truth & truth <= average$conf.high
    }
  })[["elapsed"]]
  rate <- apply(covered, c(2L, 3L), mean)
  cat(sprintf("coverage of 95 %% intervals of the average effects, %d replicates of 1,000 rows (binomial se %.3f); %.0f s\n",
              replicates, sqrt(0.95 * 0.05 / replicates), seconds))
  print(rate)
}

peers_part <- function() {
  if (!requireNamespace("KRLS", quietly = TRUE)) stop("The peers part needs KRLS (make test installs it).", call. = FALSE)
  for (n in c(1000, 2000)) {
    rows <- smooth_rows(n, 2)
    x <- scale(rows$x)
    ours <- system.time({
      fit <- rff_ridge(x, rows$y, kernel = gaussian_kernel(1), n_features = 512, lambda = 1, seed = 1, n_threads = 1)
      effects <- rff_effects(fit, x, n_threads = 1)
    })[["elapsed"]]
    theirs <- system.time(krls <- KRLS::krls(x, rows$y, whichkernel = "gaussian", lambda = 1, sigma = 2,
                                             print.level = 0, approx = "none"))[["elapsed"]]
    average <- summary(effects)
    cat(sprintf("n = %d: askrff %.2f s, krls %.1f s (%.0fx); correlation %.4f; average effects %s against %s (se %s)\n",
                n, ours, theirs, theirs / ours,
                stats::cor(krls$derivatives[, 1], effects$estimate[effects$term == "x1"]),
                paste(sprintf("%.4f", average$estimate), collapse = ", "),
                paste(sprintf("%.4f", krls$avgderivatives), collapse = ", "),
                paste(sprintf("%.4f", average$std.error), collapse = ", ")))
  }
}

switch(part,
       scale = scale_part(if (length(args) > 1L) as.numeric(args[2]) else 1e6),
       draws = draws_part(),
       coverage = coverage_part(),
       peers = peers_part(),
       stop("Unknown part: ", part))
