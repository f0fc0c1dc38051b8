# The kernel's scale from the data: a kernel by name (or none) has its
# length scale in median distances between standardized rows and is
# searched by the fit's criterion; a kernel object keeps its own.

scale_data <- function(n = 300, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * 3), n, 3)
  # columns in units far from 1, which a kernel of length scale 1 ignores
  x <- sweep(x, 2, c(1000, 0.001, 1), "*")
  f <- sin(x[, 1] / 700) + (x[, 2] / 0.001)^2 / 2
  list(x = x, y = f + rnorm(n, sd = 0.1), f = f, frame = data.frame(x, y = f + rnorm(n, sd = 0.1)))
}

standardized <- function(x) sweep(sweep(x, 2, colMeans(x)), 2, apply(x, 2, stats::sd), "/")

test_that("with no kernel, rff_ridge() searches a Gaussian kernel's scale in median distances", {
  data <- scale_data()
  fit <- rff_ridge(data$x, data$y, seed = 1)
  expect_s3_class(fit$map$kernel, "gaussian_kernel")
  expect_false(is.null(fit$scaling))
  expect_identical(fit$map$n_features, 256L)
  # the search's unit is the median distance between the standardized rows
  median <- median_bandwidth(standardized(data$x), seed = 1)
  expect_equal(fit$selection$kernel$params$sigma, median, tolerance = 1e-12)
  chosen <- fit$selection$scales[fit$selection$chosen, ]
  expect_equal(fit$map$kernel$params$sigma, chosen * median, tolerance = 1e-12)
  # the search is refined on all of the map's frequencies after 64
  expect_setequal(unique(fit$selection$frequencies), c(64L, 256L))
  expect_identical(fit$selection$frequencies[fit$selection$chosen], 256L)
  # the default fits the signal where a kernel of length scale 1 in the
  # data's units cannot: its residuals are near the noise (sd 0.1)
  fixed <- rff_ridge(data$x, data$y, kernel = gaussian_kernel(1), n_features = 256, seed = 1)
  expect_lt(sqrt(mean((fitted(fit) - data$f)^2)), 0.1)
  expect_gt(sqrt(mean((fitted(fixed) - data$f)^2)), 0.5)
})

test_that("the default fit does not depend on the units of the predictors", {
  data <- scale_data()
  fit <- rff_ridge(data$x, data$y, seed = 2)
  rescaled <- rff_ridge(sweep(data$x, 2, c(1e-3, 1e4, 7), "*"), data$y, seed = 2)
  expect_equal(fitted(rescaled), fitted(fit), tolerance = 1e-6)
})

test_that("a kernel object keeps its scale and the data their units unless asked", {
  data <- scale_data()
  fit <- rff_ridge(data$x, data$y, kernel = gaussian_kernel(2), seed = 1)
  expect_null(fit$selection)
  expect_null(fit$scaling)
  expect_identical(fit$map$kernel$params$sigma, 2)
  # one factor is used as it is, with no search
  one <- rff_ridge(data$x, data$y, kernel = gaussian_kernel(2), scale = 3, seed = 1)
  expect_null(one$selection)
  expect_equal(one$map$kernel$params$sigma, 6)
  # by name, one factor is in median distances
  named <- rff_ridge(data$x, data$y, kernel = "laplace", scale = 0.5, seed = 1)
  expect_s3_class(named$map$kernel, "laplace_kernel")
  expect_equal(named$map$kernel$params$sigma, 0.5 * median_bandwidth(standardized(data$x), seed = 1), tolerance = 1e-12)
  expect_error(rff_ridge(data$x, data$y, kernel = "gauss"), "`kernel` must be one of", class = "askrff_error")
})

