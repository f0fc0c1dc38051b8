test_that("the same seed gives the same map, and set.seed() reproduces seed = NULL", {
  kernel <- gaussian_kernel(1)
  expect_identical(rff_map(kernel, 4, 20, seed = 5)$omega, rff_map(kernel, 4, 20, seed = 5)$omega)
  expect_false(identical(rff_map(kernel, 4, 20, seed = 5)$omega, rff_map(kernel, 4, 20, seed = 6)$omega))
  set.seed(10)
  first <- rff_map(kernel, 4, 20, "orthogonal")
  set.seed(10)
  expect_identical(rff_map(kernel, 4, 20, "orthogonal")$omega, first$omega)
})

test_that("features and Gram matrices are identical for 1 and 2 threads", {
  x <- fixture_points(1000, 7)
  map <- rff_map(gaussian_kernel(1), 7, 33, "orthogonal", seed = 1)
  expect_identical(rff_features(map, x, n_threads = 1), rff_features(map, x, n_threads = 2))
  expect_identical(rff_kernel_matrix(map, x, n_threads = 1), rff_kernel_matrix(map, x, n_threads = 2))
  old_options <- options(askrff.threads = 1)
  on.exit(options(old_options))
  expect_identical(rff_features(map, x), rff_features(map, x, n_threads = 2))
})

test_that("a map survives saveRDS and readRDS", {
  x <- fixture_points(50, 3)
  map <- rff_map(laplace_kernel(2), 3, 40, seed = 8)
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path))
  saveRDS(map, path)
  restored <- readRDS(path)
  expect_identical(rff_features(restored, x), rff_features(map, x))
  expect_identical(total_masses(restored), c(pos = 1))
})

test_that("orthogonal frequencies are orthogonal within a block and have chi radii", {
  map <- rff_map(gaussian_kernel(2), 5, 5000, "orthogonal", seed = 3)
  gram <- crossprod(map$omega[, 1:5])
  expect_equal(gram[upper.tri(gram)], rep(0, 10), tolerance = 1e-12)
  # Radii are chi_5 / sigma: mean sqrt(2) Gamma(3) / Gamma(2.5) / 2, sd
  # sqrt(5 - mean_chi^2) / 2; allow 4.5 standard errors of the mean of 5000.
  mean_chi <- sqrt(2) * gamma(3) / gamma(2.5)
  se <- sqrt(5 - mean_chi^2) / 2 / sqrt(5000)
  expect_lt(abs(mean(sqrt(colSums(map$omega^2))) - mean_chi / 2), 4.5 * se)
})

test_that("orthogonal features have lower error than i.i.d. at n_features = d (Yu et al. 2016)", {
  d <- 16
  x <- fixture_points(200, d) / sqrt(d)
  kernel <- gaussian_kernel(0.3)
  exact <- kernel_matrix(kernel, x)
  errors <- function(method) {
    vapply(1:40, function(r) relative_error(exact, rff_kernel_matrix(rff_map(kernel, d, d, method, seed = r), x)), 0)
  }
  iid <- errors("iid")
  orthogonal <- errors("orthogonal")
  # The difference of means must exceed four standard errors of that difference.
  se <- sqrt(stats::var(iid) / 40 + stats::var(orthogonal) / 40)
  expect_gt(mean(iid) - mean(orthogonal), 4 * se)
})

test_that("total_masses names the single part of a positive definite kernel pos", {
  expect_identical(total_masses(rff_map(gaussian_kernel(1), 2, 3, seed = 1)), c(pos = 1))
})

test_that("print and summary describe the map", {
  map <- rff_map(gaussian_kernel(1), 3, 10, "orthogonal", seed = 1)
  expect_output(print(map), "orthogonal frequencies: 10 = 20 features per side")
  shared <- rff_map(shift_gaussian_kernel(1, 0.5), 3, 10, seed = 1)
  expect_output(print(shared), "iid frequencies: 10 \\(shared by mass: real_pos [0-9]+, real_neg [0-9]+, imag_pos [0-9]+\\) = 20 features per side")
  expect_output(print(summary(shared)), "allocation by mass")
  s <- summary(map)
  expect_s3_class(s, "summary.askrff_map")
  expect_identical(s$parts$n_frequencies, 10L)
  expect_output(print(s), "mean_radius")
})

