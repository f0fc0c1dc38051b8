# rff_glm(family = "cox"): against glmnet's Cox fits (Breslow's ties) and
# an independent computation of Efron's partial likelihood on the same
# features, its cross-validation, predictions, chunks and refusals.

# Right-censored times whose hazard grows with sin(2 x1) + x2, with ties
# (times rounded) when `digits` is given.
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

# glmnet's Cox ridge fit on the features as they are, with Breslow's ties
# (its default before 5.1, said where it takes `cox.ties`) and its threshold
# at 1e-20: at 1e-16 its Cox coefficients still move by 1e-5.
cox_glmnet <- function(...) {
  formals <- names(formals(glmnet::glmnet))
  settings <- list(family = "cox", alpha = 0, standardize = FALSE)
  if ("cox.ties" %in% formals) settings$cox.ties <- "breslow"
  tight <- list(thresh = 1e-20, maxit = 1e7)
  settings <- c(settings, if ("control" %in% formals) list(control = tight) else tight)
  do.call(glmnet::glmnet, c(list(...), settings))
}

test_that("the Cox fit equals glmnet(family = \"cox\", alpha = 0) at a matched lambda (Breslow's ties)", {
  skip_if_not_installed("glmnet")
  data <- cox_data()
  n <- nrow(data$x)
  for (lambda in c(0.3, 3)) {
    fit <- rff_glm(data$x, data$y, family = "cox", ties = "breslow", kernel = gaussian_kernel(1), n_features = 12,
                   seed = 1, lambda = lambda)
    z <- rff_features(fit$map, data$x)
    # glmnet minimises -l / N + s / 2 ||b||^2: the same minimiser at lambda = N s
    reference <- cox_glmnet(z, data$y, lambda = lambda / n)
    expect_equal(unname(coef(fit)), as.vector(coef(reference)), tolerance = 1e-6)
    expect_equal(unname(fit$intercept), 0)
  }
  # weights: glmnet scales them to sum to N, so lambda = s sum(w)
  fit <- rff_glm(data$x, data$y, family = "cox", ties = "breslow", kernel = gaussian_kernel(1), n_features = 12,
                 seed = 1, lambda = 2, weights = data$w)
  z <- rff_features(fit$map, data$x)
  reference <- cox_glmnet(z, data$y, lambda = 2 / sum(data$w), weights = data$w)
  expect_equal(unname(coef(fit)), as.vector(coef(reference)), tolerance = 1e-6)
})

test_that("the Cox fit minimises the penalized partial likelihood, with Breslow's or Efron's ties and weights", {
  # The criterion -l(b) + lambda / 2 ||b||^2 is strictly convex: the fit is
  # its minimiser when its gradient vanishes, checked by central
  # differences of the independent partial_loglik() (step 1e-5: error
  # O(1e-10) beside gradients of order 10). Its deviance is 2 (l_sat - l)
  # and logLik() gives l itself, as coxph() does.
  data <- cox_data(digits = 1)
  expect_true(anyDuplicated(data$time[data$status == 1]) > 0)
  lambda <- 0.5
  for (ties in c("breslow", "efron")) {
    fit <- rff_glm(data$x, data$y, family = "cox", ties = ties, kernel = gaussian_kernel(1), n_features = 8, seed = 2,
                   lambda = lambda, weights = data$w)
    z <- rff_features(fit$map, data$x)
    b <- fit$coefficients[, 1L]
    criterion <- function(b) -partial_loglik(drop(z %*% b), data$time, data$status, data$w, ties) + lambda / 2 * sum(b^2)
    h <- 1e-5
    gradient <- vapply(seq_along(b), function(j) {
      e <- replace(numeric(length(b)), j, h)
      (criterion(b + e) - criterion(b - e)) / (2 * h)
    }, 0)
    expect_lt(max(abs(gradient)), 1e-6 * sum(data$w * data$status))
    l <- partial_loglik(fit$linear_predictors[, 1L], data$time, data$status, data$w, ties)
    expect_equal(as.numeric(logLik(fit)), l, tolerance = 1e-10, info = ties)
    expect_gte(fit$deviance, 0)
    null <- partial_loglik(numeric(nrow(z)), data$time, data$status, data$w, ties)
    expect_equal(fit$null_deviance - fit$deviance, 2 * (l - null), tolerance = 1e-9, info = ties)
  }
})

