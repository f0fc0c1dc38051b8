# The one-call default of rff_glm() for rates (a Poisson model with
# offset(log(exposure))) on real data: the kernel's scale chosen by the
# evidence of ridge regression on the rate's Anscombe root, weighted by the
# intercept-only model's means (scale_by = "evidence", the default), or by
# the GLM's own cross-validated deviance (scale_by = "cv", the default
# before the stand-in took offsets), against glm() with the same predictors
# and offset. Data: survival::flchain (deaths per day of follow-up) and
# survival::rotterdam (deaths per day after surgery). One thread, 75 % of
# the rows to fit and 25 % to test (rows with a missing value left out).
# Usage: Rscript bench/glm-offset-scale.R (after `make install`). Results
# are recorded in bench/RESULTS.md.

library(askrff)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "holdout.R"))

data_sets <- function() {
  flchain <- survival::flchain
  flchain <- stats::na.omit(data.frame(y = flchain$death, exposure = pmax(flchain$futime, 1),
                                       flchain[, c("age", "sex", "kappa", "lambda", "creatinine", "mgus")]))
  rotterdam <- survival::rotterdam
  rotterdam <- data.frame(y = rotterdam$death, exposure = pmax(rotterdam$dtime, 1),
                          rotterdam[, c("age", "meno", "size", "grade", "nodes", "pgr", "er", "hormon", "chemo")])
  list(flchain = flchain, rotterdam = rotterdam)
}

# the mean Poisson deviance of the test rows
poisson_deviance <- function(mu, y) 2 * mean(ifelse(y > 0, y * log(y / mu), 0) - (y - mu))

rows <- list()
for (name in names(data_sets())) {
  parts <- split_rows(data_sets()[[name]])
  train <- parts$train
  test <- parts$test
  formula <- y ~ . - exposure + offset(log(exposure))
  fit <- by_cv <- linear <- NULL
  default_seconds <- seconds(fit <- rff_glm(formula, train, family = "poisson", seed = 1, n_threads = 1))
  cv_seconds <- seconds(by_cv <- rff_glm(formula, train, family = "poisson", seed = 1, n_threads = 1, scale_by = "cv"))
  glm_seconds <- seconds(linear <- stats::glm(formula, stats::poisson, train))
  rows[[name]] <- data.frame(
    data = name, rows = nrow(train),
    default = poisson_deviance(predict(fit, test, type = "response"), test$y), default_s = default_seconds,
    cv = poisson_deviance(predict(by_cv, test, type = "response"), test$y), cv_s = cv_seconds,
    glm = poisson_deviance(stats::predict(linear, test, type = "response"), test$y), glm_s = glm_seconds)
}
print(do.call(rbind, rows), digits = 4, row.names = FALSE)
