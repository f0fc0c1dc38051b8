# rff_glm(): against glmnet's ridge fits on the same features, the
# cross-validated deviance against glmnet's fits on each fold, threads,
# chunks and future plans, predictions, formulas, and bad input.

glm_data <- function(n = 240, d = 3, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * d), n, d)
  f <- sin(2 * x[, 1]) + x[, 2]
  list(x = x, f = f, binary = rbinom(n, 1, stats::plogis(2 * f)), counts = rpois(n, exp(0.5 * f)),
       classes = cut(f + rnorm(n, sd = 0.3), c(-Inf, -0.8, 0.2, 1, Inf), labels = c("a", "b", "c", "d")))
}

# Multinomial intercepts are defined up to a common constant: compare them centered.
centered_intercepts <- function(b) {
  b[1L, ] <- b[1L, ] - mean(b[1L, ])
  b
}

test_that("rff_glm equals glmnet(alpha = 0) at a given lambda, with lambda = N lambda_glmnet", {
  skip_if_not_installed("glmnet")
  data <- glm_data()
  n <- nrow(data$x)
  map <- rff_map(gaussian_kernel(1), 3, 20, seed = 1)
  z <- rff_features(map, data$x)
  for (lambda in c(0.5, 20)) {
    fit <- rff_glm(data$x, data$binary, map, family = "binomial", lambda = lambda)
    expect_equal(unname(coef(fit)), as.vector(coef(tight_glmnet(z, data$binary, family = "binomial", lambda = lambda / n))),
                 tolerance = 1e-6)
    fit <- rff_glm(data$x, data$counts, map, family = "poisson", lambda = lambda)
    expect_equal(unname(coef(fit)), as.vector(coef(tight_glmnet(z, data$counts, family = "poisson", lambda = lambda / n))),
                 tolerance = 1e-6)
    fit <- rff_glm(data$x, data$classes, map, family = "multinomial", lambda = lambda)
    reference <- sapply(coef(tight_glmnet(z, data$classes, family = "multinomial", lambda = lambda / n)), as.vector)
    expect_equal(unname(centered_intercepts(coef(fit))), unname(centered_intercepts(reference)), tolerance = 1e-6)
    # the ridge penalty makes every feature's coefficients sum to zero over the classes
    expect_lt(max(abs(rowSums(fit$coefficients))), 1e-10)
  }
  # weights: glmnet scales them to sum to N, so lambda = lambda_glmnet * sum(w)
  w <- rep(c(0.5, 2, 1), length.out = n)
  fit <- rff_glm(data$x, data$binary, map, family = "binomial", lambda = 3, weights = w)
  reference <- tight_glmnet(z, data$binary, family = "binomial", lambda = 3 / sum(w), weights = w)
  expect_equal(unname(coef(fit)), as.vector(coef(reference)), tolerance = 1e-6)
  # a factor response, a logical and 0/1 give the same fit, the second level being the event
  as_factor <- rff_glm(data$x, factor(data$binary, labels = c("no", "yes")), map, family = "binomial", lambda = 3)
  as_logical <- rff_glm(data$x, data$binary == 1, map, family = "binomial", lambda = 3)
  expect_equal(coef(as_factor), coef(rff_glm(data$x, data$binary, map, family = "binomial", lambda = 3)))
  expect_equal(coef(as_logical), coef(as_factor))
})

test_that("the chosen multinomial fit is the criterion's minimum to 1e-9, by Newton on the whole Hessian", {
  # The final fit takes steps from each class's own Hessian block and
  # L-BFGS; Newton's method with the cross-class blocks too, run from it to
  # a gradient at rounding level, is an independent reference. The fit used
  # to stop 2.4e-7 from it here, once the criterion's rounding hid the
  # decrease; it now goes on while the gradient falls.
  set.seed(3)
  n <- 400
  x <- matrix(rnorm(n * 3), n, 3)
  classes <- cut(x[, 1] + x[, 2]^2 + rnorm(n, sd = 0.3), c(-Inf, 0, 1.5, Inf), labels = c("u", "v", "w"))
  fit <- rff_glm(x, classes, family = "multinomial", kernel = gaussian_kernel(1.5), n_features = 32, seed = 1)
  design <- cbind(1, rff_features(fit$map, x))
  y <- outer(as.integer(classes), 1:3, "==") + 0
  p <- ncol(design)
  theta <- rbind(fit$intercept, fit$coefficients)
  for (iteration in 1:8) {
    eta <- design %*% theta
    probability <- exp(eta - apply(eta, 1, max))
    probability <- probability / rowSums(probability)
    gradient <- as.vector(crossprod(design, probability - y) + rbind(0, fit$lambda * theta[-1, ]))
    hessian <- matrix(0, 3 * p, 3 * p)
    for (a in 1:3) for (b in 1:3) {
      hessian[(a - 1) * p + 1:p, (b - 1) * p + 1:p] <- crossprod(design, design * (probability[, a] * ((a == b) - probability[, b])))
    }
    # the intercepts are defined up to a common constant: a tiny ridge fixes them
    hessian <- hessian + diag(rep(c(1e-10, rep(fit$lambda, p - 1)), 3))
    theta <- theta - matrix(solve(hessian, gradient), p, 3)
  }
  expect_lt(max(abs(gradient)), 1e-12)
  expect_lt(max(abs(fit$coefficients - theta[-1, ])), 1e-9)
})

