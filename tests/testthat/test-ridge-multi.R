# Several responses at once: by default each column of a numeric matrix gets
# its own lambda from the one eigendecomposition, which must be exactly the
# fit of that column alone (same map, same weights), penalty choice
# included; `shared_lambda = TRUE` keeps one lambda, chosen by the pooled
# criterion. 1e-10 is far above the rounding that separates the two
# computations (sums of a different number of columns, about 1e-15
# relative) and far below anything a wrong lambda would give.

# Three responses that want very different penalties: a smooth signal with
# little noise, a rough one on another scale, and noise alone.
multi_data <- function(n, seed = 1) {
  set.seed(seed)
  x <- matrix(runif(2 * n, -2, 2), n)
  y <- cbind(smooth = sin(2 * x[, 1]) + rnorm(n, sd = 0.05), rough = 100 * x[, 1] * x[, 2] + rnorm(n, sd = 30),
             noise = rnorm(n))
  list(x = x, y = y, w = runif(n, 0.5, 2), x_new = matrix(runif(10, -2, 2), 5))
}

# The fit's rows for response j, as a single fit's path.
response_path <- function(fit, j) {
  rows <- fit$path[fit$path$response == fit$response$names[j], setdiff(names(fit$path), "response")]
  rownames(rows) <- NULL
  rows
}

expect_column_fits <- function(multi, singles, label) {
  for (j in seq_along(singles)) {
    single <- singles[[j]]
    what <- sprintf("%s, column %d", label, j)
    expect_equal(multi$lambda[[j]], single$lambda, tolerance = 1e-10, label = what)
    expect_equal(unname(multi$coefficients[, j]), unname(single$coefficients[, 1L]), tolerance = 1e-10, label = what)
    expect_equal(unname(multi$intercept[j]), unname(single$intercept), tolerance = 1e-10, label = what)
    expect_equal(unname(multi$rss[j]), unname(single$rss), tolerance = 1e-10, label = what)
    expect_equal(response_path(multi, j), single$path, tolerance = 1e-10, label = what)
    if (!is.null(single$fitted)) {
      expect_equal(unname(multi$fitted[, j]), unname(single$fitted[, 1L]), tolerance = 1e-10, label = what)
    }
  }
}

test_that("each column's own lambda is the fit of that column alone, for every criterion, primal and dual", {
  data <- multi_data(40)
  # 64 feature columns for 40 rows: the dual form, unless forced to the primal
  map <- rff_map(gaussian_kernel(1), 2, 32, seed = 2)
  for (form in c("dual", "primal")) {
    old <- options(askrff.ridge_form = if (form == "primal") "primal" else "auto")
    for (criterion in c("loo", "gcv", "evidence")) {
      multi <- rff_ridge(data$x, data$y, map, weights = data$w, criterion = criterion)
      expect_identical(multi$form, form)
      singles <- lapply(seq_len(3), function(j) rff_ridge(data$x, data$y[, j], map, weights = data$w, criterion = criterion))
      expect_column_fits(multi, singles, sprintf("%s, %s", form, criterion))
      expect_named(multi$lambda, colnames(data$y))
      # the columns do want different penalties, so that one shared would fail
      expect_gt(max(multi$lambda) / min(multi$lambda), 10)
    }
    # several given penalties: each column chooses among them
    multi <- rff_ridge(data$x, data$y, map, lambda = c(0.01, 0.1, 1, 10), criterion = "loo")
    singles <- lapply(seq_len(3), function(j) rff_ridge(data$x, data$y[, j], map, lambda = c(0.01, 0.1, 1, 10)))
    expect_column_fits(multi, singles, sprintf("%s, given lambdas", form))
    options(old)
  }
})

test_that("intervals and standard errors of each column are those of its fit alone", {
  data <- multi_data(60)
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 3)
  multi <- rff_ridge(data$x, data$y, map, weights = data$w)
  for (interval in c("confidence", "prediction")) {
    got <- predict(multi, data$x_new, interval = interval, se.fit = TRUE, level = 0.9)
    expect_identical(dim(got$fit), c(5L, 3L, 3L))
    for (j in 1:3) {
      single <- rff_ridge(data$x, data$y[, j], map, weights = data$w)
      want <- predict(single, data$x_new, interval = interval, se.fit = TRUE, level = 0.9)
      expect_equal(got$fit[, , j], want$fit, tolerance = 1e-10)
      expect_equal(got$se.fit[, j], want$se.fit, tolerance = 1e-10)
      expect_equal(unname(got$df[j]), want$df, tolerance = 1e-10)
      expect_equal(unname(got$residual.scale[j]), want$residual.scale, tolerance = 1e-10)
    }
  }
  # independently of the single fits: the posterior variance of the first
  # column from the features by solve(), sigma^2 (1 / sum w + (z - m)'(G +
  # lambda I)^-1 (z - m)) with sigma^2 = RSS / (n - df)
  z <- rff_features(map, data$x)
  m <- colSums(data$w * z) / sum(data$w)
  centered <- sweep(z, 2L, m)
  g <- crossprod(centered * sqrt(data$w))
  lambda <- multi$lambda[[1L]]
  inverse <- solve(g + lambda * diag(ncol(z)))
  df <- 1 + sum(diag(solve(g + lambda * diag(ncol(z)), g)))
  sigma2 <- multi$rss[[1L]] / (nrow(z) - df)
  new <- sweep(rff_features(map, data$x_new), 2L, m)
  se <- sqrt(sigma2 * (1 / sum(data$w) + rowSums((new %*% inverse) * new)))
  expect_equal(unname(predict(multi, data$x_new, se.fit = TRUE)$se.fit[, 1L]), se, tolerance = 1e-8)
  # one shared lambda: the same posterior, each column with its own sigma^2
  shared <- rff_ridge(data$x, data$y, map, weights = data$w, lambda = 0.3, shared_lambda = TRUE)
  got <- predict(shared, data$x_new, se.fit = TRUE)
  for (j in 1:3) {
    single <- rff_ridge(data$x, data$y[, j], map, weights = data$w, lambda = 0.3)
    expect_equal(got$se.fit[, j], predict(single, data$x_new, se.fit = TRUE)$se.fit, tolerance = 1e-10)
  }
})