test_that("a search on more rows than its sample runs on evenly spaced rows, and the fit on all", {
  set.seed(3)
  n <- 2600
  x <- matrix(rnorm(n * 2), n, 2)
  y <- sin(2 * x[, 1]) + rnorm(n, sd = 0.2)
  fit <- rff_ridge(x, y, n_features = 32, criterion = "evidence", seed = 1)
  expect_true(all(fit$selection$rows == 2000L))
  # 32 frequencies need no refinement: every candidate is on them
  expect_true(all(fit$selection$frequencies == 32L))
  expect_identical(fit$n, n)
  # the fit is the one at the chosen scale on all rows
  kernel <- fit$map$kernel
  again <- rff_ridge(x, y, kernel = kernel, n_features = 32, criterion = "evidence", seed = 1, standardize = fit$scaling)
  expect_equal(coef(again), coef(fit), tolerance = 1e-10)
})

test_that("the refinement on all frequencies takes an eighth of the rows when that is more than the search's", {
  set.seed(4)
  n <- 17000
  x <- matrix(rnorm(n * 2), n, 2)
  y <- sin(2 * x[, 1]) + x[, 2]^2 / 2 + rnorm(n, sd = 0.3)
  fit <- rff_ridge(x, y, n_features = 128, seed = 1, n_threads = 1)
  coarse <- fit$selection$frequencies == 64L
  expect_true(all(fit$selection$rows[coarse] == 2000L))
  expect_true(all(fit$selection$rows[!coarse] == 2125L))
  expect_false(coarse[fit$selection$chosen])
  # the chosen candidate's leave-one-out error is that of a fit on 2,125
  # evenly spaced rows at its scale (the same map and standardization)
  rows <- unique(round(seq(1, n, length.out = 2125L)))
  again <- rff_ridge(x[rows, ], y[rows], kernel = fit$map$kernel, n_features = 128, seed = 1,
                     standardize = fit$scaling, n_threads = 1)
  expect_equal(min(again$path$loo), fit$selection$value[fit$selection$chosen], tolerance = 1e-10)
  expect_identical(fit$n, n)
  # a fit saved before the refinement took more rows recorded one number
  older <- fit
  older$selection$rows <- 2000L
  expect_output(print(older))
  older$selection$rows <- c(2000L, 2125L)
  expect_error(print(older), "must record each candidate's `rows`", class = "askrff_error")
})

test_that("rff_glm() searches the scale by a ridge surrogate's evidence, or by its cross-validated deviance", {
  data <- scale_data(n = 240)
  binary <- as.integer(data$f > stats::median(data$f))
  counts <- stats::rpois(240, exp(data$f / 2))
  # by default, the scales ridge regression's evidence chooses for the
  # response's encoding (the 0/1 indicator; counts' Anscombe roots) on the
  # same map, and the GLM at them
  for (case in list(list(y = binary, family = "binomial", surrogate = binary),
                    list(y = counts, family = "poisson", surrogate = sqrt(counts + 3 / 8)))) {
    fit <- rff_glm(data$x, case$y, family = case$family, seed = 1, n_features = 32)
    ridge <- rff_ridge(data$x, case$surrogate, seed = 1, n_features = 32, criterion = "evidence")
    expect_identical(fit$selection$criterion, "evidence")
    expect_identical(fit$selection$surrogate, "ridge")
    expect_equal(fit$selection$scales, ridge$selection$scales, tolerance = 1e-12, label = case$family)
    expect_equal(fit$selection$value, ridge$selection$value, tolerance = 1e-12, label = case$family)
    expect_equal(fit$map$kernel, ridge$map$kernel, tolerance = 1e-12, label = case$family)
    expect_output(print(fit), "optimized by evidence of ridge regression on the response")
  }
  expect_equal(fit$map$kernel$params$sigma,
               fit$selection$scales[fit$selection$chosen, ] * median_bandwidth(standardized(data$x), seed = 1),
               tolerance = 1e-12)
  # with one lambda the surrogate still searches
  expect_identical(rff_glm(data$x, binary, n_features = 32, lambda = 1, seed = 1)$selection$surrogate, "ridge")
  # by the cross-validated deviance: the chosen candidate's value is the fit's least
  cv <- rff_glm(data$x, binary, seed = 1, n_features = 32, scale_by = "cv")
  expect_identical(cv$selection$criterion, "cv")
  expect_null(cv$selection$surrogate)
  expect_equal(cv$selection$value[cv$selection$chosen], min(cv$path$cv), tolerance = 1e-12)
  fixed <- rff_glm(data$x, binary, kernel = gaussian_kernel(1), n_features = 32, seed = 1)
  expect_lt(min(cv$path$cv), min(fixed$path$cv))
  expect_lt(min(rff_glm(data$x, binary, seed = 1, n_features = 32)$path$cv), min(fixed$path$cv))
  expect_error(rff_glm(data$x, binary, n_features = 32, lambda = 1, scale = "optimize", scale_by = "cv"),
               "needs `lambda` NULL or several values", class = "askrff_error")
  expect_error(rff_glm(data$x, binary, n_features = 32, scale_by = "aic"), "`scale_by`", class = "askrff_error")
  # with one lambda the cross-validated search takes the median distance, unsearched
  one <- rff_glm(data$x, binary, n_features = 32, lambda = 1, seed = 1, scale_by = "cv")
  expect_null(one$selection)
  expect_equal(one$map$kernel$params$sigma, median_bandwidth(standardized(data$x), seed = 1), tolerance = 1e-12)
  # a saved fit's record says which model chose its scales
  edited <- fit
  edited$selection$surrogate <- "lasso"
  expect_error(print(edited), "`x\\$selection\\$surrogate` must be NULL or \"ridge\"", class = "askrff_error")
  edited$selection$surrogate <- NULL
  expect_error(print(edited), "must record the fit's criterion", class = "askrff_error")
})

