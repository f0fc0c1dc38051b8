# Kernel k-means on random features (R/unsupervised-kmeans*.R): Lloyd's
# steps against stats::kmeans() of rff_features() from the same starts,
# exactly; weights, chunks and threads; the starts, empty clusters and
# non-convergence; the clusters of two shapes against kernlab::specc.

kmeans_data <- function(n = 300, seed = 1) {
  set.seed(seed)
  centre <- sample(3, n, replace = TRUE)
  x <- cbind(a = c(0, 3, 0)[centre] + rnorm(n, sd = 0.8), b = c(0, 0, 3)[centre] + rnorm(n, sd = 0.8))
  list(x = x, map = rff_map(gaussian_kernel(2), 2, 40, seed = seed))
}

test_that("from the same starts, rff_kmeans() is kmeans(algorithm = \"Lloyd\") of the features", {
  d <- kmeans_data()
  starts <- d$x[c(3, 50, 200), ]
  fit <- rff_kmeans(d$x, starts, map = d$map, tol = 0)
  z <- rff_features(d$map, d$x)
  reference <- stats::kmeans(z, rff_features(d$map, starts), iter.max = 100, algorithm = "Lloyd")
  expect_s3_class(fit, c("askrff_kmeans", "kmeans"))
  expect_identical(unname(fit$cluster), reference$cluster)
  expect_identical(fit$size, reference$size)
  expect_identical(fit$iter, reference$iter)
  expect_identical(fit$ifault, 0L)
  expect_true(fit$converged)
  expect_equal(unname(fit$centers), unname(reference$centers), tolerance = 1e-12)
  for (name in c("withinss", "totss", "tot.withinss", "betweenss")) {
    expect_equal(fit[[name]], reference[[name]], tolerance = 1e-10, label = name)
  }
  expect_identical(fitted(fit, "classes"), fit$cluster)
  expect_equal(unname(fitted(fit)), unname(fit$centers[fit$cluster, ]))
  # new rows go to the nearest centre; a row with NA has none
  expect_identical(predict(fit, d$x), unname(fit$cluster))
  expect_identical(predict(fit), fit$cluster)
  expect_identical(predict(fit, rbind(d$x[1:2, ], c(NA, 1)))[3], NA_integer_)
})

test_that("a row of weight 2 counts as the row twice; chunks and threads give the same fit", {
  d <- kmeans_data(120)
  starts <- d$x[c(1, 2, 3), ]
  w <- rep(c(1, 2), 60)
  weighted <- rff_kmeans(d$x, starts, map = d$map, weights = w, tol = 0)
  twice <- rff_kmeans(d$x[rep(seq_len(120), w), ], starts, map = d$map, tol = 0)
  expect_equal(unname(weighted$centers), unname(twice$centers), tolerance = 1e-12)
  expect_identical(unname(weighted$cluster), unname(twice$cluster[!duplicated(rep(seq_len(120), w))]))
  for (name in c("withinss", "totss", "tot.withinss")) {
    expect_equal(weighted[[name]], twice[[name]], tolerance = 1e-10, label = name)
  }
  expect_identical(weighted$size, as.integer(table(factor(weighted$cluster, 1:3))))
  expect_identical(weighted$weight, sum(w))

  chunks <- lapply(split(seq_len(120), rep(1:3, each = 40)), function(i) list(x = d$x[i, ], w = w[i]))
  streamed <- rff_kmeans(chunks, starts, map = d$map, tol = 0, n_threads = 2)
  expect_null(streamed$cluster)
  expect_equal(unname(streamed$centers), unname(weighted$centers), tolerance = 1e-12)
  expect_equal(streamed$tot.withinss, weighted$tot.withinss, tolerance = 1e-10)
  expect_identical(predict(streamed, d$x), unname(weighted$cluster))
  expect_error(predict(streamed), class = "askrff_error")
  expect_error(fitted(streamed), class = "askrff_error")
  one <- rff_kmeans(d$x, 3, map = d$map, n_starts = 4, seed = 9, n_threads = 1)
  two <- rff_kmeans(d$x, 3, map = d$map, n_starts = 4, seed = 9, n_threads = 2)
  expect_identical(one[c("centers", "cluster", "withinss", "iter")], two[c("centers", "cluster", "withinss", "iter")])
})

test_that("several starts keep the one with the least within-cluster sum of squares", {
  d <- kmeans_data()
  each <- vapply(1:6, function(s) rff_kmeans(d$x, 3, map = d$map, seed = s)$tot.withinss, 1)
  best <- rff_kmeans(d$x, 3, map = d$map, n_starts = 6, seed = 1)
  # the six starts of one call are other draws than six calls', so the best
  # of each set is compared with the spread of single starts
  expect_lte(best$tot.withinss, max(each) + 1e-12)
  expect_identical(rff_kmeans(d$x, 3, map = d$map, n_starts = 6, seed = 1)$centers, best$centers)
  # three well-separated groups: every start finds them
  expect_gt(adjusted_rand(best$cluster, kmeans(d$x, d$x[c(3, 50, 200), ])$cluster), 0.9)
})

test_that("`tol` stops the steps once the centres move less than it, at about the sum of squares of steps to the end", {
  d <- kmeans_data(2000)
  starts <- d$x[1:3, ]
  exact <- rff_kmeans(d$x, starts, map = d$map, tol = 0)
  early <- rff_kmeans(d$x, starts, map = d$map, tol = 1e-2)
  expect_lt(early$iter, exact$iter)
  expect_true(early$converged)
  # Lloyd's steps only lower the sum of squares: the early stop's is above
  # the end's, by little
  expect_gte(early$tot.withinss, exact$tot.withinss - 1e-9)
  expect_lt(early$tot.withinss, exact$tot.withinss * 1.01)
})