test_that("every map is of class c(<its constructor>, \"askrff_map\"), and maps saved before keep working", {
  # fixtures/saved-maps.R made these with the classes maps had before they
  # were one family; drawn again with the same seeds, they are the same
  # lists under the new class
  saved <- readRDS(test_path("fixtures", "saved-maps.rds"))
  x <- matrix(seq(0.05, 0.95, length.out = 24), 8, 3)
  current <- list(rff = rff_map(shift_gaussian_kernel(1, 0.3), 3, 6, seed = 1),
                  rpf = rpf_map(gaussian_kernel(1), 3, 6, seed = 1),
                  nystrom = nystrom_map(gaussian_kernel(0.5) - 0.25 * gaussian_kernel(1), x[c(1, 4, 8), ]),
                  maclaurin = maclaurin_map(poly_sphere_kernel(3, 2), 3, 5, seed = 1),
                  tensor_sketch = tensor_sketch_map(poly_sphere_kernel(3, 2), 3, 5, seed = 1))
  data <- fixture_points(7, 3)
  for (kind in names(current)) {
    old <- saved[[kind]]
    new <- current[[kind]]
    # a Nystrom map is an eigendecomposition, and the shifted Gaussian's
    # masses a quadrature, whose algorithms changed since the fixture was
    # saved: equal to rounding, not to the bit
    same <- if (kind %in% c("nystrom", "rff")) function(...) expect_equal(..., tolerance = 1e-12) else expect_identical
    expect_identical(class(new), c(paste0(kind, "_map"), "askrff_map"))
    same(unclass(new), unclass(old), label = kind)
    expect_false(identical(class(old), class(new)))
    expect_identical(class(askrff:::validate_map(old)), class(new))
    z <- if (kind %in% c("maclaurin", "tensor_sketch")) normalize_rows(data) else data
    expect_identical(n_feature_columns(old), n_feature_columns(new))
    same(rff_kernel_matrix(old, z), rff_kernel_matrix(new, z), label = kind)
    expect_identical(utils::capture.output(print(old)), utils::capture.output(print(new)))
    if (kind == "rpf") {
      expect_identical(predict(old, z, fun = "square"), predict(new, z, fun = "square"))
    } else {
      same(rff_features(old, z, "right"), rff_features(new, z, "right"), label = kind)
      same(predict(old, z), predict(new, z), label = kind)
    }
    same(coef(rff_ridge(z, z[, 1], old, lambda = 0.1)), coef(rff_ridge(z, z[, 1], new, lambda = 0.1)))
  }
  expect_identical(utils::capture.output(print(summary(saved$rff))), utils::capture.output(print(summary(current$rff))))
  expect_identical(class(on_pdf_device(plot(saved$rff))), class(current$rff))
})

test_that("the family's methods refuse what a kind does not have, by name", {
  x <- fixture_points(5, 3)
  pmap <- rpf_map(gaussian_kernel(1), 3, 50, seed = 1)
  # a random periodic map's kernel matrix is rpf_kernel_matrix()'s default pair of periodic maps
  expect_identical(rff_kernel_matrix(pmap, x), rpf_kernel_matrix(pmap, x))
  expect_error(rff_features(pmap, x), "`map` is a random periodic map.*rpf_features", class = "askrff_error")
  nmap <- nystrom_map(gaussian_kernel(1), x[1:3, ])
  expect_error(plot(nmap), "`x` is a map of nystrom_map\\(\\), which plot\\(\\) does not draw", class = "askrff_error")
  expect_s3_class(summary(nmap), "table")
  unknown <- structure(unclass(nmap), class = c("other_map", "askrff_map"))
  # the kinds of the registry, each by its constructor
  expect_error(rff_features(unknown, x), paste0("`map` must be a map made by ", paste0(askrff:::map_kinds, "\\(\\)", collapse = ".*")),
               class = "askrff_invalid_object")
  expect_error(print(unknown), "`x` must be a map made by", class = "askrff_error")
  expect_error(total_masses(nmap), "`map` must be a map made by rff_map\\(\\)\\.", class = "askrff_error")
})
