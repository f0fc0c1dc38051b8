# The "askrff" engine of parsnip's proportional_hazards(): the fit is
# rff_glm(family = "cox") at glmnet's penalty, and its predictions are the
# fit's, in the shapes parsnip's censored regression mode expects.

cox_frame <- function(n = 160, seed = 3) {
  set.seed(seed)
  a <- stats::rnorm(n)
  b <- stats::runif(n, -1, 1)
  g <- factor(sample(c("u", "v", "w"), n, replace = TRUE))
  time <- stats::rexp(n, exp(sin(2 * a) + b + (g == "w")))
  censor <- stats::rexp(n, 0.5)
  data <- data.frame(time = pmin(time, censor), event = as.numeric(time <= censor), a = a, b = b, g = g)
  data$a[c(4, 9)] <- NA
  data
}

cox_spec <- function(...) {
  parsnip::proportional_hazards(...) |> parsnip::set_engine("askrff", n_features = 16, seed = 2)
}

test_that("proportional_hazards(engine = \"askrff\") is rff_glm(family = \"cox\") at lambda = penalty times the fitted rows' weight", {
  skip_if_not_installed("parsnip")
  skip_if_not_installed("survival")
  data <- cox_frame()
  f <- survival::Surv(time, event) ~ a + b + g
  fit <- parsnip::fit(cox_spec(penalty = 0.05), f, data = data)
  # glmnet's -l / N + s ||b||^2 / 2 is rff_glm()'s -2 l + lambda ||b||^2
  # over 2 N: N counts the 158 rows without NA
  direct <- rff_glm(f, data, family = "cox", lambda = 0.05 * 158, n_features = 16, seed = 2)
  expect_equal(fit$fit$lambda, 0.05 * 158)
  expect_equal(fit$fit$coefficients, direct$coefficients, tolerance = 1e-12)
  expect_identical(fit$fit$ties, "efron")
  # case weights: N is their sum over the rows fitted
  w <- stats::runif(nrow(data), 0.5, 2)
  weighted <- parsnip::fit(cox_spec(penalty = 0.05), f, data = data, case_weights = hardhat::importance_weights(w))
  expect_equal(weighted$fit$lambda, 0.05 * sum(w[-c(4, 9)]))
  direct <- rff_glm(f, data, family = "cox", weights = w, lambda = 0.05 * sum(w[-c(4, 9)]), n_features = 16, seed = 2)
  expect_equal(weighted$fit$coefficients, direct$coefficients, tolerance = 1e-12)
  breslow <- parsnip::fit(cox_spec(penalty = 0.05) |> parsnip::set_engine("askrff", ties = "breslow", n_features = 16),
                          f, data = data)
  expect_identical(breslow$fit$ties, "breslow")
})

test_that("the survival, time and linear_pred predictions are the fit's, in parsnip's shapes", {
  skip_if_not_installed("parsnip")
  skip_if_not_installed("survival")
  data <- cox_frame()
  fit <- parsnip::fit(cox_spec(penalty = 0.05), survival::Surv(time, event) ~ a + b + g, data = data)
  new <- data[1:6, ]
  eta <- unname(predict(fit$fit, new, type = "link"))
  expect_true(is.na(eta[4]))
  # parsnip's linear predictor increases with survival time: the negative
  expect_equal(predict(fit, new, type = "linear_pred")$.pred_linear_pred, -eta)
  expect_equal(predict(fit, new, type = "linear_pred", increasing = FALSE)$.pred_linear_pred, eta)
  # the times as given, to the last bit (yardstick matches them exactly)
  times <- c(0.2, 1 / 3, 3)
  survival <- predict(fit, new, type = "survival", eval_time = times)
  expect_identical(nrow(survival), 6L)
  expect_identical(names(survival$.pred[[1]]), c(".eval_time", ".pred_survival"))
  expect_identical(survival$.pred[[2]]$.eval_time, times)
  expect_equal(t(sapply(survival$.pred, `[[`, ".pred_survival")),
               unname(predict(fit$fit, new, type = "survival", times = times)))
  # the restricted mean: by parts, the integral of the step function S from
  # 0 to the last event time t_K is the sum of t_k (S_{k-1} - S_k) over
  # k < K plus t_K S_{K-1}, with S_0 = 1
  mean_time <- predict(fit, new, type = "time")$.pred_time
  t <- fit$fit$baseline$time
  s <- cbind(1, predict(fit$fit, new, type = "survival", times = t))
  k <- length(t)
  by_parts <- drop((s[, 1:(k - 1)] - s[, 2:k]) %*% t[-k] + s[, k] * t[k])
  expect_equal(mean_time, unname(by_parts), tolerance = 1e-12)
  expect_true(is.na(mean_time[4]))
  # a longer expected time where the risk is lower
  expect_equal(order(mean_time[-4]), order(-eta[-4]))
})