test_that("rff_basis() takes the median distance for a kernel by name", {
  data <- scale_data(n = 50)
  basis <- rff_basis(data$x, n_features = 4, seed = 1)
  expect_equal(attr(basis, "map")$kernel$params$sigma, median_bandwidth(standardized(data$x), seed = 1),
               tolerance = 1e-12)
  expect_identical(attr(rff_basis(data$x, kernel = gaussian_kernel(3), n_features = 4, seed = 1), "standardize"), FALSE)
})

test_that("rff_glm() takes the family from the response when none is given", {
  data <- scale_data(n = 120)
  two <- factor(ifelse(data$f > stats::median(data$f), "high", "low"))
  three <- cut(data$f, 3, labels = c("a", "b", "c"))
  fit <- rff_glm(data$x, two, kernel = gaussian_kernel(1), n_features = 8, lambda = 1, seed = 1, standardize = TRUE)
  expect_identical(fit$family, "binomial")
  fit <- rff_glm(data$x, three, kernel = gaussian_kernel(1), n_features = 8, lambda = 1, seed = 1, standardize = TRUE)
  expect_identical(fit$family, "multinomial")
  frame <- data.frame(data$x, three = three)
  expect_identical(rff_glm(three ~ ., frame, kernel = gaussian_kernel(1), n_features = 8, lambda = 1, seed = 1)$family,
                   "multinomial")
  expect_identical(rff_glm(data$x, as.integer(two == "high"), kernel = gaussian_kernel(1), n_features = 8, lambda = 1,
                           seed = 1)$family, "binomial")
  # counts could be classes or counts: the family must be said
  expect_error(rff_glm(data$x, rpois(120, 3) + 2, kernel = gaussian_kernel(1), n_features = 8, lambda = 1),
               "holds counts.*give `family`", class = "askrff_error")
  expect_error(rff_glm(data$x, factor(rep("a", 120)), kernel = gaussian_kernel(1), n_features = 8, lambda = 1),
               "at least two classes, not 1", class = "askrff_error")
  expect_error(rff_glm(data$x, two, kernel = gaussian_kernel(1), n_features = 8, lambda = c(1, 1)),
               "`lambda` must hold distinct values; 1 is given twice", class = "askrff_error")
})

test_that("standardization takes columns at any scale, and an empty column is named", {
  data <- scale_data(n = 60)
  fit <- rff_ridge(data$x, data$y, n_features = 8, seed = 1, lambda = 1, standardize = TRUE)
  for (factor in c(1e-300, 1e300)) {
    scaled <- rff_ridge(data$x * factor, data$y, n_features = 8, seed = 1, lambda = 1, standardize = TRUE)
    expect_equal(fitted(scaled), fitted(fit), tolerance = 1e-8)
  }
  frame <- data.frame(data$x, y = data$y, empty = NA_real_)
  expect_error(rff_ridge(y ~ ., frame, n_features = 8), "has 0 rows.*`empty` has fewer than two values", class = "askrff_error")
})

