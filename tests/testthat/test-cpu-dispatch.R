# The dense kernels run on the instruction set askrff_cpu() reports; every
# path computes the same sums in the same order, so they differ only where
# fused multiply-adds round once instead of twice: a relative difference of a
# few eps per term, far below the 1e-12 asked.

relative_difference <- function(a, b) max(abs(a - b)) / max(abs(b))

# fun() on every path this CPU runs, the baseline's result first.
on_every_path <- function(fun) {
  old <- askrff_cpu()
  on.exit(askrff_cpu(old$path))
  lapply(stats::setNames(old$paths, old$paths), function(path) {
    askrff_cpu(path)
    fun()
  })
}

expect_paths_agree <- function(results, tolerance = 1e-12) {
  for (path in names(results)[-1]) {
    expect_lt(relative_difference(results[[path]], results$baseline), tolerance, label = path)
  }
}

test_that("askrff_cpu() reports the path in force and switches to any path the CPU runs", {
  state <- askrff_cpu()
  expect_named(state, c("path", "detected", "paths"))
  expect_true(state$detected %in% c("baseline", "avx2", "avx512"))
  expect_identical(state$paths[[1]], "baseline")
  expect_identical(utils::tail(state$paths, 1), state$detected)
  expect_true(state$path %in% state$paths)
  on.exit(askrff_cpu(state$path))
  before <- askrff_cpu("baseline")
  expect_identical(before, state)
  expect_identical(askrff_cpu()$path, "baseline")
  askrff_cpu("auto")
  expect_identical(askrff_cpu()$path, state$detected)
  # a path the CPU lacks falls back to the best below it
  askrff_cpu("avx512")
  expect_identical(askrff_cpu()$path, state$detected)
})

test_that("askrff_cpu() names the argument of a bad path", {
  for (bad in list("sse", NA_character_, 1, c("avx2", "baseline"), NULL[1])) {
    if (is.null(bad)) next
    expect_error(askrff_cpu(bad), class = "askrff_error", regexp = "`path` must be one of")
  }
})

test_that("options(askrff.cpu) set before loading forces the path in a fresh session", {
  script <- tempfile(fileext = ".R")
  writeLines(c("options(askrff.cpu = 'baseline')", "library(askrff)", "cat(askrff_cpu()$path)"), script)
  out <- system2(file.path(R.home("bin"), "Rscript"), script, stdout = TRUE, stderr = FALSE)
  expect_identical(utils::tail(out, 1), "baseline")
})

test_that("features and the sine/cosine agree on every path, and seeds give the same frequencies", {
  x <- fixture_points(301, 7)
  maps <- on_every_path(function() rff_map(matern_kernel(0.7, 1.5), 7, 300, "orthogonal", seed = 5))
  for (map in maps[-1]) expect_identical(map, maps$baseline)
  expect_paths_agree(on_every_path(function() rff_features(maps$baseline, x)))
  rmap <- rpf_map(gaussian_kernel(1), 7, 50, seed = 2)
  expect_paths_agree(on_every_path(function() rpf_features(rmap, x, "cos")))
})

test_that("exact Gram matrices agree on every path, over sizes that cut the product's blocks", {
  # sizes around the register blocks (4 to 24 rows, 6 or 8 columns), the
  # cache blocks (96 to 144 rows, 256 steps of the inner dimension) and the
  # product blocks of 256 rows; d = 300 takes two steps of 256
  for (shape in list(c(1, 1, 1), c(5, 7, 3), c(23, 25, 2), c(257, 130, 6), c(300, 97, 300))) {
    x <- fixture_points(shape[1], shape[3])
    y <- fixture_points(shape[2], shape[3], seed = 7)
    kernel <- gaussian_kernel(sqrt(shape[3]))
    results <- on_every_path(function() kernel_matrix(kernel, x, y))
    expect_paths_agree(results)
    direct <- exp(-outer(rowSums(x^2), rowSums(y^2), "+") / (2 * shape[3]) + x %*% t(y) / shape[3])
    expect_lt(relative_difference(results$baseline, direct), 1e-12)
  }
})

test_that("the approximate Gram matrix of a map on x alone is one triangle mirrored, equal to L R'", {
  x <- fixture_points(530, 4)
  map <- rff_map(gaussian_kernel(0.9), 4, 150, seed = 8)
  features <- rff_features(map, x)
  results <- on_every_path(function() rff_kernel_matrix(map, x))
  for (k in results) {
    expect_identical(k, t(k))
    expect_lt(relative_difference(k, tcrossprod(features)), 1e-13)
  }
  expect_paths_agree(results)
  # an asymmetric kernel's sides differ: the general product, not a triangle
  amap <- rff_map(shift_gaussian_kernel(1, c(0.2, 0, 0, 0)), 4, 40, seed = 3)
  general <- rff_kernel_matrix(amap, x)
  expect_false(isTRUE(all.equal(general, t(general))))
  expect_lt(relative_difference(general, rff_features(amap, x, "left") %*% t(rff_features(amap, x, "right"))), 1e-13)
})

test_that("ridge fits and Nystrom features agree on every path", {
  set.seed(3)
  x <- matrix(stats::rnorm(600 * 5), 600)
  y <- sin(x[, 1]) + stats::rnorm(600, sd = 0.1)
  map <- rff_map(gaussian_kernel(1.5), 5, 200, seed = 1)
  fits <- on_every_path(function() rff_ridge(x, y, map = map)$coefficients)
  # the solution divides by eigenvalues down to lambda, which amplifies the
  # cross-products' rounding by up to their condition number
  expect_paths_agree(fits, tolerance = 1e-9)
  nmap <- nystrom_map(gaussian_kernel(1.5), x[1:300, ])
  expect_paths_agree(on_every_path(function() rff_features(nmap, x)))
})

test_that("a mistyped options(askrff.cpu) warns at load and keeps the detected path", {
  old <- askrff_cpu()
  on.exit(askrff_cpu(old$path))
  options_before <- options(askrff.cpu = "avx3")
  on.exit(options(options_before), add = TRUE)
  expect_warning(askrff:::apply_cpu_option(), "options\\(askrff.cpu\\).*uses the path it detected", class = "askrff_cpu_option")
  expect_identical(askrff_cpu()$path, old$path)
  # a fresh process loads the package with the option set
  script <- "options(askrff.cpu = 'avx3'); suppressWarnings(library(askrff)); cat(class(askrff_cpu()$path))"
  out <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(script)), stdout = TRUE, stderr = TRUE,
                 env = paste0("R_LIBS=", paste(.libPaths(), collapse = .Platform$path.sep)))
  expect_identical(tail(out, 1L), "character")
})
