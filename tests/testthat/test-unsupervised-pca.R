# Kernel principal components on random features (R/unsupervised-pca.R):
# the linear algebra against prcomp() and cov.wt() of rff_features(),
# exactly; chunks, threads and weights; the kernel approximation against
# kernlab::kpca.

pca_data <- function(n = 120, seed = 1) {
  set.seed(seed)
  x <- cbind(a = rnorm(n), b = runif(n), c = rnorm(n, sd = 2))
  list(x = x, map = rff_map(gaussian_kernel(1.5), 3, 12, seed = seed))
}

standardized <- function(x) sweep(sweep(x, 2, colMeans(x)), 2, apply(x, 2, stats::sd), "/")

# The columns of a and b equal up to each column's sign.
expect_equal_up_to_sign <- function(a, b, tolerance) {
  signs <- sign(colSums(a * b))
  expect_equal(unname(sweep(a, 2L, signs, "*")), unname(b), tolerance = tolerance)
}

test_that("with every component, rff_pca() is prcomp() of the features", {
  d <- pca_data()
  z <- rff_features(d$map, d$x)
  fit <- rff_pca(d$x, map = d$map, rank = ncol(z))
  reference <- stats::prcomp(z)
  expect_s3_class(fit, c("askrff_pca", "prcomp"))
  expect_equal(fit$sdev, reference$sdev, tolerance = 1e-10)
  expect_equal(fit$center, unname(reference$center), tolerance = 1e-12)
  expect_equal_up_to_sign(fit$rotation, reference$rotation, 1e-8)
  expect_equal_up_to_sign(fit$x, reference$x, 1e-8)
  # the largest loading of each component is positive
  expect_true(all(apply(fit$rotation, 2L, function(v) v[which.max(abs(v))]) > 0))
  expect_identical(colnames(fit$rotation), paste0("PC", seq_len(ncol(z))))
  # a rank above the columns keeps them all, as prcomp's rank.
  expect_identical(ncol(rff_pca(d$x, map = d$map, rank = 100)$rotation), ncol(z))
  # uncentred: prcomp(center = FALSE)
  uncentred <- rff_pca(d$x, map = d$map, rank = 3, center = FALSE)
  reference <- stats::prcomp(z, center = FALSE, rank. = 3)
  expect_false(uncentred$center)
  expect_equal(uncentred$sdev, reference$sdev, tolerance = 1e-10)
  expect_equal_up_to_sign(uncentred$x, reference$x, 1e-8)
  # summary() is prcomp's, over all the components' variance
  importance <- summary(rff_pca(d$x, map = d$map, rank = 2))$importance
  expect_equal(unname(importance["Proportion of Variance", ]), round(fit$sdev^2 / sum(fit$sdev^2), 5))
})

test_that("predict() scores new rows as prcomp's predict() scores their features", {
  d <- pca_data()
  fit <- rff_pca(d$x, map = d$map, rank = 4)
  reference <- stats::prcomp(rff_features(d$map, d$x), rank. = 4)
  new <- pca_data(n = 7, seed = 2)$x
  expect_equal_up_to_sign(predict(fit, new), stats::predict(reference, rff_features(d$map, new)), 1e-8)
  expect_identical(predict(fit), fit$x)
  # a row with a missing value scores NA; a data frame is taken
  new[3, 2] <- NA
  scores <- predict(fit, as.data.frame(new))
  expect_true(all(is.na(scores[3, ])))
  expect_equal(unname(scores[-3, ]), unname(predict(fit, new[-3, ])), tolerance = 1e-14)
  expect_error(predict(fit, new[, 1:2]), "newdata", class = "askrff_error")
  expect_error(predict(fit, "rows"), "`newdata` must be a numeric matrix or data frame", class = "askrff_error")
  expect_error(predict(fit, new, bogus = 1), "Unknown argument", class = "askrff_error")
})