test_that("tidy() and glance() give each column its own standard errors and row", {
  skip_if_not_installed("generics")
  skip_if_not_installed("tibble")
  data <- multi_data(60)
  map <- rff_map(gaussian_kernel(1), 2, 8, seed = 3)
  multi <- rff_ridge(data$x, data$y, map, criterion = "evidence")
  tidied <- generics::tidy(multi, conf.int = TRUE)
  glanced <- generics::glance(multi)
  expect_identical(glanced$response, colnames(data$y))
  for (j in 1:3) {
    single <- rff_ridge(data$x, data$y[, j], map, criterion = "evidence")
    mine <- tidied[tidied$response == colnames(data$y)[j], ]
    want <- generics::tidy(single, conf.int = TRUE)
    for (column in c("estimate", "std.error", "conf.low", "conf.high")) {
      expect_equal(mine[[column]], want[[column]], tolerance = 1e-10, label = column)
    }
    want <- generics::glance(single)
    for (column in names(want)) expect_equal(glanced[[column]][j], want[[column]], tolerance = 1e-10, label = column)
  }
})

test_that("cbind() on the formula's left side is the matrix call", {
  data <- multi_data(50)
  frame <- data.frame(data$y, u = data$x[, 1], v = data$x[, 2])
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 4)
  by_formula <- rff_ridge(cbind(smooth, rough) ~ u + v, frame, map = map)
  by_matrix <- rff_ridge(data$x, data$y[, 1:2], map)
  expect_equal(coef(by_formula), coef(by_matrix), tolerance = 1e-12)
  expect_equal(by_formula$lambda, by_matrix$lambda, tolerance = 1e-12)
  expect_equal(unname(predict(by_formula, frame[1:3, ])), unname(predict(by_matrix, data$x[1:3, ])), tolerance = 1e-12)
  # `.` leaves out the responses, as in lm()
  dotted <- rff_ridge(cbind(smooth, rough) ~ . - noise, frame, map = map)
  expect_equal(coef(dotted), coef(by_formula), tolerance = 1e-12)
  skip_if_not_installed("generics")
  skip_if_not_installed("tibble")
  augmented <- generics::augment(by_formula, newdata = frame[1:4, ], interval = "prediction")
  expect_equal(augmented$.lower_rough, unname(predict(by_formula, frame[1:4, ], interval = "prediction")[, "lwr", "rough"]))
  expect_equal(augmented$.resid_smooth, frame$smooth[1:4] - augmented$.fitted_smooth)
})

test_that("a chunk source fits each column as its chunked fit alone", {
  data <- multi_data(90)
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 5)
  pieces <- split(seq_len(90), rep(1:3, each = 30))
  chunks <- lapply(pieces, function(i) list(x = data$x[i, ], y = data$y[i, ], w = data$w[i]))
  # (against the chunked fits of each column: summing the chunks in another
  # order than the rows in memory moves the smallest penalties' fits by more
  # than 1e-10, for one response as for several)
  for (criterion in c("loo", "evidence")) {
    chunked <- rff_ridge(chunks, map = map, criterion = criterion)
    singles <- lapply(1:3, function(j) {
      rff_ridge(lapply(chunks, function(chunk) modifyList(chunk, list(y = chunk$y[, j]))), map = map, criterion = criterion)
    })
    expect_null(chunked$fitted)
    expect_column_fits(chunked, singles, sprintf("chunks, %s", criterion))
  }
  # a function source is read once: the evidence by default
  served <- 0L
  reader <- function() {
    served <<- served + 1L
    if (served > length(chunks)) NULL else chunks[[served]]
  }
  read_once <- rff_ridge(reader, map = map)
  expect_equal(coef(read_once), coef(rff_ridge(chunks, map = map, criterion = "evidence")), tolerance = 1e-10)
})

