# step_rff(), rff_reg() and their dials parameters. The tidymodels packages
# are Suggests: these tests skip only where one is missing (CI installs them).

tidy_data <- function(n = 160, seed = 1) {
  set.seed(seed)
  x <- matrix(stats::runif(3 * n, -2, 2), n, 3, dimnames = list(NULL, c("a", "b", "c")))
  data.frame(x, y = sin(2 * x[, 1]) + x[, 2] * x[, 3] / 2 + stats::rnorm(n, sd = 0.1))
}

test_that("a missing suggested package is named in the error", {
  expect_error(askrff:::require_suggested(c("stats", "notapackage.askrff"), "step_rff()"),
               "step_rff\\(\\) needs the notapackage.askrff package", class = "askrff_error")
})

test_that("step_rff() bakes the features of the kernel in the data's units, the same for any new data", {
  skip_if_not_installed("recipes")
  data <- tidy_data()
  rec <- recipes::recipe(y ~ ., data = data) |>
    step_rff(recipes::all_numeric_predictors(), kernel = matern_kernel(1, 2.5), scale = 0.5, n_features = 8,
             standardize = TRUE, seed = 3)
  trained <- recipes::prep(rec, data)
  baked <- recipes::bake(trained, new_data = data[1:7, ])
  # the same map drawn by hand: standardized columns, the kernel object's
  # length scale (in their units) times `scale`
  x <- as.matrix(data[, c("a", "b", "c")])
  center <- colMeans(x)
  spread <- apply(x, 2, stats::sd)
  standardized <- sweep(sweep(x, 2, center), 2, spread, "/")
  kernel <- matern_kernel(0.5, 2.5)
  map <- rff_map(kernel, 3, 8, seed = 3)
  expect_equal(names(baked), c("y", sprintf("rff_%02d", 1:16)))
  expect_equal(unname(as.matrix(baked[, -1])), unname(rff_features(map, standardized[1:7, ])), tolerance = 1e-12)
  expect_equal(trained$steps[[1]]$map$kernel$params$sigma, kernel$params$sigma, tolerance = 1e-15)
  # a kernel by name has `scale` median distances between standardized rows
  by_name <- recipes::recipe(y ~ ., data = data) |>
    step_rff(recipes::all_numeric_predictors(), kernel = "gaussian", scale = 0.5, n_features = 8,
             standardize = TRUE, seed = 3) |>
    recipes::prep(data)
  expect_equal(by_name$steps[[1]]$map$kernel$params$sigma, 0.5 * median_bandwidth(standardized, seed = 3),
               tolerance = 1e-15)
  # new rows need only the selected columns; a missing value gives NA features
  fresh <- data[8:10, ]
  fresh$b[2] <- NA
  baked_fresh <- recipes::bake(trained, new_data = fresh)
  expect_true(all(is.na(baked_fresh[2, -1])))
  expect_equal(unname(as.matrix(baked_fresh[-2, -1])), unname(rff_features(map, standardized[c(8, 10), ])),
               tolerance = 1e-12)
  expect_error(recipes::bake(trained, new_data = data[, c("a", "b")]), "c")
  # keep_original_cols keeps the selected columns beside the features
  kept <- recipes::recipe(y ~ ., data = data) |>
    step_rff(a, b, n_features = 4, keep_original_cols = TRUE, prefix = "z", seed = 2) |>
    recipes::prep(data) |>
    recipes::bake(new_data = NULL)
  expect_equal(names(kept), c("a", "b", "c", "y", sprintf("z%d", 1:8)))
})

test_that("step_rff() follows the recipes conventions: tidy, tunable, required packages, print, methods", {
  skip_if_not_installed("recipes")
  data <- tidy_data(n = 40)
  rec <- recipes::recipe(y ~ ., data = data) |> step_rff(a, b, kernel = "laplace", n_features = 4, seed = 1)
  before <- generics::tidy(rec, number = 1)
  expect_equal(names(before), c("terms", "kernel", "scale", "n_features", "id"))
  expect_equal(before$kernel, c("laplace", "laplace"))
  after <- generics::tidy(recipes::prep(rec, data), number = 1)
  expect_equal(after$terms, c("a", "b"))
  expect_match(after$kernel, "Laplace")
  tunable <- generics::tunable(rec$steps[[1]])
  expect_equal(tunable$name, c("scale", "n_features", "kernel"))
  expect_equal(vapply(tunable$call_info, `[[`, "", "fun"), c("rff_scale", "rff_num_features", "rff_kernel_family"))
  expect_equal(generics::required_pkgs(rec$steps[[1]]), "askrff")
  # recipes prints through cli, to the message stream
  expect_message(print(recipes::prep(rec, data)), "Random Fourier features of")
  expect_message(recipes::recipes_extension_check("askrff"), "All steps have all method")
  # a step whose columns are all missing in training cannot be prepped
  holes <- data
  holes$a <- NA_real_
  expect_error(recipes::prep(rec, holes), "two training rows", class = "askrff_error")
})