test_that("rows of zero weight are left out of every risk set, their times included", {
  data <- cox_data(digits = 1, seed = 12)
  w <- replace(data$w, c(3, 10, 40, 41), 0)
  kept <- w > 0
  map <- rff_map(gaussian_kernel(1), 2, 8, seed = 2)
  weighted <- rff_glm(data$x, data$y, map, family = "cox", lambda = 0.7, weights = w)
  dropped <- rff_glm(data$x[kept, ], data$y[kept], map, family = "cox", lambda = 0.7, weights = w[kept])
  # the same criterion, whose minimiser both fits reach to about 1e-9
  expect_equal(coef(weighted), coef(dropped), tolerance = 1e-8)
  expect_equal(weighted$deviance, dropped$deviance, tolerance = 1e-10)
  expect_equal(weighted$baseline$hazard[weighted$baseline$time %in% dropped$baseline$time], dropped$baseline$hazard,
               tolerance = 1e-8)
})

test_that("the Efron fit agrees with survival::coxph() under a fixed ridge penalty", {
  data <- cox_data(digits = 1, seed = 3)
  lambda <- 1
  fit <- rff_glm(data$x, data$y, family = "cox", ties = "efron", kernel = gaussian_kernel(1), n_features = 4, seed = 4,
                 lambda = lambda)
  z <- rff_features(fit$map, data$x)
  # coxph's ridge() adds theta / 2 ||b||^2 to -l: theta = lambda
  reference <- survival::coxph(data$y ~ survival::ridge(z, theta = lambda, scale = FALSE), ties = "efron",
                               control = survival::coxph.control(eps = 1e-10, iter.max = 100))
  expect_equal(unname(coef(fit)), unname(coef(reference)), tolerance = 1e-6)
})

test_that("the cross-validated deviance is Verweij and van Houwelingen's, from glmnet's fits on each fold's training rows", {
  skip_if_not_installed("glmnet")
  # times without ties: the partial likelihood's bound l_sat is 0
  data <- cox_data(n = 200, seed = 5)
  map <- rff_map(gaussian_kernel(1), 2, 8, seed = 2)
  z <- rff_features(map, data$x)
  lambdas <- c(20, 2, 0.2)
  fit <- rff_glm(data$x, data$y, map, family = "cox", ties = "breslow", lambda = lambdas, nfolds = 4, seed = 7)
  folds <- askrff:::.cpp_cv_folds(0, 200, 4L, askrff:::resolve_seed(7))
  deviance <- function(eta, rows) -2 * partial_loglik(eta[rows], data$time[rows], data$status[rows], rep(1, sum(rows)), "breslow")
  cv <- vapply(sort(lambdas, decreasing = TRUE), function(lambda) {
    held_out <- vapply(1:4, function(f) {
      train <- folds != f
      g <- cox_glmnet(z[train, ], data$y[train], lambda = lambda / sum(train))
      eta <- drop(z %*% as.vector(coef(g)))
      deviance(eta, rep(TRUE, 200)) - deviance(eta, train)
    }, 0)
    sum(held_out) / 200
  }, 0)
  # the folds' fits stop at a relative decrease of 1e-8 in their criterion
  expect_equal(fit$path$cv, cv, tolerance = 1e-5)
  expect_equal(fit$lambda, fit$path$lambda[which.min(cv)])
  expect_equal(coef(fit), coef(rff_glm(data$x, data$y, map, family = "cox", ties = "breslow", lambda = fit$lambda)),
               tolerance = 1e-8)
})