test_that("the squared hinge equals LiblineaR's L2-loss SVM with cost 1 / (2 lambda)", {
  skip_if_not_installed("LiblineaR")
  # LiblineaR minimises ||w||^2 / 2 + C sum max(0, 1 - s w'[z, B])^2, which is
  # rff_glm's criterion divided by 2 lambda when C = 1 / (2 lambda), except
  # that it penalizes the intercept as (b0 / B)^2 / 2: with B = 1000 that
  # moves the fit by about b0 / B^2 = 1e-7, and its tolerance 1e-12 by less
  data <- glm_data()
  y <- factor(ifelse(data$f + stats::rnorm(length(data$f), sd = 0.5) > 0, "up", "down"))
  lambda <- 2
  fit <- rff_glm(data$x, y, family = "squared_hinge", kernel = gaussian_kernel(1), n_features = 16, seed = 3,
                 lambda = lambda)
  z <- rff_features(fit$map, data$x)
  bias <- 1000
  reference <- LiblineaR::LiblineaR(z, y, type = 2, cost = 1 / (2 * lambda), bias = bias, epsilon = 1e-12)
  # LiblineaR's weights score its first class, the first label it met
  sign <- if (reference$ClassNames[1L] == "up") 1 else -1
  expect_equal(unname(fit$coefficients[, 1L]), sign * unname(reference$W[1L, seq_len(ncol(z))]), tolerance = 1e-5)
  expect_equal(unname(fit$intercept), sign * unname(reference$W[1L, ncol(z) + 1L]) * bias, tolerance = 1e-5)
  expect_identical(predict(fit, data$x, type = "class"), stats::setNames(factor(ifelse(predict(fit, data$x) > 0, "up", "down"),
                                                                               levels = levels(y)), NULL))
})

test_that("the hinge loss reaches the minimum of the L1-loss SVM's quadratic program", {
  skip_if_not_installed("highs")
  # The SVM's primal, sum w xi + lambda ||b||^2 with xi >= 1 - s(b0 + z'b)
  # and xi >= 0, solved by HiGHS to feasibility 1e-10; rff_glm() smooths the
  # hinge and shrinks the smoothing until the exact objective changes by
  # less than 1e-9 of itself. The issue's bound is 1e-6 relative.
  data <- glm_data(n = 200, seed = 4)
  y <- factor(ifelse(data$f + stats::rnorm(200, sd = 0.5) > 0, "up", "down"))
  s <- ifelse(y == "up", 1, -1)
  w <- stats::runif(200, 0.5, 2)
  map <- rff_map(gaussian_kernel(1), 3, 16, seed = 5)
  z <- rff_features(map, data$x)
  for (lambda in c(5, 0.05)) {
    fit <- rff_glm(data$x, y, map, family = "hinge", lambda = lambda, weights = w)
    qp <- hinge_qp(z, s, w, lambda)
    eta <- fit$intercept + drop(z %*% fit$coefficients)
    ours <- sum(w * pmax(0, 1 - s * eta)) + lambda * sum(fit$coefficients^2)
    expect_lt(abs(ours - qp$objective) / qp$objective, 1e-6)
    expect_equal(unname(c(fit$intercept, fit$coefficients)), qp$coefficients, tolerance = 1e-5)
    expect_equal(fit$deviance, sum(w * pmax(0, 1 - s * eta)), tolerance = 1e-12)
    expect_identical(unname(predict(fit, data$x, type = "class")), factor(ifelse(eta > 0, "up", "down"), levels(y)))
  }
  # the intercept-only hinge: +-1 toward the larger class, loss twice the smaller class's weight
  expect_equal(fit$null_deviance, 2 * min(sum(w[s > 0]), sum(w[s < 0])), tolerance = 1e-10)
})