test_that("step_rff() refuses bad settings and edited steps with the package's errors", {
  skip_if_not_installed("recipes")
  data <- tidy_data(n = 30)
  rec <- recipes::recipe(y ~ ., data = data)
  expect_error(step_rff(rec, a, kernel = "cauchy"), "`kernel` must be one of", class = "askrff_error")
  expect_error(step_rff(rec, a, kernel = list()), "kernel object", class = "askrff_error")
  expect_error(step_rff(rec, a, scale = -1), "`scale` must be", class = "askrff_error")
  expect_error(step_rff(rec, a, n_features = 0), "`n_features` must be", class = "askrff_error")
  expect_error(step_rff(rec, a, prefix = 1), "`prefix` must be", class = "askrff_error")
  expect_error(step_rff(rec, a, standardize = NA), "`standardize` must be", class = "askrff_error")
  expect_error(step_rff(rec, a, seed = -1), "`seed` must be", class = "askrff_error")
  expect_error(recipes::prep(step_rff(rec, a, kernel = ntk_kernel(), scale = 2), data), "`scale` must be 1",
               class = "askrff_error")
  expect_error(recipes::prep(step_rff(rec, a, method = "sobol"), data), "method", class = "askrff_error")
  trained <- recipes::prep(step_rff(rec, a, b, n_features = 4, standardize = TRUE, seed = 1), data)
  edited <- trained
  edited$steps[[1]]$map <- list(1)
  expect_error(recipes::bake(edited, data), class = "askrff_error")
  edited <- trained
  edited$steps[[1]]$scaling$center <- 1
  expect_error(recipes::bake(edited, data), "scaling", class = "askrff_error")
  edited <- trained
  edited$steps[[1]]$map <- rff_map(gaussian_kernel(1), 3, 4, seed = 1)
  expect_error(recipes::bake(edited, data), "is for 3 columns", class = "askrff_error")
  edited <- trained
  edited$steps[[1]]$prefix <- NA_character_
  expect_error(recipes::bake(edited, data), "prefix", class = "askrff_error")
})

test_that("the dials parameters have the documented ranges", {
  skip_if_not_installed("dials")
  skip_if_not_installed("scales")
  expect_equal(dials::range_get(rff_scale()), list(lower = 0.1, upper = 10))
  expect_equal(dials::range_get(rff_num_features()), list(lower = 64, upper = 2048))
  expect_equal(rff_kernel_family()$values, c("gaussian", "laplace", "exponential"))
  expect_error(rff_kernel_family("cauchy"), "`values` must name", class = "askrff_error")
})