test_that("a cluster without rows keeps its centre; iter_max stops with a warning and sums about the last centres", {
  set.seed(2)
  x <- matrix(c(rnorm(30, sd = 0.3), rnorm(30, 10, sd = 0.3)), ncol = 1)
  map <- rff_map(gaussian_kernel(1), 1, 200, seed = 1)
  starts <- matrix(c(0, 10, 100), ncol = 1)
  fit <- rff_kmeans(x, starts, map = map)
  # the third start is about as far from every row in features (sqrt 2) as
  # the rows' own groups are near: no row joins it
  expect_identical(fit$size, c(30L, 30L, 0L))
  expect_equal(unname(fit$centers[3, ]), drop(rff_features(map, starts[3, , drop = FALSE])), tolerance = 1e-14)
  expect_identical(fit$withinss[3], 0)

  d <- kmeans_data()
  expect_warning(short <- rff_kmeans(d$x, d$x[c(3, 50, 200), ], map = d$map, iter_max = 1),
                 class = "askrff_warning")
  expect_identical(short$ifault, 2L)
  expect_false(short$converged)
  z <- rff_features(d$map, d$x)
  about_centers <- vapply(1:3, function(j) {
    sum(sweep(z[short$cluster == j, , drop = FALSE], 2L, short$centers[j, ])^2)
  }, 1)
  expect_equal(short$withinss, about_centers, tolerance = 1e-10)
  expect_equal(short$totss, sum(sweep(z, 2L, colMeans(z))^2), tolerance = 1e-10)
})

test_that("kernel k-means tells apart two rings that k-means on the coordinates cannot, as kernlab::kkmeans does", {
  skip_if_not_installed("kernlab")
  set.seed(3)
  n <- 400
  angle <- runif(n, 0, 2 * pi)
  ring <- rep(1:2, each = n / 2)
  x <- cbind(c(1, 4)[ring] * cos(angle), c(1, 4)[ring] * sin(angle)) + rnorm(2 * n, sd = 0.15)
  fit <- rff_kmeans(x, 2, kernel = gaussian_kernel(1), n_features = 512, n_starts = 10, seed = 1)
  linear <- stats::kmeans(x, 2, nstart = 10)
  # kernlab's exp(-s |x - y|^2): s = 1 / (2 sigma^2)
  exact <- kernlab::kkmeans(x, centers = 2, kernel = "rbfdot", kpar = list(sigma = 1 / 2))
  expect_lt(adjusted_rand(linear$cluster, ring), 0.1)
  expect_gte(adjusted_rand(fit$cluster, ring), adjusted_rand(as.vector(exact), ring) - 0.02)
  expect_gt(adjusted_rand(fit$cluster, ring), 0.95)
})

test_that("rff_kmeans() and its methods refuse bad arguments and fits by name", {
  d <- kmeans_data(60)
  expect_error(rff_kmeans(d$x, map = d$map), "`centers` must be given", class = "askrff_error")
  expect_error(rff_kmeans(d$x, 0, map = d$map), "centers", class = "askrff_error")
  expect_error(rff_kmeans(d$x, "3", map = d$map), "centers", class = "askrff_error")
  expect_error(rff_kmeans(d$x, d$x[c(1, 1), ], map = d$map), "distinct", class = "askrff_error")
  expect_error(rff_kmeans(d$x, d$x[1:2, 1, drop = FALSE], map = d$map), "columns of `x`", class = "askrff_error")
  expect_error(rff_kmeans(d$x, d$x[1:2, ], map = d$map, n_starts = 2), "n_starts", class = "askrff_error")
  expect_error(rff_kmeans(d$x[c(1, 1, 1), ], 2, map = d$map), "1 distinct row", class = "askrff_error")
  expect_error(rff_kmeans(d$x, 2, map = d$map, iter_max = 0), "iter_max", class = "askrff_error")
  expect_error(rff_kmeans(d$x, 2, map = d$map, tol = -1), "tol", class = "askrff_error")
  expect_error(rff_kmeans(d$x, 2, map = d$map, weights = rep(0, 60)), "weight", class = "askrff_error")
  expect_error(rff_kmeans(d$x, 2, map = d$map, nstart = 3), "nstart", class = "askrff_error")
  fit <- rff_kmeans(d$x, 2, map = d$map, seed = 1)
  bad <- list(centers = fit$centers[, -1], size = -1L, withinss = NA_real_, cluster = fit$cluster + 5L, iter = 0,
              converged = NA, totss = Inf, scaling = list(center = 1, scale = 1), map = unclass(d$map)[1:2])
  for (name in names(bad)) {
    edited <- fit
    edited[[name]] <- bad[[name]]
    expect_error(predict(edited, d$x), sprintf("`object\\$%s`", name), class = "askrff_invalid_object", label = name)
  }
  expect_error(askrff:::predict.askrff_kmeans(unclass(fit), d$x), "fit of rff_kmeans", class = "askrff_error")
  expect_error(fitted(fit, "means"), "method", class = "askrff_error")
  expect_error(predict(fit, "x"), "newdata", class = "askrff_error")
  expect_output(print(fit), "Kernel k-means of 60 rows")
})
