# parsnip's svm_rbf() with the engine "askrff": its arguments as kernlab
# reads them, its predictions, and tuning in a workflow, in classification
# and regression.

svm_frame <- function(n = 200, seed = 3) {
  set.seed(seed)
  x <- matrix(stats::rnorm(2 * n), n, 2, dimnames = list(NULL, c("a", "b")))
  score <- sin(2 * x[, 1]) + x[, 2] + stats::rnorm(n, sd = 0.3)
  data.frame(x, y = cut(score, c(-Inf, -0.6, 0.6, Inf), labels = c("low", "mid", "high")))
}

test_that("rbf_sigma is kernlab's sigma on the standardized predictors, and cost its C", {
  skip_if_not_installed("kernlab")
  data <- svm_frame(40)
  x <- scale(as.matrix(data[, 1:2]))
  sigma <- 0.7
  # kernlab's rbfdot(sigma) is exp(-sigma ||x - y||^2)
  expect_equal(kernel_matrix(gaussian_kernel(1 / sqrt(2 * sigma)), x),
               unclass(kernlab::kernelMatrix(kernlab::rbfdot(sigma = sigma), x)), ignore_attr = TRUE, tolerance = 1e-14)
  fit <- rff_svm_train(as.matrix(data[, 1:2]), data$y, cost = 4, rbf_sigma = sigma, n_features = 16, seed = 2,
                       probability = FALSE)
  direct <- rff_glm(as.matrix(data[, 1:2]), data$y, family = "squared_hinge", lambda = 1 / 8,
                    kernel = gaussian_kernel(1 / sqrt(2 * sigma)), n_features = 16, seed = 2, standardize = TRUE)
  expect_equal(fit$coefficients, direct$coefficients, tolerance = 1e-12)
  expect_equal(fit$lambda, 1 / 8)
  # loss = "hinge" is kernlab's own loss at the same lambda (two classes)
  two <- factor(data$y == "high")
  hinge <- rff_svm_train(as.matrix(data[, 1:2]), two, cost = 4, rbf_sigma = sigma, loss = "hinge", n_features = 16,
                         seed = 2, probability = FALSE)
  direct <- rff_glm(as.matrix(data[, 1:2]), two, family = "hinge", lambda = 1 / 8,
                    kernel = gaussian_kernel(1 / sqrt(2 * sigma)), n_features = 16, seed = 2, standardize = TRUE)
  expect_identical(hinge$family, "hinge")
  expect_equal(hinge$coefficients, direct$coefficients, tolerance = 1e-12)
  expect_error(rff_svm_train(as.matrix(data[, 1:2]), data$y, loss = "logistic"), "`loss`", class = "askrff_error")
})

test_that("svm_rbf(engine = \"askrff\") fits through parsnip as rff_svm_train() does, with classes and probabilities", {
  skip_if_not_installed("parsnip")
  data <- svm_frame()
  spec <- parsnip::svm_rbf(cost = 2, rbf_sigma = 0.5) |>
    parsnip::set_engine("askrff", n_features = 32, seed = 5) |>
    parsnip::set_mode("classification")
  fit <- parsnip::fit(spec, y ~ ., data = data)
  direct <- rff_svm_train(as.matrix(data[, 1:2]), data$y, cost = 2, rbf_sigma = 0.5, n_features = 32, seed = 5)
  classes <- predict(fit, data[1:9, ])
  expect_identical(names(classes), ".pred_class")
  expect_identical(classes$.pred_class, unname(predict(direct, as.matrix(data[1:9, 1:2]), type = "class")))
  probabilities <- predict(fit, data[1:9, ], type = "prob")
  expect_identical(names(probabilities), paste0(".pred_", levels(data$y)))
  expect_equal(unname(as.matrix(probabilities)), unname(predict(direct, as.matrix(data[1:9, 1:2]), type = "response")),
               tolerance = 1e-12)
  expect_equal(rowSums(probabilities), rep(1, 9))
  # classes are a factor, regression's responses numbers; the tube is regression's
  expect_error(rff_svm_train(as.matrix(data[, 1:2]), as.character(data$y)), "must be a factor", class = "askrff_error")
  expect_error(rff_svm_train(as.matrix(data[, 1:2]), data$y, margin = 0.1), "`margin`", class = "askrff_error")
  expect_error(rff_svm_train(as.matrix(data[, 1:2]), data$y, cost = -1), "`cost`", class = "askrff_error")
  expect_error(rff_svm_train(as.matrix(data[, 1:2]), data$y, rbf_sigma = 0), "`rbf_sigma`", class = "askrff_error")
  expect_error(rff_svm_train(as.matrix(data[, 1:2]), data$y, gamma = 1), "gamma", class = "askrff_error")
})

test_that("tune_grid() tunes cost and rbf_sigma of a workflow, and the chosen fit is the direct one", {
  skip_on_cran()
  skip_if_not_installed("tune")
  skip_if_not_installed("workflows")
  skip_if_not_installed("rsample")
  skip_if_not_installed("yardstick")
  data <- svm_frame()
  spec <- parsnip::svm_rbf(cost = tune::tune(), rbf_sigma = tune::tune()) |>
    parsnip::set_engine("askrff", n_features = 32, seed = 7, probability = FALSE) |>
    parsnip::set_mode("classification")
  flow <- workflows::workflow() |> workflows::add_formula(y ~ .) |> workflows::add_model(spec)
  expect_setequal(tune::extract_parameter_set_dials(flow)$name, c("cost", "rbf_sigma"))
  set.seed(1)
  folds <- rsample::vfold_cv(data, v = 3)
  grid <- expand.grid(cost = c(0.01, 10), rbf_sigma = c(0.01, 1))
  tuned <- tune::tune_grid(flow, resamples = folds, grid = grid,
                           metrics = yardstick::metric_set(yardstick::accuracy))
  expect_equal(nrow(tune::collect_metrics(tuned)), 4L)
  best <- tune::select_best(tuned, metric = "accuracy")
  final <- parsnip::fit(tune::finalize_workflow(flow, best), data)
  direct <- rff_svm_train(as.matrix(data[, 1:2]), data$y, cost = best$cost, rbf_sigma = best$rbf_sigma,
                          n_features = 32, seed = 7, probability = FALSE)
  expect_identical(predict(final, data)$.pred_class, unname(predict(direct, as.matrix(data[, 1:2]), type = "class")))
  # the sine needs the shorter length scale and the weaker penalty
  expect_equal(c(best$cost, best$rbf_sigma), c(10, 1))
})