test_that("shared_lambda = TRUE chooses one lambda by the columns' pooled criterion", {
  data <- multi_data(40)
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 6)
  grid <- c(0.003, 0.03, 0.3, 3, 30)
  singles <- lapply(1:3, function(j) rff_ridge(data$x, data$y[, j], map, weights = data$w, lambda = grid))
  criteria <- function(name) sapply(singles, function(f) f$path[[name]])
  # GCV and leave-one-out pool the residual sums of squares (their mean over
  # the columns), the evidence adds the columns' evidences
  pooled <- list(gcv = rowMeans(criteria("gcv")), loo = rowMeans(criteria("loo")), evidence = rowSums(criteria("evidence")))
  for (criterion in names(pooled)) {
    shared <- rff_ridge(data$x, data$y, map, weights = data$w, lambda = grid, criterion = criterion, shared_lambda = TRUE)
    expect_null(shared$path$response)
    expect_equal(shared$path[[criterion]], pooled[[criterion]], tolerance = 1e-10)
    best <- if (criterion == "evidence") which.max(pooled[[criterion]]) else which.min(pooled[[criterion]])
    expect_equal(shared$lambda, sort(grid, decreasing = TRUE)[best])
    at_best <- sapply(1:3, function(j) coef(rff_ridge(data$x, data$y[, j], map, weights = data$w, lambda = shared$lambda)))
    expect_equal(unname(coef(shared)), unname(at_best), tolerance = 1e-10)
  }
  # on the default grid the shared choice differs from the columns' own
  each <- rff_ridge(data$x, data$y, map)
  shared <- rff_ridge(data$x, data$y, map, shared_lambda = TRUE)
  expect_length(shared$lambda, 1L)
  expect_gt(max(abs(log(each$lambda / shared$lambda))), 1)
  # a factor's indicators share one, and cannot be given one each
  classes <- factor(ifelse(data$x[, 1] > 0, "right", "left"))
  expect_length(rff_ridge(data$x, classes, map)$lambda, 1L)
  expect_error(rff_ridge(data$x, classes, map, shared_lambda = FALSE), "shared_lambda.*factor", class = "askrff_error")
  expect_error(rff_ridge(data$x, data$y, map, shared_lambda = NA), "shared_lambda", class = "askrff_error")
})

test_that("a scale search with one lambda per column compares the columns' summed evidence or mean log GCV", {
  data <- multi_data(60)
  scales <- c(0.5, 1, 2)
  for (criterion in c("evidence", "gcv")) {
    multi <- rff_ridge(data$x, data$y, kernel = gaussian_kernel(1), n_features = 16, seed = 7, scale = scales,
                       criterion = criterion)
    values <- sapply(scales, function(s) {
      sapply(1:3, function(j) {
        single <- rff_ridge(data$x, data$y[, j], kernel = gaussian_kernel(1), n_features = 16, seed = 7, scale = s,
                            criterion = criterion)
        single$path[[criterion]][single$path$lambda == single$lambda]
      })
    })
    want <- if (criterion == "evidence") colSums(values) else exp(colMeans(log(values)))
    expect_equal(multi$selection$value, want, tolerance = 1e-10)
    expect_identical(dim(multi$selection$lambda), c(3L, 3L))
    expect_equal(unname(multi$selection$lambda[multi$selection$chosen, ]), unname(multi$lambda))
  }
})

test_that("the methods of a fit with one lambda per column give each column's results or refuse by name", {
  data <- multi_data(60)
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 8)
  multi <- rff_ridge(data$x, data$y, map)
  printed <- utils::capture.output(print(multi))
  expect_true(any(grepl("one lambda per response", printed)))
  for (name in colnames(data$y)) expect_true(any(grepl(sprintf("^    %s: lambda = ", name), printed)))
  summarized <- summary(multi)
  singles <- lapply(1:3, function(j) summary(rff_ridge(data$x, data$y[, j], map)))
  for (name in c("sigma", "df", "adj.r.squared", "r.squared")) {
    expect_equal(unname(summarized[[name]]), unname(sapply(singles, `[[`, name)), tolerance = 1e-10, label = name)
  }
  expect_output(print(summarized), "rough: Residual standard error")
  expect_equal(deviance(multi), multi$rss)
  expect_error(logLik(multi), "logLik.*numeric vector response", class = "askrff_error")
  expect_error(vcov(multi), "vcov.*numeric vector response", class = "askrff_error")
  path <- tempfile(fileext = ".pdf")
  grDevices::pdf(path)
  expect_identical(plot(multi), multi)
  grDevices::dev.off()
  unlink(path)
  # a saved fit predicts again; an edited lambda is refused by name
  expect_equal(predict(readRDS(local({
    file <- tempfile(fileext = ".rds")
    saveRDS(multi, file)
    file
  })), data$x_new), predict(multi, data$x_new))
  edited <- multi
  edited$lambda[2] <- edited$lambda[2] * 1.5
  expect_error(predict(edited, data$x_new), "lambda", class = "askrff_error")
})
