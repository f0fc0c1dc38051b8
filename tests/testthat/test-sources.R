# Frequency sources (src/core/sampling/sampling.h): i.i.d., orthogonal (Haar),
# structured (SORF) and randomized quasi-Monte Carlo (scrambled Halton with
# a random shift through each law's inverse CDFs). Tests of every source,
# or of every source with a trait, take them from the core's table
# (helper-kernel-examples.R), so a new source is tested without a line here.

sources <- askrff:::frequency_sources()

test_that("every exact source is unbiased for a positive definite, a signed and a complex measure", {
  skip_statistics_under_sanitizers()
  skip_on_cran()
  d <- 8
  x <- fixture_points(6, d) / 2
  y <- fixture_points(5, d, seed = 3) / 2
  kernels <- list(gaussian_kernel(1), delta_gaussian_kernel(c(1, -0.6), c(0.8, 2)), shift_gaussian_kernel(1, 0.1))
  for (kernel in kernels) {
    K <- kernel_matrix(kernel, x, y)
    for (method in intersect(exact_sources(), kernel_sources(kernel, d))) {
      z <- mean_error_z(K, function(r) rff_kernel_matrix(rff_map(kernel, d, 8, method, seed = r), x, y), 200)
      # |z| < 4.5 except with probability below 1e-5 when unbiased.
      expect_lt(abs(z), 4.5, label = paste(kernel$name, method))
    }
  }
})

test_that("the sources that are not exact are close to it: no bias shows against the error at d = 16", {
  # Such a source (now SORF alone: a SORF row is not exactly uniform on the
  # sphere) makes the estimator not exactly unbiased (Yu et al. 2016, Thm 3:
  # the bias vanishes as d grows). At d = 16 it is below what 200 maps
  # resolve: the mean error over all pairs stays within 4.5 of its standard
  # errors of zero.
  d <- 16
  x <- fixture_points(6, d) / 2
  for (kernel in list(gaussian_kernel(1), delta_gaussian_kernel(c(1, -0.6), c(0.8, 2)), shift_gaussian_kernel(1, 0.1))) {
    K <- kernel_matrix(kernel, x)
    for (method in setdiff(kernel_sources(kernel, d), exact_sources())) {
      z <- mean_error_z(K, function(r) rff_kernel_matrix(rff_map(kernel, d, 16, method, seed = r), x), 200)
      expect_lt(abs(z), 4.5, label = paste(kernel$name, method))
    }
  }
})

test_that("a blocked source draws blocks of d orthogonal directions, and no other source does", {
  # d = 8, a power of two, where SORF blocks are orthogonal too; each
  # frequency keeps an independent radius, so only the directions are
  # compared. Independent directions in R^8 are far from orthogonal: among
  # 28 pairs the largest |cosine| is below 1e-3 with probability ~1e-50.
  d <- 8
  for (method in kernel_sources(gaussian_kernel(1), d)) {
    omega <- rff_map(gaussian_kernel(1), d, 2 * d, method, seed = 3)$omega
    largest <- vapply(1:2, function(block) {
      w <- omega[, (block - 1) * d + seq_len(d)]
      u <- w / rep(sqrt(colSums(w^2)), each = d)
      cosines <- crossprod(u)
      max(abs(cosines[upper.tri(cosines)]))
    }, 0)
    if (method %in% blocked_sources()) {
      expect_lt(max(largest), 1e-12, label = paste(method, "(blocked): largest |cosine| within a block"))
    } else {
      expect_gt(max(largest), 1e-3, label = paste(method, "(not blocked): largest |cosine| within a block"))
    }
  }
})

test_that("SORF rows are orthogonal within a block when d is a power of two", {
  map <- rff_map(gaussian_kernel(1), 64, 128, "structured", seed = 1)
  for (block in 1:2) {
    w <- map$omega[, (block - 1) * 64 + 1:64]
    u <- w / rep(sqrt(colSums(w^2)), each = 64)
    expect_equal(crossprod(u), diag(64), tolerance = 1e-12)
  }
  # Padded to 8, cut to d = 5 and normalized: unit directions.
  map <- rff_map(gaussian_kernel(1), 5, 5, "structured", seed = 2)
  radius <- sqrt(colSums(map$omega^2))
  expect_true(all(radius > 0))
})