test_that("the cross-validated deviance is that of glmnet's fits on each fold's training rows", {
  skip_if_not_installed("glmnet")
  data <- glm_data(n = 200, seed = 2)
  map <- rff_map(gaussian_kernel(1), 3, 16, seed = 2)
  z <- rff_features(map, data$x)
  lambdas <- c(30, 3, 0.3)
  fit <- rff_glm(data$x, data$binary, map, family = "binomial", lambda = lambdas, nfolds = 4, seed = 7)
  folds <- askrff:::.cpp_cv_folds(0, 200, 4L, askrff:::resolve_seed(7))
  # consecutive groups of 4 rows fill the 4 folds, so they are of equal size
  expect_equal(as.vector(table(folds)), rep(50L, 4))
  expect_true(all(vapply(split(folds, rep(1:50, each = 4)), function(g) setequal(g, 1:4), TRUE)))
  cv <- vapply(sort(lambdas, decreasing = TRUE), function(lambda) {
    deviance <- vapply(1:4, function(f) {
      train <- folds != f
      g <- tight_glmnet(z[train, ], data$binary[train], family = "binomial", lambda = lambda / sum(train))
      p <- as.vector(stats::predict(g, z[!train, ], type = "response"))
      y <- data$binary[!train]
      -2 * sum(y * log(p) + (1 - y) * log(1 - p))
    }, 0)
    sum(deviance) / 200
  }, 0)
  # the folds' fits stop at a relative decrease of 1e-8 in their criterion,
  # which moves the held-out deviance by far less than 1e-5
  expect_equal(fit$path$cv, cv, tolerance = 1e-5)
  expect_equal(fit$lambda, fit$path$lambda[which.min(cv)])
  expect_true(all(fit$path$converged))
  # the chosen lambda's fit is the full-data fit at that lambda
  expect_equal(coef(fit), coef(rff_glm(data$x, data$binary, map, family = "binomial", lambda = fit$lambda)),
               tolerance = 1e-8)
})

test_that("threads do not change a fit; chunks and future workers give the in-memory fit", {
  skip_on_cran()
  data <- glm_data(n = 300, seed = 3)
  map <- rff_map(matern_kernel(1, 1.5), 3, 24, seed = 3)
  one <- rff_glm(data$x, data$classes, map, family = "multinomial", n_threads = 1, seed = 1)
  two <- rff_glm(data$x, data$classes, map, family = "multinomial", n_threads = 2, seed = 1)
  expect_identical(coef(two), coef(one))
  expect_identical(two$path, one$path)
  # chunks change the order of the sums only, so the folds, the path and the
  # choice are the same and the coefficients agree to the solver's tolerance.
  # The folds' fits stop once the Newton decrement is below 1e-8 of the
  # objective, which fixes their coefficients, and so the held-out deviance,
  # only to about its square root; the final fit goes to 1e-20.
  pieces <- split(seq_len(300), rep(1:3, c(70, 130, 100)))
  chunks <- lapply(pieces, function(i) list(x = data$x[i, ], y = data$classes[i]))
  chunked <- rff_glm(chunks, map = map, family = "multinomial", seed = 1)
  expect_equal(chunked$lambda, one$lambda)
  expect_equal(chunked$path$cv, one$path$cv, tolerance = 1e-4)
  expect_equal(coef(chunked), coef(one), tolerance = 1e-7)
  expect_error(predict(chunked), "streamed its data", class = "askrff_error")
  # a function source is read once per pass, starting again after NULL
  reader <- restarting_reader(chunks)
  expect_equal(coef(rff_glm(reader, map = map, family = "multinomial", seed = 1)), coef(chunked), tolerance = 1e-12)
  once <- local({
    i <- 0L
    function() {
      i <<- i + 1L
      if (i > 3L) NULL else chunks[[i]]
    }
  })
  expect_error(rff_glm(once, map = map, family = "multinomial", seed = 1), "start again from its first chunk",
               class = "askrff_error")
  skip_if_not_installed("future")
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  expect_identical(coef(rff_glm(chunks, map = map, family = "multinomial", seed = 1)), coef(chunked))
})

