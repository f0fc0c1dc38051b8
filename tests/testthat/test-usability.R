# The conveniences of a first hour: predict(), feature counts, a bandwidth rule.

test_that("predict() of a map is its features of new data", {
  x <- fixture_points(6, 3)
  map <- rff_map(shift_gaussian_kernel(1, 0.2), 3, 8, seed = 1)
  expect_identical(predict(map, x), rff_features(map, x))
  expect_identical(predict(map, x, side = "right", n_threads = 1), rff_features(map, x, "right"))
  pmap <- rpf_map(gaussian_kernel(1), 3, 16, seed = 1)
  expect_identical(predict(pmap, x), rpf_features(pmap, x, "cos"))
  expect_identical(predict(pmap, x, fun = "square"), rpf_features(pmap, x, "square"))
  expect_error(predict(map, x, side = "up"), "`side` must be one of", class = "askrff_error")
})

test_that("n_feature_columns() counts each side's columns for every map class", {
  x <- normalize_rows(fixture_points(4, 3))
  cases <- list(
    list(rff_map(gaussian_kernel(1), 3, 10, seed = 1), 20L),
    list(rff_map(shift_gaussian_kernel(1, 0.3), 3, 10, seed = 1), 20L),
    list(rff_map(shift_gaussian_kernel(1, 0.3), 3, 10, allocation = "equal", seed = 1), 20L),
    list(rff_map(shift_gaussian_kernel(1, 0.3), 3, 10, decomposition = "phase", seed = 1), 20L),
    list(rff_map(delta_gaussian_kernel(), 3, 10, seed = 1), 20L),
    list(rff_map(arccos_kernel(1), 3, 10, seed = 1), 10L),
    list(rff_map(ntk_kernel(), 3, 10, seed = 1), 40L),
    list(rpf_map(gaussian_kernel(1), 3, 10, seed = 1), 10L))
  for (case in cases) {
    expect_identical(n_feature_columns(case[[1]]), c(left = case[[2]], right = case[[2]]))
    expect_identical(ncol(predict(case[[1]], x)), case[[2]])
  }
  expect_output(print(cases[[2]][[1]]), "20 features per side")
  expect_output(print(cases[[8]][[1]]), "10 features per side")
  expect_error(n_feature_columns(list()), "`map` must be a map made by rff_map", class = "askrff_error")
})

test_that("median_bandwidth() is the median pairwise distance of (a sample of) the rows", {
  x <- fixture_points(50, 3)
  expect_equal(median_bandwidth(x), stats::median(stats::dist(x)), tolerance = 1e-14)
  expect_equal(median_bandwidth(x * 1e200), 1e200 * median_bandwidth(x), tolerance = 1e-12)
  big <- fixture_points(3000, 2)
  expect_identical(median_bandwidth(big, max_points = 500, seed = 4), median_bandwidth(big, max_points = 500, seed = 4))
  set.seed(1)
  first <- median_bandwidth(big, max_points = 500)
  set.seed(1)
  expect_identical(median_bandwidth(big, max_points = 500), first)
  # A sample of 500 rows estimates the median of all pairs to about 2 %.
  expect_equal(first, stats::median(stats::dist(big[1:2000, ])), tolerance = 0.05)
  expect_error(median_bandwidth(matrix(1, 5, 2)), "median distance is 0", class = "askrff_error")
  expect_error(median_bandwidth(x[1, , drop = FALSE]), "at least 2 rows", class = "askrff_error")
  expect_error(median_bandwidth(x, max_points = 1), "`max_points` must be at least 2", class = "askrff_error")
})

test_that("plot() of every kind of map draws its parts, and measures and periodic maps summarize", {
  maps <- list(rff_map(gaussian_kernel(1), 3, 64, seed = 1), rff_map(laplace_kernel(1), 3, 64, seed = 1),
               rff_map(shift_gaussian_kernel(1, 0.5), 3, 64, seed = 1),
               rff_map(cosh_gaussian_kernel(1, 0.3), 3, 64, decomposition = "phase", seed = 1),
               rff_map(delta_gaussian_kernel(), 3, 64, method = "orthogonal", seed = 1),
               rff_map(arccos_kernel(0), 3, 64, seed = 1),
               rff_map(arccos_kernel(0), 3, 64, route = "stationary", seed = 1))
  for (map in maps) expect_identical(on_pdf_device(plot(map)), map)
  # The sampled radii of a Gaussian part follow its exact density: the
  # histogram's mass between 1 and 2 against the chi_3 probability.
  map <- rff_map(gaussian_kernel(1), 3, 4000, seed = 2)
  radius <- sqrt(colSums(map$omega^2))
  expected <- stats::pchisq(4, 3) - stats::pchisq(1, 3)
  # Binomial standard error of a proportion of 4000 draws: at most 0.008.
  expect_lt(abs(mean(radius > 1 & radius < 2) - expected), 4 * sqrt(expected * (1 - expected) / 4000))
  measure_summary <- summary(spectral_measure(shift_gaussian_kernel(1, 0.5), 3))
  expect_equal(measure_summary$k0, exp(-3 * 0.25 / 2))
  expect_output(print(measure_summary), "real_pos")
  expect_output(print(summary(rpf_map(gaussian_kernel(1), 3, 32, seed = 1))), "32 frequencies")
})