test_that("structured maps are as accurate as orthogonal ones at n_features = d (d = 64)", {
  d <- 64
  set.seed(3)
  x <- matrix(stats::rnorm(150 * d), 150) / sqrt(d)
  kernel <- gaussian_kernel(1)
  K <- kernel_matrix(kernel, x)
  errors <- vapply(1:20, function(r) {
    c(orthogonal = relative_error(K, rff_kernel_matrix(rff_map(kernel, d, d, "orthogonal", seed = r), x)),
      structured = relative_error(K, rff_kernel_matrix(rff_map(kernel, d, d, "structured", seed = r), x)))
  }, numeric(2))
  # The issue's target: SORF's mean error within 1.15 times ORF's. With 20
  # maps each mean has a standard error of about 2%, well inside that margin.
  expect_lt(mean(errors["structured", ]), 1.15 * mean(errors["orthogonal", ]))
})

test_that("quasi-Monte Carlo frequencies lower the error at n_features = 16 d (Gaussian, d = 4)", {
  d <- 4
  x <- fixture_points(200, d)
  kernel <- gaussian_kernel(0.5)
  K <- kernel_matrix(kernel, x)
  errors <- vapply(1:20, function(r) {
    c(iid = relative_error(K, rff_kernel_matrix(rff_map(kernel, d, 16 * d, "iid", seed = r), x)),
      qmc = relative_error(K, rff_kernel_matrix(rff_map(kernel, d, 16 * d, "qmc", seed = r), x)))
  }, numeric(2))
  expect_lt(mean(errors["qmc", ]), 0.8 * mean(errors["iid", ]))
})

test_that("quasi-Monte Carlo points stratify: in one dimension 2^k frequencies fall one per quantile cell", {
  # Base 2 with a scrambled digit order and a random shift: the first 2^k
  # points hit each cell [i, i + 1) / 2^k once, so the normal CDFs of the
  # frequencies (sigma = 2) are equally spaced; this also checks the normal
  # quantile the core computes against R's pnorm to 1e-12.
  map <- rff_map(gaussian_kernel(2), 1, 256, "qmc", seed = 7)
  u <- sort(stats::pnorm(2 * drop(map$omega)))
  expect_equal(diff(u), rep(1 / 256, 255), tolerance = 1e-9)
})

test_that("every source is reproducible across seeds, threads and saveRDS, with rpf_map too", {
  x <- fixture_points(30, 6)
  for (method in sources) {
    map <- rff_map(shift_gaussian_kernel(1, 0.2), 6, 20, method, seed = 5)
    expect_identical(map, rff_map(shift_gaussian_kernel(1, 0.2), 6, 20, method, seed = 5))
    set.seed(9)
    first <- rff_map(delta_gaussian_kernel(), 6, 20, method)
    set.seed(9)
    expect_identical(first, rff_map(delta_gaussian_kernel(), 6, 20, method))
    expect_identical(rff_kernel_matrix(map, x, n_threads = 1), rff_kernel_matrix(map, x, n_threads = 2))
    path <- tempfile(fileext = ".rds")
    saveRDS(map, path)
    expect_identical(rff_features(readRDS(path), x, "right"), rff_features(map, x, "right"))
    unlink(path)
    pmap <- rpf_map(gaussian_kernel(1), 6, 16, method, seed = 3)
    expect_identical(pmap$method, method)
    expect_identical(rpf_features(pmap, x, "square"), rpf_features(rpf_map(gaussian_kernel(1), 6, 16, method, seed = 3), x, "square"))
  }
})

test_that("the LP measures and the exact dot-product features take every source", {
  x <- normalize_rows(fixture_points(5, 4))
  for (method in sources) {
    for (kernel in list(arccos_kernel(1), poly_sphere_kernel(2, 1))) {
      map <- rff_map(kernel, 4, 40, method, seed = 1)
      expect_true(all(is.finite(rff_kernel_matrix(map, x))), label = paste(kernel$name, method))
    }
  }
})

