# step_rff_pca(): rff_pca() as a recipes step. The tidymodels packages are
# Suggests: these tests skip only where one is missing (CI installs them).

pca_frame <- function(n = 120, seed = 1) {
  set.seed(seed)
  x <- matrix(stats::runif(3 * n, -2, 2), n, 3, dimnames = list(NULL, c("a", "b", "c")))
  data.frame(x, y = sin(2 * x[, 1]) + stats::rnorm(n, sd = 0.1))
}

test_that("step_rff_pca() bakes rff_pca()'s scores of the standardized columns, for any new data", {
  skip_if_not_installed("recipes")
  data <- pca_frame()
  rec <- recipes::recipe(y ~ ., data = data) |>
    step_rff_pca(recipes::all_numeric_predictors(), num_comp = 3, kernel = matern_kernel(1, 2.5), scale = 0.5,
                 n_features = 16, standardize = TRUE, seed = 3)
  trained <- recipes::prep(rec, data)
  baked <- recipes::bake(trained, new_data = NULL)
  expect_equal(names(baked), c("y", "KPC1", "KPC2", "KPC3"))
  # the same components by hand: standardized columns, the kernel object's
  # length scale times `scale`, the map from the step's seed
  x <- as.matrix(data[, c("a", "b", "c")])
  standardized <- sweep(sweep(x, 2, colMeans(x)), 2, apply(x, 2, stats::sd), "/")
  by_hand <- rff_pca(standardized, map = rff_map(matern_kernel(0.5, 2.5), 3, 16, seed = 3), rank = 3)
  expect_equal(unname(as.matrix(baked[, -1])), unname(by_hand$x), tolerance = 1e-10)
  # a kernel by name has `scale` median distances between standardized rows
  by_name <- recipes::recipe(y ~ ., data = data) |>
    step_rff_pca(a, b, c, scale = 2, n_features = 8, seed = 3) |>
    recipes::prep(data)
  expect_equal(by_name$steps[[1]]$pca$map$kernel$params$sigma, 2 * median_bandwidth(standardized, seed = 3),
               tolerance = 1e-14)
  # the prepped step keeps no training scores
  expect_null(trained$steps[[1]]$pca$x)
  # new rows need only the selected columns; a missing value gives NA scores
  fresh <- data[8:10, ]
  fresh$b[2] <- NA
  baked_fresh <- recipes::bake(trained, new_data = fresh)
  expect_true(all(is.na(baked_fresh[2, -1])))
  expect_equal(unname(as.matrix(baked_fresh[-2, -1])), unname(by_hand$x[c(8, 10), ]), tolerance = 1e-10)
  expect_error(recipes::bake(trained, new_data = data[, c("a", "b")]), "c")
  # keep_original_cols keeps the selected columns beside the scores
  kept <- recipes::recipe(y ~ ., data = data) |>
    step_rff_pca(a, b, num_comp = 2, n_features = 4, keep_original_cols = TRUE, prefix = "k", seed = 2) |>
    recipes::prep(data) |>
    recipes::bake(new_data = NULL)
  expect_equal(names(kept), c("a", "b", "c", "y", "k1", "k2"))
})

test_that("step_rff_pca() follows the recipes conventions: tidy, tunable, required packages, print", {
  skip_if_not_installed("recipes")
  data <- pca_frame(n = 40)
  rec <- recipes::recipe(y ~ ., data = data) |> step_rff_pca(a, b, num_comp = 2, n_features = 8, seed = 1)
  before <- generics::tidy(rec, number = 1)
  expect_equal(names(before), c("component", "variance", "percent_variance", "id"))
  expect_true(is.na(before$variance))
  trained <- recipes::prep(rec, data)
  after <- generics::tidy(trained, number = 1)
  pca <- trained$steps[[1]]$pca
  expect_equal(after$component, c("PC1", "PC2"))
  expect_equal(after$variance, pca$sdev[1:2]^2)
  expect_equal(after$percent_variance, 100 * pca$sdev[1:2]^2 / sum(pca$sdev^2))
  tunable <- generics::tunable(rec$steps[[1]])
  expect_equal(tunable$name, c("num_comp", "scale", "n_features", "kernel"))
  expect_equal(vapply(tunable$call_info, `[[`, "", "fun"), c("num_comp", "rff_scale", "rff_num_features",
                                                             "rff_kernel_family"))
  expect_equal(generics::required_pkgs(rec$steps[[1]]), "askrff")
  expect_message(print(trained), "Kernel principal components of")
  expect_message(recipes::recipes_extension_check("askrff"), "All steps have all method")
  # tune() placeholders wait for prep()
  expect_s3_class(step_rff_pca(recipes::recipe(y ~ ., data = data), a, num_comp = hardhat::tune(), scale = hardhat::tune()),
                  "recipe")
})

test_that("step_rff_pca() refuses bad settings and edited steps with the package's errors", {
  skip_if_not_installed("recipes")
  data <- pca_frame(n = 30)
  rec <- recipes::recipe(y ~ ., data = data)
  expect_error(step_rff_pca(rec, a, num_comp = 0), "`num_comp` must be", class = "askrff_error")
  expect_error(step_rff_pca(rec, a, kernel = "cauchy"), "`kernel` must be one of", class = "askrff_error")
  expect_error(step_rff_pca(rec, a, scale = -1), "`scale` must be", class = "askrff_error")
  expect_error(step_rff_pca(rec, a, prefix = 1), "`prefix` must be", class = "askrff_error")
  expect_error(recipes::prep(step_rff_pca(rec, a, num_comp = 9, n_features = 4), data),
               "`num_comp` is 9, but the map has 8 feature columns", class = "askrff_error")
  holes <- data
  holes$a <- NA_real_
  expect_error(recipes::prep(step_rff_pca(rec, a), holes), "two training rows", class = "askrff_error")
  trained <- recipes::prep(step_rff_pca(rec, a, b, num_comp = 2, n_features = 4, seed = 1), data)
  edited <- trained
  edited$steps[[1]]$pca$rotation <- edited$steps[[1]]$pca$rotation[-1, ]
  expect_error(recipes::bake(edited, data), "step\\$pca\\$rotation", class = "askrff_error")
  edited <- trained
  edited$steps[[1]]$pca <- list(1)
  expect_error(recipes::bake(edited, data), "step\\$pca", class = "askrff_error")
  edited <- trained
  edited$steps[[1]]$columns <- c("a", "b", "c")
  expect_error(recipes::bake(edited, data), "is for 2 columns", class = "askrff_error")
  edited <- trained
  edited$steps[[1]]$prefix <- NA_character_
  expect_error(recipes::bake(edited, data), "prefix", class = "askrff_error")
})
