# The fit at one lambda at many feature columns, where a Hessian (n D^2
# multiply-adds and a D x D eigendecomposition) costs as much as some D / d
# passes of features: seconds, passes and the criterion of rff_glm() at
# given lambdas (no path, so every pass is the final fit's) for the
# logistic loss and the squared hinge, on 20,000 simulated rows of 10
# columns with 64 and 1,024 frequencies (128 and 2,048 columns), one
# thread. Usage: Rscript bench/glm-final-fit.R (after `make install`).
# Results are recorded in bench/RESULTS.md.

library(askrff)

set.seed(1)
n <- 20000
x <- matrix(stats::rnorm(n * 10), n)
y <- factor(sin(2 * x[, 1]) + x[, 2] * x[, 3] + stats::rnorm(n, sd = 0.5) > 0)

cat("| family | feature columns | lambda | seconds | passes | criterion |\n|---|---|---|---|---|---|\n")
for (frequencies in c(64, 1024)) {
  map <- rff_map(gaussian_kernel(2), 10, frequencies, seed = 1)
  for (family in c("binomial", "squared_hinge")) {
    for (lambda in c(1, 0.01)) {
      fit <- NULL
      seconds <- system.time(fit <- rff_glm(x, y, map, family = family, lambda = lambda, n_threads = 1))[["elapsed"]]
      criterion <- fit$deviance / 2 + lambda / 2 * sum(fit$coefficients^2)
      cat(sprintf("| %s | %d | %g | %.2f | %d | %.12g |\n", family, 2L * frequencies, lambda, seconds, fit$passes,
                  criterion))
    }
  }
}
