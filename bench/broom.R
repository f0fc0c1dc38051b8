# Cost of the broom methods next to the fit they summarise: a ridge fit of
# 20,000 rows on 2,048 feature columns (one thread), then tidy() with
# standard errors, glance(), and augment() of the data fitted without and
# with prediction intervals. Run from the package root with askrff installed:
#   Rscript bench/broom.R
library(askrff)
set.seed(1)
n <- 20000
x <- matrix(rnorm(5 * n), n, 5)
y <- sin(x[, 1]) + x[, 2] * x[, 3] + rnorm(n, sd = 0.3)
options(askrff.threads = 1)
median_time <- function(expr, times = 3) {
  expr <- substitute(expr)
  median(replicate(times, system.time(eval(expr, parent.frame()))[["elapsed"]]))
}
fit_time <- system.time(fit <- rff_ridge(x, y, kernel = gaussian_kernel(2), n_features = 1024, seed = 1,
                                         criterion = "gcv"))[["elapsed"]]
times <- c(
  rff_ridge = fit_time,
  tidy = median_time(generics::tidy(fit, conf.int = TRUE)),
  glance = median_time(generics::glance(fit)),
  augment = median_time(generics::augment(fit, data = x)),
  augment_intervals = median_time(generics::augment(fit, data = x, interval = "prediction")),
  predict_intervals = median_time(predict(fit, x, interval = "prediction")))
print(round(times, 3))
