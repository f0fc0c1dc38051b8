# Why the GLM engine takes L-BFGS steps from reference Hessians rather than
# trust-region Newton (TRON: Lin, Weng and Keerthi 2008, LIBLINEAR's solver):
# askrff never stores the features, so every product with the data is a pass
# that computes them again, and the count of passes is the cost. TRON needs
# one pass per function and gradient evaluation and one per Hessian-vector
# product of its conjugate-gradient inner loop; askrff's solver needs one per
# step, the Hessians it eigendecomposes riding on the same passes.
#
# Both minimize the same criterion, half the deviance + lambda / 2 ||b||^2
# (intercept free), on the same features, at one lambda (no cross-validation:
# askrff's path shares its passes among every lambda and fold, which TRON
# could do only with its inner loops in lockstep). TRON runs on the stored
# features here (its passes counted, and timed as streamed passes would be:
# each the features again and two products), to a gradient's norm 1e-2
# of its first (LIBLINEAR's default for logistic regression), 1e-6, and
# askrff's at its fit. Usage: Rscript bench/glm-solver-choice.R (after `make install`).
# Results are recorded in bench/RESULTS.md.

library(askrff)

# TRON with LIBLINEAR's constants (eta0 1e-4, eta1 0.25, eta2 0.75; sigma1
# 0.25, sigma2 0.5, sigma3 4; CG to a tenth of the gradient's norm).
# Returns the passes it took to bring the gradient's norm to each fraction
# of its first (NA if never, as near the minimum the criterion's rounding
# hides the decrease its ratio test needs).
tron <- function(fun, start, fractions, max_outer = 200) {
  w <- start
  at <- fun(w)
  passes <- 1
  first <- sqrt(sum(at$gradient^2))
  reached <- rep(NA_real_, length(fractions))
  delta <- first
  for (outer in seq_len(max_outer)) {
    reached[is.na(reached) & sqrt(sum(at$gradient^2)) <= fractions * first] <- passes
    if (!anyNA(reached)) break
    g <- at$gradient
    s <- 0 * g
    r <- -g
    d <- r
    while (TRUE) {
      if (sqrt(sum(r^2)) <= 0.1 * sqrt(sum(g^2))) break
      hd <- at$hessian_times(d)
      passes <- passes + 1
      alpha <- sum(r^2) / sum(d * hd)
      if (sqrt(sum((s + alpha * d)^2)) > delta) {
        # to the trust region's boundary
        a <- sum(d^2); b <- 2 * sum(s * d); c <- sum(s^2) - delta^2
        s <- s + (-b + sqrt(b^2 - 4 * a * c)) / (2 * a) * d
        break
      }
      s <- s + alpha * d
      r_new <- r - alpha * hd
      d <- r_new + sum(r_new^2) / sum(r^2) * d
      r <- r_new
    }
    trial <- fun(w + s)
    passes <- passes + 1
    predicted <- -(sum(g * s) + 0.5 * sum(s * at$hessian_times(s)))
    actual <- at$value - trial$value
    norm_s <- sqrt(sum(s^2))
    if (outer == 1) delta <- min(delta, norm_s)
    alpha <- if (trial$value - at$value - sum(g * s) <= 0) 4 else max(0.25, -0.5 * sum(g * s) / (trial$value - at$value - sum(g * s)))
    delta <- if (actual < 1e-4 * predicted) min(max(alpha, 0.25) * norm_s, 0.25 * delta)
             else if (actual < 0.25 * predicted) max(0.25 * delta, min(alpha * norm_s, 0.5 * delta))
             else if (actual < 0.75 * predicted) max(0.25 * delta, min(alpha * norm_s, 4 * delta))
             else max(delta, min(alpha * norm_s, 4 * delta))
    if (actual > 1e-4 * predicted) {
      w <- w + s
      at <- trial
    }
  }
  reached
}

# half deviance + lambda / 2 ||b||^2 on design [1, z], its gradient and its
# Hessian's products (each product a pass when the features are not stored)
criterion <- function(design, y, lambda, family) {
  penalty <- c(0, rep(lambda, ncol(design) - 1))
  function(w) {
    eta <- drop(design %*% w)
    if (family == "binomial") {
      mu <- stats::plogis(eta)
      value <- sum(log1p(exp(-abs(eta))) + pmax(eta, 0) - y * eta)
      v <- mu * (1 - mu)
    } else {
      mu <- exp(eta)
      value <- sum(mu - y * eta)
      v <- mu
    }
    list(value = value + sum(penalty * w^2) / 2, gradient = drop(crossprod(design, mu - y)) + penalty * w,
         hessian_times = function(d) drop(crossprod(design, v * (design %*% d))) + penalty * d)
  }
}

set.seed(1)
n <- 5000
x <- matrix(stats::rnorm(n * 4), n, 4)
f <- sin(2 * x[, 1]) + x[, 2] * x[, 3]
responses <- list(binomial = stats::rbinom(n, 1, stats::plogis(2 * f)), poisson = stats::rpois(n, exp(0.7 * f)))
map <- rff_map(gaussian_kernel(median_bandwidth(x)), 4, 128, seed = 1)
design <- cbind(1, rff_features(map, x))
# one streamed pass of TRON: the features again and two products with them
pass_seconds <- stats::median(replicate(5, system.time({
  z <- rff_features(map, x, n_threads = 1)
  crossprod(z, z %*% rep(1, ncol(z)))
})[["elapsed"]]))
rows <- list()
for (family in names(responses)) {
  y <- responses[[family]]
  for (lambda in c(0.1, 1, 10, 100)) {
    seconds <- system.time(fit <- rff_glm(x, y, map, family = family, lambda = lambda, n_threads = 1))[["elapsed"]]
    fun <- criterion(design, y, lambda, family)
    start <- rep(0, ncol(design))
    reached <- sqrt(sum(fun(c(fit$intercept, fit$coefficients))$gradient^2)) / sqrt(sum(fun(start)$gradient^2))
    passes <- tron(fun, start, c(1e-2, 1e-6, reached))
    rows[[length(rows) + 1L]] <- data.frame(family = family, lambda = lambda, askrff = fit$passes, askrff_seconds = seconds,
                                            askrff_gradient = signif(reached, 2), tron_1e2 = passes[1],
                                            tron_1e6 = passes[2], tron_1e6_seconds = passes[2] * pass_seconds,
                                            tron_askrff_gradient = passes[3])
  }
}
print(do.call(rbind, rows), row.names = FALSE)