test_that("weights give cov.wt()'s unbiased covariance, whatever their unit", {
  d <- pca_data()
  z <- rff_features(d$map, d$x)
  w <- rep(c(0.5, 1, 3), length.out = nrow(z))
  fit <- rff_pca(d$x, map = d$map, rank = 5, weights = w)
  covariance <- stats::cov.wt(z, w, method = "unbiased")
  e <- eigen(covariance$cov, symmetric = TRUE)
  expect_equal(fit$sdev, sqrt(pmax(e$values, 0)), tolerance = 1e-10)
  expect_equal(fit$center, unname(covariance$center), tolerance = 1e-12)
  expect_equal_up_to_sign(fit$rotation, e$vectors[, 1:5], 1e-8)
  expect_equal(fit$weight, sum(w), tolerance = 1e-14)
  # multiplying every weight by a constant changes nothing
  for (factor in c(1e-200, 1e200)) {
    scaled <- rff_pca(d$x, map = d$map, rank = 5, weights = w * factor)
    expect_equal(scaled$sdev, fit$sdev, tolerance = 1e-12)
    expect_equal(scaled$x, fit$x, tolerance = 1e-12)
  }
  # a zero weight drops its row from the fit, not from the scores
  w[1:10] <- 0
  dropped <- rff_pca(d$x, map = d$map, rank = 5, weights = w)
  kept <- rff_pca(d$x[-(1:10), ], map = d$map, rank = 5, weights = w[-(1:10)])
  expect_equal(dropped$sdev, kept$sdev, tolerance = 1e-12)
  expect_equal(dropped$x[-(1:10), ], kept$x, tolerance = 1e-10)
  expect_identical(dropped$n, nrow(d$x) - 10)
  expect_error(rff_pca(d$x, map = d$map, weights = c(1, rep(0, nrow(d$x) - 1))), "at least two rows of positive weight",
               class = "askrff_data_error")
})

test_that("chunks and threads give the fit of the rows in memory", {
  d <- pca_data(n = 300)
  w <- rep(1:3, 100)
  fit <- rff_pca(d$x, map = d$map, rank = 3, weights = w, n_threads = 1)
  two <- rff_pca(d$x, map = d$map, rank = 3, weights = w, n_threads = 2)
  expect_identical(two[names(two) != "call"], fit[names(fit) != "call"])
  parts <- split(seq_len(300), rep(1:3, c(50, 150, 100)))
  chunks <- lapply(parts, function(i) list(x = d$x[i, ], w = w[i]))
  streamed <- rff_pca(unname(chunks), map = d$map, rank = 3)
  expect_null(streamed$x)
  expect_equal(streamed$sdev, fit$sdev, tolerance = 1e-12)
  expect_equal(streamed$rotation, fit$rotation, tolerance = 1e-10)
  expect_equal(predict(streamed, d$x), fit$x, tolerance = 1e-10)
  expect_error(predict(streamed), "keeps no scores: give `newdata`", class = "askrff_error")
  # a function source, read once
  i <- 0L
  source <- function() {
    i <<- i + 1L
    if (i > length(chunks)) NULL else chunks[[i]]
  }
  expect_equal(rff_pca(source, map = d$map, rank = 3)$sdev, fit$sdev, tolerance = 1e-12)
  expect_error(rff_pca(list(list(w = 1)), map = d$map), "chunk 1 of `x` must be a list with an element `x`",
               class = "askrff_error")
  expect_error(rff_pca(unname(chunks), map = d$map, weights = w), "`weights` must be NULL when `x` is a chunk source",
               class = "askrff_error")
})

test_that("a kernel by name takes its scale from the standardized data", {
  d <- pca_data()
  fit <- rff_pca(d$x, rank = 2, n_features = 16, seed = 3)
  expect_equal(fit$map$kernel$params$sigma, median_bandwidth(standardized(d$x), seed = 3), tolerance = 1e-12)
  expect_false(is.null(fit$scaling))
  # the same map on the standardized columns
  expect_equal(fit$x, rff_pca(standardized(d$x), map = fit$map, rank = 2)$x, tolerance = 1e-10)
  expect_output(print(fit), "Kernel principal components of 120 rows on 32 feature columns")
  path <- tempfile(fileext = ".png")
  grDevices::png(path, 900, 450)
  expect_identical(plot(fit), fit)
  grDevices::dev.off()
})