test_that("a source a measure cannot take is refused, naming the kernel or the part", {
  expect_error(rff_map(laplace_kernel(1), 3, 10, "structured"),
               "`method = \"structured\"` is not one the Laplace kernel \\(sigma = 1\\) takes: its spectral measure takes \"iid\", \"qmc\"",
               class = "askrff_error")
  expect_error(rff_map(laplace_kernel(1), 3, 10, "orthogonal"), "is not one the Laplace kernel", class = "askrff_error")
  expect_error(rff_map(gaussian_kernel(1), 3, 10, "unknown"),
               paste0("`method` must be one of ", paste0('"', sources, '"', collapse = ", "), "."), fixed = TRUE,
               class = "askrff_error")
  # The core checks each part on its own, whatever R asked.
  expect_error(askrff:::core(askrff:::.cpp_sample_map(laplace_kernel(1), 3, 10, "orthogonal", "mass", c(0, 1))),
               "the part 'pos' of this measure cannot take method = \"orthogonal\"", class = "askrff_error")
  expect_identical(rff_map(laplace_kernel(1), 3, 10, "qmc", seed = 1)$method, "qmc")
})

test_that("the sources are one table of the core, with a name and traits each", {
  table <- askrff:::source_table()
  expect_identical(names(table), c("name", "blocked", "exact", "independent"))
  expect_identical(table$name, sources)
  expect_false(anyDuplicated(sources) > 0L)
  for (trait in c("blocked", "exact", "independent")) {
    expect(is.logical(table[[trait]]) && !anyNA(table[[trait]]), sprintf("the sources' trait `%s` is not TRUE or FALSE", trait))
  }
  # rff_map()'s default draws independent frequencies of the exact laws
  default <- eval(formals(rff_map)$method)
  expect_true(table$independent[table$name == default] && table$exact[table$name == default])
})

test_that("a kernel's sources follow from its parts' laws, whatever family or expression", {
  sources_of <- function(kernel, d = 3) kernel_sources(kernel, d)
  expect_identical(sources_of(gaussian_kernel(1)), sources)
  # Cauchy coordinates are not rotation invariant, so no directions from
  # blocks; i.i.d. draws and inverse CDFs take them
  laplace <- sources_of(laplace_kernel(1))
  expect_true(all(c("iid", "qmc") %in% laplace))
  expect_false(any(blocked_sources() %in% laplace))
  # a product's law is the convolution of its factors': rotation invariant
  # only when both are, and driven by uniforms when both are
  expect_identical(sources_of(gaussian_kernel(1) * matern_kernel(1, 1.5)), sources)
  expect_identical(sources_of(gaussian_kernel(1) * laplace_kernel(1)), laplace)
  expect_error(rff_map(gaussian_kernel(1) * laplace_kernel(1), 3, 10, blocked_sources()[1]),
               paste0("its spectral measure takes ", paste0('"', laplace, '"', collapse = ", ")), fixed = TRUE,
               class = "askrff_error")
  # a sum takes what every term's parts take
  expect_identical(sources_of(gaussian_kernel(1) + 0.5 * laplace_kernel(2)), laplace)
  expect_identical(rff_map(gaussian_kernel(1) * laplace_kernel(1), 3, 10, "qmc", seed = 1)$method, "qmc")
})

test_that("the closed-form variance of a study is given for the independent sources alone", {
  x <- fixture_points(5, 2)
  study <- approximation_study(gaussian_kernel(1), x, n_features = 4, methods = as.list(stats::setNames(sources, sources)),
                               trials = 2, seed = 1)
  known <- tapply(!is.na(attr(study, "pairs")$theory_variance), attr(study, "pairs")$method, all)
  independent <- with(askrff:::source_table(), stats::setNames(independent, name))
  expect_identical(as.vector(known[sources]), as.vector(independent[sources]))
})

test_that("every source is described on the help pages of rff_map() and approximation_study()", {
  db <- tools::Rd_db("askrff")
  text <- function(page) paste(as.character(db[[page]]), collapse = "")
  section <- sub("(?s).*\\\\section\\{Frequency sources\\}", "", text("rff_map.Rd"), perl = TRUE)
  for (name in sources) {
    expect(grepl(sprintf('\\item \\code{"%s"}', name), section, fixed = TRUE),
           sprintf("the section \"Frequency sources\" of rff_map()'s help page (man-roxygen/frequency-sources.R) has no item for the source \"%s\"", name))
    expect(grepl(sprintf('\\code{"%s"}', name), text("approximation_study.Rd"), fixed = TRUE),
           sprintf("approximation_study()'s help page (R/study-run.R) does not name the source \"%s\"", name))
  }
})