test_that("rff_reg() fits through parsnip as rff_train() and rff_ridge() do directly", {
  skip_if_not_installed("parsnip")
  data <- tidy_data()
  spec <- rff_reg(penalty = 0.01, scale = 0.7, n_features = 32, kernel = "gaussian") |>
    parsnip::set_engine("askrff", standardize = TRUE, seed = 4) |>
    parsnip::set_mode("regression")
  fit <- parsnip::fit(spec, y ~ ., data = data)
  x <- as.matrix(data[, 1:3])
  direct <- rff_train(x, data$y, penalty = 0.01, scale = 0.7, n_features = 32, standardize = TRUE, seed = 4)
  expect_equal(predict(fit, data[1:9, ])$.pred, unname(predict(direct, x[1:9, ])), tolerance = 1e-12)
  # rff_train() is rff_ridge() with the kernel in median units
  standardized <- scale(x)
  kernel <- gaussian_kernel(0.7 * median_bandwidth(standardized, seed = 4))
  by_hand <- rff_ridge(x, data$y, lambda = 0.01, kernel = kernel, n_features = 32, seed = 4, standardize = TRUE)
  expect_equal(coef(direct), coef(by_hand), tolerance = 1e-10)
  # intervals are the posterior's
  intervals <- predict(fit, data[1:5, ], type = "pred_int", level = 0.9)
  expected <- predict(direct, x[1:5, ], interval = "prediction", level = 0.9)
  expect_equal(names(intervals), c(".pred_lower", ".pred_upper"))
  expect_equal(intervals$.pred_lower, unname(expected[, "lwr"]), tolerance = 1e-12)
  expect_equal(predict(fit, data[1:5, ], type = "conf_int")$.pred_upper,
               unname(predict(direct, x[1:5, ], interval = "confidence")[, "upr"]), tolerance = 1e-12)
  # the model's conventions: translation, update, tunable arguments
  expect_equal(parsnip::translate(spec)$method$fit$func, c(pkg = "askrff", fun = "rff_train"))
  updated <- stats::update(spec, scale = 2)
  expect_equal(rlang::eval_tidy(updated$args$scale), 2)
  expect_equal(rlang::eval_tidy(updated$args$penalty), 0.01)
  expect_true(all(c("penalty", "scale", "n_features", "kernel") %in% generics::tunable(spec)$name))
  expect_equal(generics::required_pkgs(spec), c("parsnip", "askrff"))
  expect_output(print(spec), "Random-feature kernel machine Model Specification \\(regression\\)")
  expect_output(parsnip::show_model_info("rff_reg"), "askrff")
})

test_that("rff_reg() classifies with class probabilities from rff_glm()", {
  skip_if_not_installed("parsnip")
  spec <- rff_reg(n_features = 16, penalty = 0.5) |>
    parsnip::set_engine("askrff", standardize = TRUE, seed = 2) |>
    parsnip::set_mode("classification")
  fit <- parsnip::fit(spec, Species ~ ., data = iris)
  probabilities <- predict(fit, iris[c(1, 51, 101), ], type = "prob")
  expect_equal(names(probabilities), paste0(".pred_", levels(iris$Species)))
  expect_equal(rowSums(probabilities), rep(1, 3), tolerance = 1e-12)
  direct <- rff_train(as.matrix(iris[, 1:4]), iris$Species, penalty = 0.5, n_features = 16, standardize = TRUE,
                      seed = 2)
  expect_equal(unname(as.matrix(probabilities)), unname(predict(direct, as.matrix(iris[c(1, 51, 101), 1:4]),
                                                                type = "response")), tolerance = 1e-12)
  expect_equal(predict(fit, iris[c(1, 51, 101), ])$.pred_class, factor(levels(iris$Species), levels(iris$Species)))
  # two classes: logistic regression, both columns of probabilities
  two <- droplevels(iris[iris$Species != "setosa", ])
  binary <- parsnip::fit(spec, Species ~ ., data = two)
  expect_equal(binary$fit$family, "binomial")
  p <- predict(binary, two[1:4, ], type = "prob")
  expect_equal(names(p), c(".pred_versicolor", ".pred_virginica"))
  expect_equal(p$.pred_virginica, unname(predict(binary$fit, as.matrix(two[1:4, 1:4]), type = "response")),
               tolerance = 1e-15)
})

test_that("rff_train() refuses bad settings with the package's errors", {
  data <- tidy_data(n = 30)
  x <- as.matrix(data[, 1:3])
  expect_error(rff_train(x, data$y, scale = 0), "`scale` must be", class = "askrff_error")
  expect_error(rff_train(x, data$y, kernel = "cauchy"), "`kernel` must be one of", class = "askrff_error")
  expect_error(rff_train(data.frame(a = letters[1:30]), data$y), "numeric columns only", class = "askrff_error")
  expect_error(rff_train(x, data$y, kernel = arccos_kernel(1), scale = 3), "`scale` must be 1",
               class = "askrff_error")
})