test_that("predictions give the linear predictor, the risk and the survival curve through the baseline hazard", {
  data <- cox_data(digits = 1, seed = 9)
  for (ties in c("breslow", "efron")) {
    fit <- rff_glm(data$x, data$y, family = "cox", ties = ties, kernel = gaussian_kernel(1), n_features = 8, seed = 3,
                   lambda = 1, weights = data$w)
    eta <- drop(rff_features(fit$map, data$x) %*% fit$coefficients)
    expect_equal(unname(predict(fit, data$x)), eta, tolerance = 1e-12)
    expect_equal(unname(predict(fit, data$x, type = "risk")), exp(eta), tolerance = 1e-12)
    expect_identical(predict(fit, data$x, type = "risk"), predict(fit, data$x, type = "response"))
    # the baseline's increments at each event time, Breslow's d / S0, or
    # Efron's mean over the tied events' shares (survfit() after coxph())
    events <- sort(unique(data$time[data$status == 1]))
    increments <- vapply(events, function(s) {
      risk <- data$time >= s
      tied <- data$time == s & data$status == 1
      n <- if (ties == "efron") sum(tied) else 1
      sums <- sum(data$w[risk] * exp(eta[risk])) - (seq_len(n) - 1) / n * sum(data$w[tied] * exp(eta[tied]))
      sum(data$w[tied]) / n * sum(1 / sums)
    }, 0)
    expect_equal(fit$baseline$time, events)
    expect_equal(fit$baseline$hazard, cumsum(increments), tolerance = 1e-10, info = ties)
    times <- c(0, events[3], (events[3] + events[4]) / 2, 100)
    survival <- predict(fit, data$x[1:4, ], type = "survival", times = times)
    hazard <- c(0, cumsum(increments)[3], cumsum(increments)[3], sum(increments))
    expect_equal(unname(survival), exp(-outer(exp(eta[1:4]), hazard)), tolerance = 1e-10)
  }
  expect_error(predict(fit, data$x, type = "survival"), "needs `times`", class = "askrff_error")
  expect_error(predict(fit, data$x, type = "survival", times = NA), "`times` must be", class = "askrff_error")
  expect_error(predict(fit, data$x, type = "class"), "needs a fit to classes", class = "askrff_error")
})

test_that("vcov() is the inverse penalized Hessian of the partial likelihood, with its degrees of freedom", {
  # The Laplace covariance (H + lambda I)^-1 against H computed event time by
  # event time from its definition (partial_hessian(), helper-survival.R): the
  # same matrix in another order of sums, so to 1e-9; with tied times,
  # weights, a zero weight and an offset. The degrees of freedom are
  # tr(H (H + lambda I)^-1), as survival::coxph() reports for its ridge().
  data <- cox_data(digits = 1, seed = 5)
  w <- replace(data$w, 7, 0)
  offset <- stats::runif(nrow(data$x), -0.5, 0.5)
  lambda <- 0.8
  for (ties in c("breslow", "efron")) {
    fit <- rff_glm(data$x, data$y, family = "cox", ties = ties, kernel = gaussian_kernel(1), n_features = 6, seed = 2,
                   lambda = lambda, weights = w, offset = offset)
    z <- rff_features(fit$map, data$x)
    hessian <- partial_hessian(z, fit$coefficients[, 1L], data$time, data$status, w, ties, offset)
    penalized <- hessian + diag(lambda, ncol(z))
    expect_equal(unname(vcov(fit)), solve(penalized), tolerance = 1e-9, info = ties)
    expect_identical(rownames(vcov(fit)), names(coef(fit)))
    df <- sum(diag(solve(penalized, hessian)))
    expect_equal(attr(logLik(fit), "df"), df, tolerance = 1e-9, info = ties)
    expect_equal(AIC(fit), -2 * as.numeric(logLik(fit)) + 2 * df, tolerance = 1e-12)
    # coxph() refuses the zero weight, a row the fit leaves out
    kept <- w > 0
    reference <- survival::coxph(data$y[kept] ~ survival::ridge(z[kept, ], theta = lambda, scale = FALSE) +
                                   offset(offset[kept]), ties = ties, weights = w[kept],
                                 control = survival::coxph.control(eps = 1e-10, iter.max = 100))
    expect_equal(attr(logLik(fit), "df"), sum(reference$df), tolerance = 1e-6, info = ties)
  }
  # a fit from chunks keeps none: the risk sets' pass needs the data in
  # memory; its log-likelihood is still given
  chunks <- list(list(x = data$x[1:70, ], y = data$y[1:70]), list(x = data$x[71:150, ], y = data$y[71:150]))
  chunked <- rff_glm(chunks, map = fit$map, family = "cox", lambda = lambda)
  expect_error(vcov(chunked), "keeps no Hessian of its partial likelihood", class = "askrff_error")
  expect_true(is.na(attr(logLik(chunked), "df")))
})

