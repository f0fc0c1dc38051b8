# Extracted from test-glm-cox.R:185

# setup ------------------------------------------------------------------------
library(testthat)
test_env <- simulate_test_env(package = "askrff", path = "..")
attach(test_env, warn.conflicts = FALSE)

# prequel ----------------------------------------------------------------------
cox_data <- function(n = 150, digits = NULL, seed = 7) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * 2), n, 2)
  event <- stats::rexp(n, exp(sin(2 * x[, 1]) + x[, 2]))
  censor <- stats::rexp(n, 0.5)
  time <- pmin(event, censor)
  if (!is.null(digits)) time <- round(time, digits) + 0.01
  list(x = x, time = time, status = as.integer(event <= censor), y = survival::Surv(time, as.integer(event <= censor)),
       w = stats::runif(n, 0.5, 2))
}
cox_glmnet <- function(...) {
  formals <- names(formals(glmnet::glmnet))
  settings <- list(family = "cox", alpha = 0, standardize = FALSE)
  if ("cox.ties" %in% formals) settings$cox.ties <- "breslow"
  tight <- list(thresh = 1e-20, maxit = 1e7)
  settings <- c(settings, if ("control" %in% formals) list(control = tight) else tight)
  do.call(glmnet::glmnet, c(list(...), settings))
}

# test -------------------------------------------------------------------------
data <- cox_data(digits = 1, seed = 5)
w <- replace(data$w, 7, 0)
offset <- stats::runif(nrow(data$x), -0.5, 0.5)
lambda <- 0.8
for (ties in c("breslow", "efron")) {
    fit <- rff_glm(data$x, data$y, family = "cox", ties = ties, kernel = gaussian_kernel(1), n_features = 6, seed = 2,
                   lambda = lambda, weights = w, offset = offset)
    z <- rff_features(fit$map, data$x)
    hessian <- partial_hessian(z, fit$coefficients[, 1L], data$time, data$status, w * exp(offset), ties)
    penalized <- hessian + diag(lambda, ncol(z))
    expect_equal(unname(vcov(fit)), solve(penalized), tolerance = 1e-9, info = ties)
    expect_identical(rownames(vcov(fit)), names(coef(fit)))
    df <- sum(diag(solve(penalized, hessian)))
    expect_equal(attr(logLik(fit), "df"), df, tolerance = 1e-9, info = ties)
    expect_equal(AIC(fit), -2 * as.numeric(logLik(fit)) + 2 * df, tolerance = 1e-12)
    reference <- survival::coxph(data$y ~ survival::ridge(z, theta = lambda, scale = FALSE) + offset(offset),
                                 ties = ties, weights = w, control = survival::coxph.control(eps = 1e-10, iter.max = 100))
    expect_equal(attr(logLik(fit), "df"), sum(reference$df), tolerance = 1e-6, info = ties)
  }