test_that("tune_grid() tunes penalty and scale of a workflow, and the chosen fit is the direct one", {
  skip_on_cran()
  skip_if_not_installed("tune")
  skip_if_not_installed("workflows")
  skip_if_not_installed("rsample")
  skip_if_not_installed("yardstick")
  data <- tidy_data(n = 200)
  spec <- rff_reg(penalty = tune::tune(), scale = tune::tune(), n_features = 32) |>
    parsnip::set_engine("askrff", seed = 7) |>
    parsnip::set_mode("regression")
  rec <- recipes::recipe(y ~ ., data = data) |> recipes::step_normalize(recipes::all_numeric_predictors())
  flow <- workflows::workflow() |> workflows::add_recipe(rec) |> workflows::add_model(spec)
  set.seed(1)
  folds <- rsample::vfold_cv(data, v = 3)
  grid <- expand.grid(penalty = c(1e-3, 1), scale = c(0.3, 3))
  tuned <- tune::tune_grid(flow, resamples = folds, grid = grid,
                           metrics = yardstick::metric_set(yardstick::rmse))
  results <- tune::collect_metrics(tuned)
  expect_equal(nrow(results), 4L)
  best <- tune::select_best(tuned, metric = "rmse")
  final <- parsnip::fit(tune::finalize_workflow(flow, best), data)
  x <- scale(as.matrix(data[, 1:3]))
  direct <- rff_train(x, data$y, penalty = best$penalty, scale = best$scale, n_features = 32, seed = 7)
  expect_equal(predict(final, data[1:6, ])$.pred, unname(predict(direct, x[1:6, ])), tolerance = 1e-10)
  # the wiggly truth needs short length scales and a small penalty
  expect_equal(c(best$penalty, best$scale), c(1e-3, 0.3))
})

test_that("tune_grid() tunes step_rff()'s scale and size in a workflow with lm", {
  skip_on_cran()
  skip_if_not_installed("tune")
  skip_if_not_installed("workflows")
  skip_if_not_installed("rsample")
  skip_if_not_installed("yardstick")
  data <- tidy_data(n = 200)
  rec <- recipes::recipe(y ~ ., data = data) |>
    step_rff(recipes::all_numeric_predictors(), scale = tune::tune(), n_features = tune::tune(),
             standardize = TRUE, seed = 5)
  flow <- workflows::workflow() |> workflows::add_recipe(rec) |> workflows::add_model(parsnip::linear_reg())
  set.seed(2)
  folds <- rsample::vfold_cv(data, v = 3)
  # 4 to 16 frequencies: lm() on more columns than a fold's 133 rows would be rank-deficient
  params <- stats::update(tune::extract_parameter_set_dials(flow), n_features = rff_num_features(c(2, 4)))
  tuned <- tune::tune_grid(flow, resamples = folds, grid = 3, param_info = params,
                           metrics = yardstick::metric_set(yardstick::rmse))
  best <- tune::select_best(tuned, metric = "rmse")
  final <- parsnip::fit(tune::finalize_workflow(flow, best), data)
  # the same model by hand: the step's features, then lm()
  baked <- recipes::bake(recipes::prep(tune::finalize_recipe(rec, best), data), new_data = NULL)
  by_hand <- stats::lm(y ~ ., data = baked)
  expect_equal(predict(final, data[1:6, ])$.pred, unname(predict(by_hand, baked[1:6, ])), tolerance = 1e-8)
  expect_true(best$scale >= 0.1 && best$scale <= 10)
})

test_that("rff_reg() and the svm_rbf() engine are registered whichever of askrff and parsnip loads first", {
  skip_if_not_installed("parsnip")
  script <- paste("invisible(loadNamespace('parsnip')); library(askrff);",
                  "spec <- parsnip::set_mode(rff_reg(n_features = 4), 'regression');",
                  "fit <- parsnip::fit(spec, mpg ~ wt + hp, data = mtcars);",
                  "cat(class(fit$fit)[1])")
  out <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(script)), stdout = TRUE, stderr = FALSE)
  expect_equal(out, "askrff_ridge")
  # askrff first: the hook on parsnip's loading registers the models, and
  # svm_rbf()'s engine beside kernlab's
  script <- paste("library(askrff); invisible(loadNamespace('parsnip')); models <- parsnip::get_model_env();",
                  "cat(nrow(models$rff_reg_fit), 'askrff' %in% models$svm_rbf$engine)")
  out <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(script)), stdout = TRUE, stderr = FALSE)
  # one fit per mode: regression, classification, quantile regression
  expect_equal(out, "3 TRUE")
  script <- paste("invisible(loadNamespace('parsnip')); library(askrff);",
                  "cat('askrff' %in% parsnip::get_model_env()$svm_rbf$engine)")
  out <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(script)), stdout = TRUE, stderr = FALSE)
  expect_equal(out, "TRUE")
})