test_that("the Cox fit reports Harrell's concordance, prints and summarises without an intercept", {
  data <- cox_data(n = 120, digits = 1, seed = 4)
  fit <- rff_glm(data$x, data$y, family = "cox", kernel = gaussian_kernel(1), n_features = 8, seed = 3, nfolds = 3)
  eta <- fit$linear_predictors[, 1L]
  # Harrell's C by its definition: over the pairs whose earlier time is an
  # event (a row censored at the same time counting as later, as
  # survival::concordance() takes it), the share where that row's risk is
  # higher, ties in risk counting a half
  concordant <- 0
  comparable <- 0
  for (i in which(data$status == 1)) {
    later <- data$time > data$time[i] | (data$time == data$time[i] & data$status == 0)
    comparable <- comparable + sum(later)
    concordant <- concordant + sum(eta[i] > eta[later]) + sum(eta[i] == eta[later]) / 2
  }
  expect_equal(fit$concordance, concordant / comparable, tolerance = 1e-12)
  expect_output(print(fit), "Cox proportional hazards (efron ties)", fixed = TRUE)
  expect_output(print(fit), "concordance", fixed = TRUE)
  expect_output(print(summary(fit)), "No intercept", fixed = TRUE)
  expect_false("(Intercept)" %in% names(coef(fit)))
  expect_gt(attr(logLik(fit), "df"), 0)
  expect_output(print(summary(fit)), "effective degrees of freedom: [0-9.]+ \\(no intercept\\)")
  saved <- tempfile(fileext = ".rds")
  saveRDS(fit, saved)
  expect_identical(predict(readRDS(saved), data$x[1:3, ], type = "survival", times = 1),
                   predict(fit, data$x[1:3, ], type = "survival", times = 1))
  skip_if_not_installed("tibble")
  skip_if_not_installed("generics")
  tidied <- generics::tidy(fit)
  expect_identical(tidied$term, rownames(fit$coefficients))
  expect_equal(generics::glance(fit)$concordance, fit$concordance)
  frame <- data.frame(time = data$time, status = data$status, a = data$x[, 1], b = data$x[, 2])
  formula_fit <- rff_glm(survival::Surv(time, status) ~ a + b, frame, kernel = gaussian_kernel(1), n_features = 8,
                         seed = 3, lambda = 1)
  augmented <- generics::augment(formula_fit, data = frame, type.predict = "response")
  expect_equal(augmented$.fitted, unname(predict(formula_fit, frame, type = "risk")))
})

test_that("threads do not change a Cox fit; chunks, a function source and future workers give the in-memory fit", {
  skip_on_cran()
  data <- cox_data(n = 240, digits = 1, seed = 6)
  map <- rff_map(gaussian_kernel(1), 2, 12, seed = 3)
  one <- rff_glm(data$x, data$y, map, family = "cox", n_threads = 1, seed = 1)
  two <- rff_glm(data$x, data$y, map, family = "cox", n_threads = 2, seed = 1)
  expect_identical(coef(two), coef(one))
  expect_identical(two$path, one$path)
  expect_identical(two$baseline, one$baseline)
  # chunks change the order of the sums only: the event times are read
  # from every chunk first, so the ranks, folds, path and choice are the
  # same, and the coefficients agree to the solver's tolerance (the folds'
  # fits stop at a relative decrease of 1e-8, the final fit at 1e-20)
  pieces <- split(seq_len(240), rep(1:3, c(50, 110, 80)))
  chunks <- lapply(pieces, function(i) list(x = data$x[i, ], y = data$y[i]))
  chunked <- rff_glm(chunks, map = map, family = "cox", seed = 1)
  expect_equal(chunked$lambda, one$lambda)
  expect_equal(chunked$path$cv, one$path$cv, tolerance = 1e-4)
  expect_equal(coef(chunked), coef(one), tolerance = 1e-7)
  expect_equal(chunked$baseline, one$baseline, tolerance = 1e-7)
  expect_null(chunked$concordance)
  reader <- restarting_reader(chunks)
  expect_equal(coef(rff_glm(reader, map = map, family = "cox", seed = 1)), coef(chunked), tolerance = 1e-12)
  skip_if_not_installed("future")
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  expect_equal(coef(rff_glm(chunks, map = map, family = "cox", seed = 1)), coef(chunked), tolerance = 1e-12)
})

