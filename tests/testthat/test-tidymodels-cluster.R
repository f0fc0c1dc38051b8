# step_rff_cluster(): rff_kmeans() as a recipes step. The tidymodels
# packages are Suggests: these tests skip only where one is missing (CI
# installs them).

ring_frame <- function(n = 200, seed = 1) {
  set.seed(seed)
  angle <- stats::runif(n, 0, 2 * pi)
  ring <- rep(1:2, length.out = n)
  data.frame(a = c(1, 4)[ring] * cos(angle) + stats::rnorm(n, sd = 0.1),
             b = c(1, 4)[ring] * sin(angle) + stats::rnorm(n, sd = 0.1), ring = factor(ring))
}

test_that("step_rff_cluster() bakes rff_kmeans()'s clusters of the standardized columns, for any new data", {
  skip_if_not_installed("recipes")
  data <- ring_frame()
  rec <- recipes::recipe(ring ~ ., data = data) |>
    step_rff_cluster(a, b, num_clusters = 2, kernel = gaussian_kernel(1), scale = 0.5, n_features = 256,
                     standardize = TRUE, n_starts = 3, seed = 4)
  trained <- recipes::prep(rec, data)
  baked <- recipes::bake(trained, new_data = NULL)
  expect_equal(names(baked), c("a", "b", "ring", "rff_cluster"))
  expect_s3_class(baked$rff_cluster, "factor")
  expect_equal(levels(baked$rff_cluster), c("1", "2"))
  # the same clusters by hand: standardized columns, the kernel object's
  # length scale times `scale`, the map and the starts from the step's seed
  x <- as.matrix(data[, c("a", "b")])
  standardized <- sweep(sweep(x, 2, colMeans(x)), 2, apply(x, 2, stats::sd), "/")
  by_hand <- rff_kmeans(standardized, 2, map = rff_map(gaussian_kernel(0.5), 2, 256, seed = 4), n_starts = 3,
                        seed = 4)
  expect_identical(as.integer(baked$rff_cluster), by_hand$cluster)
  # the kernel's clusters are the rings, which the coordinates' k-means misses
  expect_equal(max(prop.table(table(baked$rff_cluster, data$ring), 1)), 1)
  # the prepped step keeps no training clusters
  expect_null(trained$steps[[1]]$kmeans$cluster)
  # new rows need only the selected columns; a missing value gives NA
  fresh <- data[8:10, ]
  fresh$b[2] <- NA
  baked_fresh <- recipes::bake(trained, new_data = fresh)
  expect_true(is.na(baked_fresh$rff_cluster[2]))
  expect_identical(as.integer(baked_fresh$rff_cluster[-2]), by_hand$cluster[c(8, 10)])
  expect_error(recipes::bake(trained, new_data = data[, "a", drop = FALSE]), "b")
  # keep_original_cols = FALSE replaces the selected columns, and a kernel
  # by name has `scale` median distances between standardized rows
  replaced <- recipes::recipe(ring ~ ., data = data) |>
    step_rff_cluster(a, b, num_clusters = 3, scale = 2, n_features = 8, keep_original_cols = FALSE,
                     prefix = "group", seed = 2) |>
    recipes::prep(data)
  expect_equal(names(recipes::bake(replaced, new_data = NULL)), c("ring", "group"))
  expect_equal(replaced$steps[[1]]$kmeans$map$kernel$params$sigma, 2 * median_bandwidth(standardized, seed = 2),
               tolerance = 1e-14)
})