test_that("predictions: probabilities sum to 1, classes are the most probable, links match the coefficients", {
  data <- glm_data(seed = 4)
  fit <- rff_glm(data$x, data$classes, family = "multinomial", kernel = gaussian_kernel(1), n_features = 16, seed = 4)
  new <- glm_data(n = 7, seed = 5)$x
  p <- predict(fit, new, type = "response")
  expect_equal(rowSums(p), rep(1, 7), tolerance = 1e-14)
  expect_identical(colnames(p), levels(data$classes))
  b <- coef(fit)
  eta <- cbind(1, rff_features(fit$map, new)) %*% b
  expect_equal(unname(predict(fit, new, type = "link")), unname(eta), tolerance = 1e-12)
  expect_equal(unname(p), unname(exp(eta) / rowSums(exp(eta))), tolerance = 1e-12)
  expect_identical(predict(fit, new, type = "class"), factor(levels(data$classes)[max.col(p)], levels(data$classes)))
  expect_equal(unname(fitted(fit)), unname(predict(fit, data$x, type = "response")), tolerance = 1e-12)
  # the deviance the fit reports is that of its fitted probabilities
  y <- outer(as.integer(data$classes), 1:4, "==")
  expect_equal(fit$deviance, -2 * sum(y * log(fitted(fit))), tolerance = 1e-10)
  expect_output(print(fit), "multinomial, 4 classes.*chosen by 5-fold cross-validation among [0-9]+ values")
  path <- tempfile(fileext = ".png")
  grDevices::png(path)
  expect_identical(plot(fit), fit)
  grDevices::dev.off()
  saved <- tempfile(fileext = ".rds")
  saveRDS(fit, saved)
  expect_identical(predict(readRDS(saved), new, type = "response"), p)
  counts <- rff_glm(data$x, data$counts, family = "poisson", kernel = gaussian_kernel(1), n_features = 16, seed = 4,
                    lambda = 2)
  expect_equal(predict(counts, new, type = "response"), exp(predict(counts, new)), tolerance = 1e-14)
  expect_error(plot(counts), "given, not chosen", class = "askrff_error")
  expect_error(predict(counts, new, type = "class"), "needs a fit to classes", class = "askrff_error")
})

test_that("a formula with a factor and missing values fits and predicts as glm() does", {
  air <- airquality
  air$hot <- factor(air$Temp > 80, labels = c("mild", "hot"))
  air$Month <- factor(air$Month)
  fit <- rff_glm(hot ~ Ozone + Wind + Month, air, family = "binomial", kernel = gaussian_kernel(2), n_features = 16,
                 standardize = TRUE, na.action = na.exclude, seed = 1)
  complete <- stats::complete.cases(air[, c("Ozone", "Wind", "Month")])
  expect_equal(fit$n, sum(complete))
  fitted_p <- fitted(fit)
  expect_length(fitted_p, nrow(air))
  expect_identical(unname(is.na(fitted_p)), !complete)
  p <- predict(fit, air[1:6, ], type = "response")
  expect_identical(unname(is.na(p)), !complete[1:6])
  expect_equal(p[complete[1:6]], fitted_p[1:6][complete[1:6]], tolerance = 1e-12)
  expect_identical(levels(predict(fit, air[1:6, ], type = "class")), c("mild", "hot"))
  new <- air[1:2, ]
  new$Month <- factor("13")
  expect_error(predict(fit, new), "newdata", class = "askrff_error")
})

test_that("bad arguments give errors that name them", {
  data <- glm_data(n = 60)
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  expect_error(rff_glm(data$x, data$binary, map, family = "gaussian"), "`family`", class = "askrff_error")
  expect_error(rff_glm(data$x, data$classes, map, family = "binomial"), "two levels.*multinomial", class = "askrff_error")
  expect_error(rff_glm(data$x, data$f, map, family = "binomial"), "`y` must be a factor of two levels",
               class = "askrff_error")
  expect_error(rff_glm(data$x, -data$counts - 1, map, family = "poisson"), "nonnegative finite counts",
               class = "askrff_error")
  expect_error(rff_glm(data$x, rep(0, 60), map, family = "poisson"), "all zero", class = "askrff_error")
  expect_error(rff_glm(data$x, factor(data$classes, levels = c(levels(data$classes), "e")), map,
                       family = "multinomial"), "Level \"e\"", class = "askrff_error")
  expect_error(rff_glm(data$x, data$binary, map, nfolds = 1), "`nfolds`", class = "askrff_error")
  expect_error(rff_glm(data$x[1:4, ], c(0, 1, 0, 1), map, nfolds = 5), "`nfolds` \\(5\\) must be at most the number of rows",
               class = "askrff_error")
  expect_error(rff_glm(data$x, data$binary, map, lambda = -1), "`lambda`", class = "askrff_error")
  expect_error(rff_glm(data$x, data$binary[-1], map), "`y` must have one entry per row", class = "askrff_error")
  expect_error(rff_glm(data$x, data$binary, scale = 2, lambda = 1, nfolds = 1), "`nfolds` must be at least 2", class = "askrff_error")
  expect_error(rff_glm(data$x, data$binary, map, weights = rep(-1, 60)), "`weights`", class = "askrff_error")
  expect_error(rff_glm(data$x, data$binary, map, alpha = 0), "Unknown argument: `alpha`", class = "askrff_error")
  fit <- rff_glm(data$x, data$binary, map, lambda = 1)
  broken <- fit
  broken$coefficients <- broken$coefficients[-1, , drop = FALSE]
  expect_error(predict(broken, data$x), "`object\\$coefficients`", class = "askrff_error")
  broken <- fit
  broken$family <- "gamma"
  expect_error(print(broken), "`x\\$family`", class = "askrff_error")
})