test_that("the top components span the exact kernel PCA's (kernlab::kpca)", {
  skip_on_cran()
  skip_if_not_installed("kernlab")
  # two concentric rings: the top eigenvalues of the centred kernel matrix
  # are well apart, so the score subspace is stable
  set.seed(4)
  n <- 300
  angle <- runif(n, 0, 2 * pi)
  radius <- rep(c(1, 2.5), each = n / 2) + rnorm(n, sd = 0.1)
  x <- cbind(radius * cos(angle), radius * sin(angle))
  sigma <- 1
  exact <- kernlab::kpca(x, kernel = "rbfdot", kpar = list(sigma = 1 / (2 * sigma^2)), features = 3)
  # the exact kernel PCA's variances: the centred kernel matrix's
  # eigenvalues over n - 1
  centring <- diag(n) - 1 / n
  exact_variances <- eigen(centring %*% kernel_matrix(gaussian_kernel(sigma), x) %*% centring, symmetric = TRUE,
                           only.values = TRUE)$values[1:3] / (n - 1)
  fits <- lapply(1:4, function(seed) rff_pca(x, kernel = gaussian_kernel(sigma), n_features = 1024, rank = 3, seed = seed))
  angles <- vapply(fits, function(fit) {
    # the largest principal angle between the two score subspaces
    qa <- qr.Q(qr(scale(fit$x, scale = FALSE)))
    qb <- qr.Q(qr(scale(kernlab::rotated(exact), scale = FALSE)))
    acos(min(1, min(svd(crossprod(qa, qb))$d)))
  }, 1)
  # 2,048 feature columns leave the kernel an error of about 1 / sqrt(1024)
  # = 0.03 per entry; over four maps the subspaces were 0.065 to 0.135 rad
  # from the exact one (the top two variances are 1 % apart)
  expect_lt(mean(angles), 0.15)
  # the variances' relative errors had a standard deviation of 0.02 over
  # these maps; their mean (over maps and components, which share a map and
  # are correlated) within 1.5 of those, each within 5
  errors <- vapply(fits, function(fit) fit$sdev[1:3]^2 / exact_variances - 1, numeric(3))
  expect_lt(abs(mean(errors)), 0.03)
  expect_lt(max(abs(errors)), 0.1)
  # with 16 feature columns the approximation is visibly worse: the test can fail
  rough <- rff_pca(x, kernel = gaussian_kernel(sigma), n_features = 8, rank = 3, seed = 1)
  qa <- qr.Q(qr(scale(rough$x, scale = FALSE)))
  qb <- qr.Q(qr(scale(kernlab::rotated(exact), scale = FALSE)))
  expect_gt(acos(min(1, min(svd(crossprod(qa, qb))$d))), mean(angles))
})