test_that("plots take graphical arguments in place of their own, and name `...` when the graphics refuse them", {
  x <- fixture_points(20, 3)
  fit <- rff_ridge(x, x[, 1], rff_map(gaussian_kernel(1), 3, 8, seed = 1))
  expect_identical(on_pdf_device(plot(fit, log = "y")), fit)
  expect_identical(on_pdf_device(plot(fit, main = "mine", xlab = "penalty")), fit)
  expect_error(on_pdf_device(plot(fit, xlim = c(-1, 1))), "graphical arguments in `...`.*positive", class = "askrff_error")
  expect_error(on_pdf_device(plot(fit, "y")), "must be named", class = "askrff_error")
  map <- rff_map(gaussian_kernel(1), 3, 64, seed = 1)
  expect_identical(on_pdf_device(plot(map, main = "frequencies", col = "white")), map)
  measure <- spectral_measure(delta_gaussian_kernel(), 3)
  expect_identical(on_pdf_device(plot(measure, main = "mine", ylab = "density")), measure)
  # a part the allocation gave no frequency is drawn as its density alone
  shifted <- rff_map(shift_gaussian_kernel(2, 0.5), 4, 32, seed = 1)
  expect_true(any(tabulate(shifted$part, nrow(shifted$parts)) == 0))
  expect_identical(on_pdf_device(plot(shifted)), shifted)
  study <- approximation_study(gaussian_kernel(1), x, n_features = c(4, 8), trials = 2, seed = 1)
  for (metric in c("frobenius", "spectral", "max_abs", "variance")) {
    expect_identical(on_pdf_device(plot(study, metric = metric, main = metric)), study)
  }
})

test_that("plots of measures name their axis direction, trim to the mass, and label the LP atoms", {
  # the core gives each part's direction: the shift, or -sigma^2 beta, made unit
  direction <- function(kernel, d) askrff:::core(askrff:::.cpp_part_directions(kernel, d))[, 1L]
  expect_equal(direction(shift_gaussian_kernel(1, c(0.5, 0.2)), 2), c(0.5, 0.2) / sqrt(0.29))
  expect_identical(askrff:::axis_label("projection", direction(shift_gaussian_kernel(1, c(0.5, 0.2)), 2)),
                   "projection u'w, u = (0.928, 0.371)")
  expect_equal(direction(cosh_gaussian_kernel(2, 0.1), 3), -rep(1, 3) / sqrt(3))
  expect_identical(askrff:::axis_label("projection", direction(shift_gaussian_kernel(1, 0), 2)), "first coordinate w_1")
  expect_true(all(is.na(direction(gaussian_kernel(1), 2))))
  # The x-range ends where the parts' densities fall to about 1e-3 of their
  # peak: no empty margin, and no mass cut off.
  measure <- spectral_measure(cosh_gaussian_kernel(1, 3), 1)
  spec <- askrff:::kernel_with_settings(measure$kernel, measure$settings, 1)
  grid <- askrff:::mass_range(measure, spec, "projection", 200)
  height <- apply(abs(askrff:::part_curves(measure, spec, grid)), 1L, max)
  ends <- height[c(1L, length(grid))] / max(height)
  expect_true(all(ends > 1e-4 & ends < 1e-2))
  labels <- plotted_text(plot(spectral_measure(ntk_kernel(), 4, route = "stationary")))
  expect_true(all(c("atoms of pos", "atoms of neg", "cusp law (pos)") %in% labels))
  expect_true("projection u'w, u = (0.707, 0.707)" %in%
                plotted_text(plot(spectral_measure(shift_gaussian_kernel(1, 0.5), 2))))
})

test_that("the installed vignettes exist and need no network: no script, style or font from elsewhere", {
  doc <- system.file("doc", package = "askrff")
  pages <- list.files(doc, pattern = "\\.html$", full.names = TRUE)
  pages <- pages[basename(pages) != "index.html"]
  # Only an installation from the built tarball has them (R CMD check's does).
  skip_if(length(pages) == 0L, "installed from the source tree, without vignettes")
  expect_setequal(sub("\\.html$", "", basename(pages)),
                  c("getting-started", "asymmetric-kernels", "indefinite-kernels", "quantized-features", "custom-kernels", "models-at-scale", "tidymodels", "kernel-tests",
                    "mathematics", "unsupervised", "effects"))
  for (page in pages) {
    html <- paste(readLines(page, warn = FALSE), collapse = "\n")
    expect_false(grepl("<(script|link|img)[^>]+(src|href)=\"(https?:)?//", html), info = basename(page))
    expect_false(grepl("url\\((https?:)?//", html), info = basename(page))
  }
})

test_that("the default thread count is at most 2 under R CMD check --as-cran, and the option still rules", {
  expect_identical(askrff:::default_threads(16, limit = ""), 16L)
  expect_identical(askrff:::default_threads(16, limit = "TRUE"), 2L)
  expect_identical(askrff:::default_threads(16, limit = "false"), 16L)
  expect_identical(askrff:::default_threads(1, limit = "TRUE"), 1L)
  old <- options(askrff.threads = 3)
  on.exit(options(old))
  expect_identical(askrff:::resolve_threads(NULL), 3L)
})