test_that("the engine refuses a lasso part, unknown arguments and bad weights by name", {
  skip_if_not_installed("parsnip")
  skip_if_not_installed("survival")
  data <- cox_frame()
  f <- survival::Surv(time, event) ~ a + b
  expect_error(parsnip::fit(cox_spec(mixture = 0.5), f, data = data), "`mixture` must be 0", class = "askrff_error")
  expect_error(rff_cox_train(f, data, mixture = NA), "`mixture`", class = "askrff_error")
  expect_equal(rff_cox_train(f, data, penalty = 0.1, mixture = 0, n_features = 8, seed = 1)$lambda, 0.1 * 158)
  spec <- parsnip::proportional_hazards() |> parsnip::set_engine("askrff", bogus = 1)
  expect_error(parsnip::fit(spec, f, data = data), "`bogus`", class = "askrff_error")
  expect_error(rff_cox_train(f, data, weights = rep(-1, nrow(data))), "`weights`", class = "askrff_error")
  expect_error(rff_cox_train(f, data, weights = 1), "`weights`", class = "askrff_error")
  expect_error(rff_cox_train(f, as.matrix(data)), "`data`", class = "askrff_error")
  expect_error(rff_cox_train(f, data, penalty = -1), "`penalty`", class = "askrff_error")
  expect_error(rff_cox_train(f, data, penalty = 0.1, ties = "exact"), "`ties`", class = "askrff_error")
  fit <- rff_cox_train(f, data, penalty = 0.1, n_features = 8, seed = 1)
  expect_error(rff_cox_predict(fit, data, type = "hazard"), "`type`", class = "askrff_error")
  expect_error(rff_cox_predict(fit, data, type = "time", eval_time = 1), "`eval_time`", class = "askrff_error")
  expect_error(rff_cox_predict(fit, data), "`eval_time` must be", class = "askrff_error")
  expect_error(rff_cox_predict(fit, data["a"], type = "time"), "in `new_data`", class = "askrff_error")
  complete <- data[-c(4, 9), ]
  binomial <- rff_glm(as.matrix(complete[c("a", "b")]), complete$event, family = "binomial", n_features = 4, lambda = 1)
  expect_error(rff_cox_predict(binomial, as.matrix(complete[c("a", "b")]), type = "time"), "a Cox fit",
               class = "askrff_error")
})

test_that("tune_grid() tunes the penalty by concordance, and the chosen fit is the direct one", {
  skip_on_cran()
  for (package in c("parsnip", "survival", "tune", "workflows", "rsample", "yardstick")) skip_if_not_installed(package)
  data <- cox_frame(240)
  data$surv <- survival::Surv(data$time, data$event)
  data <- data[c("surv", "a", "b", "g")]
  flow <- workflows::workflow() |> workflows::add_formula(surv ~ .) |>
    workflows::add_model(cox_spec(penalty = tune::tune()))
  expect_identical(tune::extract_parameter_set_dials(flow)$name, "penalty")
  set.seed(1)
  folds <- rsample::vfold_cv(data, v = 3)
  # concordance needs no censoring weights (brier_survival's need censored)
  tuned <- tune::tune_grid(flow, resamples = folds, grid = data.frame(penalty = c(1e-3, 10)),
                           metrics = yardstick::metric_set(yardstick::concordance_survival))
  expect_equal(nrow(tune::collect_metrics(tuned)), 2L)
  best <- tune::select_best(tuned, metric = "concordance_survival")
  final <- parsnip::fit(tune::finalize_workflow(flow, best), data)
  direct <- rff_cox_train(surv ~ ., data, penalty = best$penalty, n_features = 16, seed = 2)
  expect_equal(predict(final, data)$.pred_time,
               predict(parsnip::fit(cox_spec(penalty = best$penalty), surv ~ ., data = data), data)$.pred_time)
  expect_equal(final$fit$fit$fit$coefficients, direct$coefficients, tolerance = 1e-12)
  # the risk is a sine of a: the weak penalty fits it, the strong one barely
  expect_equal(best$penalty, 1e-3)
})