test_that("scale factors beyond 1e-8 to 1e8 and mistyped engine arguments are refused by name", {
  data <- scale_data(n = 40)
  for (bad in c(1e-300, 1e300)) {
    expect_error(rff_ridge(data$x, data$y, scale = bad, n_features = 4), "`scale` must be between 1e-8 and 1e8",
                 class = "askrff_error")
    expect_error(rff_basis(data$x, n_features = 4), NA)
  }
  expect_error(rff_train(data$x, data$y, scale = 1e-300), "`scale` must be between 1e-8 and 1e8", class = "askrff_error")
  expect_error(rff_train(data$x, data$y, bogus = 1), "Unknown argument: `bogus`", class = "askrff_error")
  skip_if_not_installed("recipes")
  expect_error(recipes::recipe(y ~ ., data = data$frame) |> step_rff(recipes::all_numeric_predictors(), scale = 1e-300),
               "`scale` must be between 1e-8 and 1e8", class = "askrff_error")
})

test_that("a scale search shows its progress where progressr is enabled, however many candidates it takes", {
  skip_if_not_installed("progressr")
  data <- scale_data(n = 120)
  # progressr is off outside interactive sessions unless enabled; a search's
  # count of candidates is only expected, and progressr refuses an unknown one
  old <- options(progressr.enable = TRUE)
  on.exit(options(old))
  updates <- character()
  withCallingHandlers(
    progressr::with_progress(fit <- rff_ridge(data$x, data$y, n_features = 16, seed = 1), handlers = list()),
    progression = function(p) if (length(p$message) > 0L) updates <<- c(updates, p$message))
  candidates <- nrow(fit$selection$scales)
  expect_gte(sum(startsWith(updates, "scale ")), candidates)
  glm <- NULL
  expect_no_warning(progressr::with_progress(
    glm <- rff_glm(data$x, data$y > 0, n_features = 16, seed = 1, scale_by = "cv"), handlers = list()))
  expect_s3_class(glm, "askrff_glm")
  # a handler that draws follows one progressor at a time: the passes within
  # the search and an eigendecomposition within them report through the
  # search's own, which a progressor of their own would end (every later
  # candidate's update was then refused with a warning)
  shown <- utils::capture.output(expect_no_warning(progressr::with_progress(
    fit <- rff_ridge(data$x, data$y, n_features = 16, seed = 1), handlers = progressr::handler_debug())),
    type = "message")
  expect_true(any(grepl("initiate: 0/25", shown, fixed = TRUE)))
  expect_true(any(grepl("pass 2, chunk 1", shown, fixed = TRUE)))
  expect_true(any(grepl("scale 1: loo", shown, fixed = TRUE)))
  # one progressor: none other is initiated within it
  expect_identical(sum(grepl("initiate:", shown, fixed = TRUE)), 1L)
  # and none is left owning the progress once the fit returns
  expect_null(askrff:::progress_owner$progress)
  # without a search, a fit's first eigendecomposition (512 columns) reports
  # before its passes and is done then: the passes after it report as their
  # own, not into its full bar, where progressr drops them
  map <- rff_map(gaussian_kernel(1), ncol(data$x), 256, seed = 1)
  shown <- utils::capture.output(expect_no_warning(progressr::with_progress(
    fit <- rff_glm(data$x, data$y > 0, map, seed = 1), handlers = progressr::handler_debug())), type = "message")
  expect_true(any(grepl("eigendecomposition", shown, fixed = TRUE)))
  # (the first pass's, the decomposition's, and one per pass after it; an
  # owner for the whole solver, made before its first decomposition, left
  # two)
  expect_gt(sum(grepl("initiate:", shown, fixed = TRUE)), fit$passes)
  expect_null(askrff:::progress_owner$progress)
})