test_that("step_rff_cluster() follows the recipes conventions: tidy, tunable, required packages, print", {
  skip_if_not_installed("recipes")
  data <- ring_frame(n = 40)
  rec <- recipes::recipe(ring ~ ., data = data) |> step_rff_cluster(a, b, num_clusters = 2, n_features = 8, seed = 1)
  before <- generics::tidy(rec, number = 1)
  expect_equal(names(before), c("cluster", "size", "withinss", "id"))
  expect_true(is.na(before$size))
  trained <- recipes::prep(rec, data)
  after <- generics::tidy(trained, number = 1)
  fit <- trained$steps[[1]]$kmeans
  expect_equal(after$cluster, 1:2)
  expect_equal(after$size, as.integer(fit$size))
  expect_equal(sum(after$size), 40L)
  expect_equal(after$withinss, fit$withinss)
  tunable <- generics::tunable(rec$steps[[1]])
  expect_equal(tunable$name, c("num_clusters", "scale", "n_features", "kernel"))
  expect_true(all(tunable$component == "step_rff_cluster"))
  expect_equal(generics::required_pkgs(rec$steps[[1]]), "askrff")
  expect_message(print(trained), "Kernel k-means clusters of")
  expect_message(recipes::recipes_extension_check("askrff"), "All steps have all method")
  # no columns selected: the step does nothing
  none <- recipes::recipe(ring ~ ., data = data) |>
    step_rff_cluster(recipes::all_nominal_predictors(), n_features = 8, seed = 1) |>
    recipes::prep(data)
  expect_equal(names(recipes::bake(none, new_data = NULL)), c("a", "b", "ring"))
})

test_that("step_rff_cluster() tunes its clusters and scale with tune_grid()", {
  skip_if_not_installed("recipes")
  skip_if_not_installed("dials")
  skip_if_not_installed("tune")
  skip_if_not_installed("parsnip")
  skip_if_not_installed("workflows")
  skip_if_not_installed("rsample")
  skip_if_not_installed("yardstick")
  data <- ring_frame(n = 120)
  rec <- recipes::recipe(ring ~ ., data = data) |>
    step_rff_cluster(a, b, num_clusters = tune::tune(), scale = tune::tune(), n_features = 64,
                     keep_original_cols = FALSE, seed = 1)
  wf <- workflows::workflow(rec, parsnip::logistic_reg())
  grid <- data.frame(num_clusters = c(2L, 4L), scale = c(0.5, 1))
  set.seed(1)
  tuned <- tune::tune_grid(wf, rsample::vfold_cv(data, v = 2), grid = grid)
  metrics <- tune::collect_metrics(tuned)
  expect_setequal(unique(metrics$num_clusters), c(2L, 4L))
  # the clusters are the rings at the right scale: a perfect classifier
  best <- tune::select_best(tuned, metric = "accuracy")
  expect_gt(max(metrics$mean[metrics$.metric == "accuracy"]), 0.9)
  expect_true(best$num_clusters %in% c(2L, 4L))
})

test_that("step_rff_cluster() refuses what it cannot fit, with the argument named", {
  skip_if_not_installed("recipes")
  data <- ring_frame(n = 20)
  rec <- recipes::recipe(ring ~ ., data = data)
  expect_error(step_rff_cluster(rec, a, num_clusters = 0), "num_clusters", class = "askrff_error")
  expect_error(step_rff_cluster(rec, a, n_starts = -1), "n_starts", class = "askrff_error")
  expect_error(step_rff_cluster(rec, a, prefix = NA), "prefix", class = "askrff_error")
  expect_error(recipes::prep(step_rff_cluster(rec, a, b, prefix = "a", n_features = 8, seed = 1), data), "`prefix`",
               class = "askrff_error")
  # (a selected column it replaces may lend its name)
  replaced <- recipes::prep(step_rff_cluster(rec, a, b, prefix = "a", keep_original_cols = FALSE, n_features = 8,
                                             seed = 1), data)
  expect_equal(names(recipes::bake(replaced, new_data = NULL)), c("ring", "a"))
  holes <- data
  holes$a[-1] <- NA
  expect_error(recipes::prep(step_rff_cluster(rec, a, b), holes), "two training rows", class = "askrff_error")
  expect_error(recipes::prep(step_rff_cluster(rec, a, b, num_clusters = 25, n_features = 8, seed = 1), data),
               "centers", class = "askrff_error")
})