test_that("a formula takes Surv(time, event), factors, missing values, weights and offsets", {
  skip_if_not_installed("glmnet")
  data <- cox_data(n = 150, seed = 8)
  frame <- data.frame(time = data$time, status = data$status, x1 = data$x[, 1], x2 = data$x[, 2],
                      group = factor(rep(c("a", "b", "c"), 50)), o = stats::rnorm(150, sd = 0.3))
  frame$x1[3] <- NA
  fit <- rff_glm(survival::Surv(time, status) ~ x1 + x2 + group + offset(o), frame, kernel = gaussian_kernel(1),
                 n_features = 8, seed = 2, lambda = 2, ties = "breslow", na.action = stats::na.exclude)
  expect_identical(fit$family, "cox")
  expect_true(fit$offset)
  expect_true(is.na(predict(fit)[3]))
  kept <- -3
  # the same fit by the default method on the formula's columns, and
  # glmnet's with the offset
  x <- stats::model.matrix(~ x1 + x2 + group - 1, frame[kept, ], contrasts.arg = list(group = diag(3)))
  default <- rff_glm(x, survival::Surv(frame$time, frame$status)[kept], map = fit$map, family = "cox", ties = "breslow",
                     lambda = 2, offset = frame$o[kept], standardize = fit$scaling)
  expect_equal(coef(default), coef(fit), tolerance = 1e-10)
  reference <- cox_glmnet(rff_features(fit$map, askrff:::apply_scaling(x, fit$scaling)),
                          survival::Surv(frame$time, frame$status)[kept], lambda = 2 / 149, offset = frame$o[kept])
  expect_equal(unname(coef(fit)), as.vector(coef(reference)), tolerance = 1e-6)
  # predictions evaluate the offset in newdata
  expect_equal(predict(fit, frame[1:2, ]), predict(default, x[1:2, ], offset = frame$o[1:2]), tolerance = 1e-12,
               ignore_attr = TRUE)
})

test_that("the Cox family refuses what it does not fit, naming the argument and the rule", {
  data <- cox_data(n = 60, seed = 2)
  x <- data$x
  fit_cox <- function(y, ...) rff_glm(x, y, family = "cox", kernel = gaussian_kernel(1), n_features = 4, seed = 1, lambda = 1, ...)
  expect_error(fit_cox(data$time), "must be a survival::Surv\\(time, event\\) object", class = "askrff_error")
  expect_error(fit_cox(survival::Surv(data$time, data$time + 1, data$status)), "counting-process", class = "askrff_error")
  expect_error(fit_cox(survival::Surv(data$time, data$status, type = "left")), "left-censored", class = "askrff_error")
  expect_error(fit_cox(survival::Surv(data$time, data$time + 1, type = "interval2")), "interval-censored",
               class = "askrff_error")
  expect_error(fit_cox(survival::Surv(data$time, 0 * data$status)), "no events", class = "askrff_error")
  expect_error(fit_cox(survival::Surv(replace(data$time, 2, NA), data$status)), "must not contain NA",
               class = "askrff_error")
  expect_error(fit_cox(survival::Surv(replace(data$time, 2, Inf), data$status)), "finite times", class = "askrff_error")
  expect_error(fit_cox(data$y, ties = "exact"), "`ties` must be one of \"efron\", \"breslow\"", class = "askrff_error")
  expect_error(fit_cox(data$y, tau = 0.5), "`tau` is for", class = "askrff_error")
  expect_error(rff_glm(x, data$status, family = "binomial", ties = "efron", n_features = 4, seed = 1),
               "`ties` is for the \"cox\" family", class = "askrff_error")
  expect_error(rff_glm(x, data$y, family = "binomial", n_features = 4, seed = 1), "`y`", class = "askrff_error")
  frame <- data.frame(time = data$time, status = data$status, a = x[, 1], g = rep(c("p", "q"), 30))
  expect_error(rff_glm(survival::Surv(time, status) ~ a + strata(g), frame, n_features = 4, seed = 1, lambda = 1),
               "uses strata\\(\\): rff_glm\\(\\) offers no strata", class = "askrff_error")
  fit <- fit_cox(data$y)
  expect_identical(fit$family, "cox")
  expect_identical(rff_glm(x, data$y, kernel = gaussian_kernel(1), n_features = 4, seed = 1, lambda = 1)$family, "cox")
})