test_that("bad arguments and edited fits are refused, naming the field", {
  d <- pca_data()
  expect_error(rff_pca(d$x, map = d$map, rank = 0), "`rank` must be a single positive whole number", class = "askrff_error")
  expect_error(rff_pca(d$x, map = d$map, center = NA), "`center` must be TRUE or FALSE", class = "askrff_error")
  expect_error(rff_pca(d$x, map = d$map, bogus = 1), "Unknown argument: `bogus`", class = "askrff_error")
  expect_error(rff_pca(d$x[, 1:2], map = d$map), "`map` is for 3 columns", class = "askrff_error")
  expect_error(rff_pca(d$x, map = d$map, weights = rep(-1, nrow(d$x))), "`weights`", class = "askrff_error")
  # rows with no spread have no components: refused, where a fit would
  # fail its own print()
  expect_error(rff_pca(matrix(1, 6, 3), map = d$map), "all have the same features", class = "askrff_data_error")
  expect_s3_class(rff_pca(matrix(1, 6, 3), map = d$map, center = FALSE), "askrff_pca")
  bad <- d$x
  bad[2, 2] <- NA
  expect_error(rff_pca(bad, map = d$map), "x", class = "askrff_error")
  fit <- rff_pca(d$x, map = d$map, rank = 2)
  edits <- list(rotation = fit$rotation[-1, ], center = c(1, 2), sdev = -fit$sdev, x = "scores", n = 1, weight = NA,
                map = list(kind = "rff"), scaling = list(center = 1, scale = 1))
  for (name in names(edits)) {
    edited <- fit
    edited[[name]] <- edits[[name]]
    expect_error(predict(edited, d$x), sprintf("`object\\$%s`", name), class = "askrff_invalid_object",
                 label = name)
  }
  expect_error(print(structure(list(), class = "askrff_pca")), "`x\\$map`", class = "askrff_error")
  # summary() and plot() check the fit before prcomp's methods see it
  edited <- fit
  edited$sdev <- fit$sdev * 1e300
  expect_error(summary(edited), "`object\\$sdev`", class = "askrff_invalid_object")
  expect_error(plot(edited), "`x\\$sdev`", class = "askrff_invalid_object")
})

test_that("the randomized solver finds the top components the eigendecomposition finds", {
  set.seed(1)
  x <- matrix(rnorm(3000 * 5), 3000)
  map <- rff_map(gaussian_kernel(2), 5, 200, seed = 1)
  w <- runif(3000)
  for (center in c(TRUE, FALSE)) {
    exact <- rff_pca(x, map = map, rank = 5, center = center, weights = w, solver = "eigen")
    fast <- rff_pca(x, map = map, rank = 5, center = center, weights = w, solver = "randomized", seed = 2)
    # three passes of the subspace iteration on these features: the
    # variances to 1e-4, the score subspaces to 0.005 rad (measured: 3e-5
    # and 2e-3 at most)
    expect_equal(fast$sdev^2, exact$sdev[1:5]^2, tolerance = 1e-4)
    expect_equal(fast$total_variance, sum(exact$sdev^2), tolerance = 1e-12)
    expect_equal(fast$center, exact$center, tolerance = 1e-12)
    cosines <- svd(crossprod(qr.Q(qr(exact$x)), qr.Q(qr(fast$x))))$d
    expect_lt(acos(min(1, min(cosines))), 0.005)
    # the scores from the last pass are those predict() computes
    expect_equal(predict(fast, x), fast$x, tolerance = 1e-12)
    expect_equal(summary(fast)$importance, summary(exact)$importance[, 1:5], tolerance = 1e-3)
  }
  expect_length(fast$sdev, 5L)
  # the same seed, the same fit, whatever the threads
  expect_identical(rff_pca(x, map = map, rank = 5, center = FALSE, weights = w, solver = "randomized", seed = 2,
                           n_threads = 1)$rotation, fast$rotation)
  # "auto" takes it for many feature columns and few components
  wide <- rff_map(gaussian_kernel(2), 5, 1100, seed = 1)
  expect_null(rff_pca(x[1:200, ], map = map, rank = 5)$total_variance)
  expect_false(is.null(rff_pca(x[1:200, ], map = wide, rank = 5, seed = 1)$total_variance))
  chunks <- list(list(x = x[1:100, ]), list(x = x[101:200, ]))
  expect_error(rff_pca(chunks, map = map, solver = "randomized"), "in memory", class = "askrff_error")
  expect_error(rff_pca(x, map = map, solver = "qr"), "solver", class = "askrff_error")
  edited <- fast
  edited$total_variance <- sum(fast$sdev^2) / 2
  expect_error(summary(edited), "object\\$sdev", class = "askrff_invalid_object")
  edited$total_variance <- -1
  expect_error(print(edited), "x\\$total_variance", class = "askrff_invalid_object")
})
