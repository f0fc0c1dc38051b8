# rff_reg() in parsnip's "quantile regression" mode: the fit is rff_glm()'s
# quantile family at the mode's levels, its predictions parsnip's quantiles.

quantile_frame <- function(n = 200, seed = 11) {
  set.seed(seed)
  a <- stats::runif(n, -2, 2)
  b <- stats::rnorm(n)
  data.frame(a = a, b = b, y = sin(2 * a) + b / 2 + stats::rnorm(n, sd = 0.2 + 0.3 * abs(a)))
}

test_that("the quantile regression mode fits rff_glm()'s quantile family at the mode's levels", {
  skip_if_not_installed("parsnip")
  skip_if_not_installed("hardhat")
  data <- quantile_frame()
  levels <- c(0.1, 0.5, 0.9)
  spec <- rff_reg(penalty = 0.05, n_features = 32) |>
    parsnip::set_engine("askrff", seed = 4) |>
    parsnip::set_mode("quantile regression", quantile_levels = levels)
  fit <- parsnip::fit(spec, y ~ ., data = data)
  direct <- rff_train(as.matrix(data[, c("a", "b")]), data$y, penalty = 0.05, n_features = 32, seed = 4,
                      quantile_levels = levels)
  expect_identical(direct$family, "quantile")
  expect_identical(direct$tau, levels)
  expect_equal(fit$fit$coefficients, direct$coefficients, tolerance = 1e-12)
  predicted <- predict(fit, data[1:7, ])
  expect_identical(names(predicted), ".pred_quantile")
  expect_s3_class(predicted$.pred_quantile, "quantile_pred")
  expect_identical(hardhat::extract_quantile_levels(predicted$.pred_quantile), levels)
  expect_equal(as.matrix(predicted$.pred_quantile),
               unname(predict(direct, as.matrix(data[1:7, c("a", "b")]), type = "response")), tolerance = 1e-12)
  # the levels' predictions never cross
  expect_true(all(apply(as.matrix(predicted$.pred_quantile), 1, function(q) all(diff(q) >= 0))))
})

test_that("rff_train() refuses quantile levels for classes, and bad levels by name", {
  data <- quantile_frame(40)
  x <- as.matrix(data[, c("a", "b")])
  expect_error(rff_train(x, factor(data$y > 0), quantile_levels = 0.5, n_features = 8),
               "quantile_levels.*factor", class = "askrff_error")
  expect_error(rff_train(x, data$y, quantile_levels = 1.5, n_features = 8), "`quantile_levels`", class = "askrff_error")
})

test_that("tune_grid() tunes the penalty of a quantile workflow by the weighted interval score", {
  skip_on_cran()
  for (package in c("tune", "workflows", "rsample", "yardstick", "hardhat")) skip_if_not_installed(package)
  data <- quantile_frame()
  levels <- c(0.25, 0.75)
  spec <- rff_reg(penalty = tune::tune(), n_features = 16) |>
    parsnip::set_engine("askrff", seed = 2) |>
    parsnip::set_mode("quantile regression", quantile_levels = levels)
  flow <- workflows::add_formula(workflows::add_model(workflows::workflow(), spec), y ~ a + b)
  set.seed(8)
  folds <- rsample::vfold_cv(data, v = 3)
  # tune's default metric for this mode (tune 2.1 refuses the same metric
  # set given explicitly)
  tuned <- tune::tune_grid(flow, folds, grid = data.frame(penalty = c(0.001, 0.1, 10)))
  best <- tune::select_best(tuned, metric = "weighted_interval_score")
  final <- parsnip::fit(tune::finalize_workflow(flow, best), data)
  direct <- rff_train(as.matrix(data[, c("a", "b")]), data$y, penalty = best$penalty, n_features = 16, seed = 2,
                      quantile_levels = levels)
  expect_equal(as.matrix(predict(final, data[1:5, ])$.pred_quantile),
               unname(predict(direct, as.matrix(data[1:5, c("a", "b")]), type = "response")), tolerance = 1e-12)
})