svr_frame <- function(n = 150, seed = 4) {
  set.seed(seed)
  x <- matrix(stats::rnorm(2 * n), n, 2, dimnames = list(NULL, c("a", "b")))
  data.frame(x, y = 20 + 5 * (sin(2 * x[, 1]) + x[, 2]) + stats::rnorm(n, sd = 1.5))
}

test_that("in regression margin is kernlab's epsilon on the standardized response, and cost its C", {
  # ksvm(scaled = TRUE) fits the response standardized by scale() and
  # unscales its predictions; the engine fits the same model on y itself.
  # So its predictions equal those of the fit to the standardized response
  # with epsilon = margin and lambda = 1 / (2 cost), unscaled: exactly for
  # the squared loss (the same criterion times s^2), and for the L1 loss to
  # the accuracy of its kinked fits (criteria within 1e-9 relative).
  data <- svr_frame()
  x <- as.matrix(data[, 1:2])
  s <- stats::sd(data$y)
  standardized <- (data$y - mean(data$y)) / s
  kernel <- gaussian_kernel(1 / sqrt(2 * 0.5))
  for (loss in c("squared_hinge", "hinge")) {
    family <- if (loss == "hinge") "epsilon_insensitive" else "squared_epsilon_insensitive"
    fit <- rff_svm_train(x, data$y, cost = 4, rbf_sigma = 0.5, margin = 0.2, loss = loss, n_features = 16, seed = 2)
    expect_identical(fit$family, family)
    expect_equal(fit$epsilon, 0.2 * s)
    expect_equal(fit$lambda, if (loss == "hinge") 1 / (8 * s) else 1 / 8)
    reference <- rff_glm(x, standardized, family = family, epsilon = 0.2, lambda = 1 / 8, kernel = kernel,
                         n_features = 16, seed = 2, standardize = TRUE)
    expect_equal(unname(predict(fit, x)), mean(data$y) + s * unname(predict(reference, x)),
                 tolerance = if (loss == "hinge") 1e-5 else 1e-10)
  }
  # without standardizing, margin is in the response's units
  raw <- rff_svm_train(x, data$y, cost = 4, rbf_sigma = 0.5, margin = 0.2, standardize = FALSE, n_features = 16, seed = 2)
  expect_identical(raw$epsilon, 0.2)
  # the default tube is kernlab's, 0.1
  expect_equal(rff_svm_train(x, data$y, cost = 4, n_features = 8, seed = 2)$epsilon, 0.1 * s)
  for (bad in list(-1, NA, Inf, "a", c(0.1, 0.2))) {
    expect_error(rff_svm_train(x, data$y, margin = bad), "`margin`", class = "askrff_error")
  }
  expect_error(rff_svm_train(x, data$y, probability = TRUE), "`probability = TRUE`", class = "askrff_error")
})

test_that("svm_rbf(mode = \"regression\") fits through parsnip as rff_svm_train() does, and tunes margin", {
  skip_on_cran()
  skip_if_not_installed("parsnip")
  skip_if_not_installed("tune")
  skip_if_not_installed("workflows")
  skip_if_not_installed("rsample")
  skip_if_not_installed("yardstick")
  data <- svr_frame()
  spec <- parsnip::svm_rbf(mode = "regression", cost = 2, rbf_sigma = 0.5, margin = 0.3) |>
    parsnip::set_engine("askrff", n_features = 32, seed = 5)
  fit <- parsnip::fit(spec, y ~ ., data = data)
  direct <- rff_svm_train(as.matrix(data[, 1:2]), data$y, cost = 2, rbf_sigma = 0.5, margin = 0.3, n_features = 32,
                          seed = 5)
  predicted <- predict(fit, data[1:9, ])
  expect_identical(names(predicted), ".pred")
  expect_identical(predicted$.pred, unname(predict(direct, as.matrix(data[1:9, 1:2]))))
  # margin is tunable, with dials' svm_margin()
  tuning <- parsnip::svm_rbf(mode = "regression", cost = 2, rbf_sigma = 0.5, margin = tune::tune()) |>
    parsnip::set_engine("askrff", n_features = 16, seed = 7)
  expect_true("margin" %in% generics::tunable(tuning)$name)
  flow <- workflows::workflow() |> workflows::add_formula(y ~ .) |> workflows::add_model(tuning)
  expect_identical(tune::extract_parameter_set_dials(flow)$name, "margin")
  set.seed(1)
  tuned <- tune::tune_grid(flow, resamples = rsample::vfold_cv(data, v = 2), grid = data.frame(margin = c(0.01, 0.2)),
                           metrics = yardstick::metric_set(yardstick::rmse))
  expect_equal(nrow(tune::collect_metrics(tuned)), 2L)
  expect_true(all(is.finite(tune::collect_metrics(tuned)$mean)))
})
