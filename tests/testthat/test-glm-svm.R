# Support vector machines on random features: the squared hinge family for
# two classes and, one class against the rest, for several (and the hinge
# family likewise).

svm_data <- function(n = 150, classes = 3) {
  set.seed(21)
  x <- matrix(stats::rnorm(n * 2), n, 2)
  score <- sin(2 * x[, 1]) + x[, 2] + stats::rnorm(n, sd = 0.4)
  breaks <- stats::quantile(score, seq(0, 1, length.out = classes + 1))
  y <- cut(score, breaks, include.lowest = TRUE, labels = letters[seq_len(classes)])
  list(x = x, y = y, w = stats::runif(n, 0.5, 2))
}

# The squared hinge's criterion, sum w max(0, 1 - s eta)^2 / 2 + lambda / 2
# ||b||^2 (intercept free), minimized on the features z by the generalized
# Newton method, whose steps are exact on the rows inside the margin and
# which stops when those rows no longer change (Keerthi and DeCoste 2005).
squared_hinge_direct <- function(z, s, w, lambda) {
  a <- cbind(1, z)
  penalty <- diag(c(0, rep(lambda, ncol(z))))
  b <- rep(0, ncol(a))
  for (iteration in 1:100) {
    inside <- drop(1 - s * (a %*% b)) > 0
    next_b <- solve(crossprod(a[inside, , drop = FALSE], w[inside] * a[inside, , drop = FALSE]) + penalty,
                    crossprod(a[inside, , drop = FALSE], w[inside] * s[inside]))
    if (max(abs(next_b - b)) < 1e-13 * max(1, abs(b))) break
    b <- drop(next_b)
  }
  margin <- pmax(0, 1 - s * drop(a %*% b))
  list(b = b, objective = sum(w * margin^2) / 2 + lambda / 2 * sum(b[-1]^2))
}

test_that("the squared hinge fit of two classes is the direct solution of its criterion", {
  data <- svm_data(classes = 2)
  lambda <- 0.3
  fit <- rff_glm(data$x, data$y, family = "squared_hinge", kernel = gaussian_kernel(1), n_features = 24, seed = 4,
                 lambda = lambda, weights = data$w)
  z <- rff_features(fit$map, data$x)
  direct <- squared_hinge_direct(z, ifelse(data$y == "b", 1, -1), data$w, lambda)
  # the fit stops at a relative decrease of 1e-20 or once the gradient
  # stops falling: its criterion is the minimum to rounding
  expect_equal(fit$deviance / 2 + lambda / 2 * sum(fit$coefficients^2), direct$objective, tolerance = 1e-8)
  expect_equal(unname(c(fit$intercept, fit$coefficients)), direct$b, tolerance = 1e-6)
})

test_that("several classes are fitted one against the rest, each as its own two-class machine", {
  data <- svm_data()
  lambda <- 0.5
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 6)
  fit <- rff_glm(data$x, data$y, map, family = "squared_hinge", lambda = lambda, weights = data$w)
  z <- rff_features(map, data$x)
  expect_identical(dim(fit$coefficients), c(ncol(z), 3L))
  expect_identical(colnames(fit$coefficients), levels(data$y))
  for (class in levels(data$y)) {
    alone <- rff_glm(data$x, data$y == class, map, family = "squared_hinge", lambda = lambda, weights = data$w)
    # each a minimizer of a strictly convex criterion to rounding (1e-8 of
    # its criterion moves the coefficients by about its square root at most)
    expect_equal(unname(fit$coefficients[, class]), unname(alone$coefficients[, 1]), tolerance = 1e-6, info = class)
    expect_equal(unname(fit$intercept[class]), unname(alone$intercept), tolerance = 1e-6, info = class)
    direct <- squared_hinge_direct(z, ifelse(data$y == class, 1, -1), data$w, lambda)
    expect_equal(unname(c(fit$intercept[class], fit$coefficients[, class])), direct$b, tolerance = 1e-6, info = class)
  }
  decision <- predict(fit, data$x, type = "decision")
  expect_equal(decision, predict(fit, data$x, type = "link"))
  expect_equal(unname(decision), unname(sweep(z %*% fit$coefficients, 2L, fit$intercept, "+")), tolerance = 1e-10)
  classes <- predict(fit, data$x, type = "class")
  expect_identical(as.character(classes), levels(data$y)[max.col(decision, ties.method = "first")])
  # a machine this flexible separates most of its training rows
  expect_gt(mean(classes == data$y), 0.7)
})

test_that("the hinge machines of several classes are each class's quadratic program against the rest", {
  skip_if_not_installed("highs")
  data <- svm_data()
  lambda <- 0.2
  map <- rff_map(gaussian_kernel(1), 2, 12, seed = 3)
  fit <- rff_glm(data$x, data$y, map, family = "hinge", lambda = lambda, weights = data$w)
  z <- rff_features(map, data$x)
  expect_identical(colnames(fit$coefficients), levels(data$y))
  expect_output(print(fit), "hinge, 3 classes")
  total <- 0
  for (class in levels(data$y)) {
    s <- ifelse(data$y == class, 1, -1)
    # HiGHS's QP solver fails on the middle class at feasibility 1e-10; at
    # 1e-8 it solves it, to about that relative accuracy
    qp <- hinge_qp(z, s, data$w, lambda, tolerance = 1e-8)
    eta <- fit$intercept[[class]] + drop(z %*% fit$coefficients[, class])
    ours <- sum(data$w * pmax(0, 1 - s * eta)) + lambda * sum(fit$coefficients[, class]^2)
    # the continuation stops once the exact criterion of all K machines
    # changes by less than 1e-9 of itself: each within the issue's 1e-6
    expect_lt((ours - qp$objective) / qp$objective, 1e-6)
    expect_gt((ours - qp$objective) / qp$objective, -1e-7)
    total <- total + sum(data$w * pmax(0, 1 - s * eta))
  }
  expect_equal(fit$deviance, total, tolerance = 1e-12)
  # the null machines: each toward its majority, here the rest
  expect_equal(fit$null_deviance, sum(vapply(levels(data$y), function(class) {
    2 * min(sum(data$w[data$y == class]), sum(data$w[data$y != class]))
  }, 0)), tolerance = 1e-10)
})

test_that("the hinge machines of several classes converge on a handful of rows", {
  # 5 rows of 3 classes: a machine's rows all leave the smoothing band
  # while the others' are in it; refreshing none of the blocks then (and
  # restarting every width from the intercept-only model's Hessian) held
  # the joint continuation at 200 passes per width
  set.seed(3)
  x <- matrix(stats::runif(15), 5, 3)
  y <- factor(c("a", "b", "c", "a", "b"))
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  fit <- expect_no_warning(rff_glm(x, y, map, family = "hinge", lambda = 1))
  expect_lt(fit$passes, 400)
  z <- rff_features(map, x)
  for (class in levels(y)) {
    alone <- rff_glm(x, y == class, map, family = "hinge", lambda = 1)
    eta <- fit$intercept[[class]] + drop(z %*% fit$coefficients[, class])
    s <- ifelse(y == class, 1, -1)
    ours <- sum(pmax(0, 1 - s * eta)) + sum(fit$coefficients[, class]^2)
    theirs <- alone$deviance + sum(alone$coefficients^2)
    # both within 1e-9 of the exact minimum, by the continuation's rule
    expect_equal(ours, theirs, tolerance = 1e-8, info = class)
  }
})

test_that("a hinge machine whose fit leaves no row on the margin's edge converges in a few passes", {
  skip_if_not_installed("highs")
  # 5 rows of 2 classes (the fuzz suite's): at the fit two rows sit just
  # off the kink, on either side, and the intercept is flat. Keeping the
  # Hessian of rows that had left the smoothing band shortened every step
  # (430 passes, two widths unconverged); the penalty's Hessian alone, the
  # piece's own, reaches the fit in two passes a width
  x <- fixture_points(5, 3, seed = 3)
  y <- factor(c("a", "b", "a", "b", "b"))
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  fit <- expect_no_warning(rff_glm(x, y, map, family = "hinge", lambda = 0.5))
  expect_lt(fit$passes, 60)
  z <- rff_features(map, x)
  s <- ifelse(y == "b", 1, -1)
  qp <- hinge_qp(z, s, rep(1, 5), 0.5, tolerance = 1e-10)
  eta <- fit$intercept + drop(z %*% fit$coefficients)
  ours <- sum(pmax(0, 1 - s * eta)) + 0.5 * sum(fit$coefficients^2)
  # the continuation's rule: within 1e-9 of the minimum, and HiGHS's 1e-10
  expect_equal(ours, qp$objective, tolerance = 1e-8)
})

test_that("a formula's factor of several levels gives the one-vs-rest machine, with lambda cross-validated", {
  data <- svm_data()
  frame <- data.frame(y = data$y, u = data$x[, 1], v = data$x[, 2])
  fit <- rff_glm(y ~ u + v, frame, family = "squared_hinge", kernel = gaussian_kernel(1), n_features = 16, seed = 2,
                 nfolds = 3)
  expect_identical(ncol(fit$coefficients), 3L)
  expect_true(nrow(fit$path) > 1L && all(c("cv", "cv_se") %in% names(fit$path)))
  expect_output(print(fit), "squared hinge, 3 classes")
  expect_identical(levels(predict(fit, frame[1:4, ], type = "class")), levels(data$y))
  expect_error(predict(fit, frame, type = "response"), "gives scores", class = "askrff_error")
  expect_error(rff_glm(y ~ u + v + offset(u), frame, family = "squared_hinge", kernel = gaussian_kernel(1),
                       n_features = 8, lambda = 1),
               "takes no offset from a formula.*several classes", class = "askrff_invalid_argument")
})

test_that("probability = TRUE calibrates the decision values by Platt's sigmoid on out-of-fold decision values", {
  data <- svm_data(classes = 2)
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 8)
  fit <- rff_glm(data$x, data$y, map, family = "squared_hinge", lambda = 0.4, weights = data$w, seed = 9,
                 probability = TRUE)
  # the same construction from the public functions: the engine's folds,
  # a fit without each, its decision values on the fold, Platt's targets
  folds <- askrff:::.cpp_cv_folds(0, nrow(data$x), 5L, fit$fold_seed)
  decision <- numeric(nrow(data$x))
  for (f in 1:5) {
    without <- rff_glm(data$x, data$y, map, family = "squared_hinge", lambda = 0.4, weights = data$w * (folds != f))
    decision[folds == f] <- predict(without, data$x[folds == f, ], type = "decision")
  }
  positive <- data$y == "b"
  target <- ifelse(positive, (sum(positive) + 1) / (sum(positive) + 2), 1 / (sum(!positive) + 2))
  sigmoid <- suppressWarnings(stats::glm(target ~ decision, family = stats::binomial(), weights = data$w))
  expect_equal(c(fit$platt$intercept, fit$platt$slope), unname(coef(sigmoid)), tolerance = 1e-8)
  p <- predict(fit, data$x, type = "response")
  expect_equal(unname(p), unname(stats::plogis(coef(sigmoid)[1] + coef(sigmoid)[2] * fit$linear_predictors[, 1])),
               tolerance = 1e-8)
  saved <- tempfile(fileext = ".rds")
  saveRDS(fit, saved)
  expect_identical(predict(readRDS(saved), data$x[1:3, ], type = "response"), p[1:3])
})

test_that("Platt's probabilities are near the true ones, and held-out folds keep an interpolating machine's modest", {
  simulate <- function(n, seed) {
    set.seed(seed)
    x <- matrix(stats::rnorm(n * 2), n, 2)
    p <- stats::plogis(2 * sin(2 * x[, 1]) + x[, 2])
    list(x = x, p = p, y = factor(stats::rbinom(n, 1, p), levels = 0:1, labels = c("no", "yes")))
  }
  train <- simulate(3000, 1)
  test <- simulate(3000, 2)
  fit <- rff_glm(train$x, train$y, family = "squared_hinge", n_features = 64, seed = 3, probability = TRUE)
  # logistic regression on the same features comes within 0.021 of the true
  # probabilities on average, Platt's sigmoid of the machine within 0.025; a
  # sigmoid that had learned the machine's fit to its own rows would not
  expect_lt(mean(abs(predict(fit, test$x, type = "response") - test$p)), 0.04)
  # a machine that separates its 60 rows (lambda small) gives its own rows
  # decision values beyond the margin, whose sigmoid is nearly a step; out
  # of fold they are far less sure of themselves
  few <- lapply(train[c("x", "y")], function(v) if (is.matrix(v)) v[1:60, ] else v[1:60])
  sharp <- rff_glm(few$x, few$y, family = "squared_hinge", kernel = gaussian_kernel(0.3), n_features = 64, seed = 4,
                   lambda = 0.01, probability = TRUE)
  positive <- few$y == "yes"
  target <- ifelse(positive, (sum(positive) + 1) / (sum(positive) + 2), 1 / (sum(!positive) + 2))
  inside <- stats::glm.fit(cbind(1, sharp$linear_predictors[, 1]), target, family = stats::quasibinomial())$coefficients[2]
  expect_lt(sharp$platt$slope, inside / 2)
})

test_that("probability = TRUE is refused where it has no meaning or no data to refit, and edited sigmoids are named", {
  data <- svm_data()
  expect_error(rff_glm(data$x, data$y, family = "multinomial", n_features = 8, lambda = 1, probability = TRUE),
               "family without probabilities", class = "askrff_invalid_argument")
  chunks <- list(list(x = data$x, y = data$y))
  expect_error(rff_glm(chunks, family = "squared_hinge", kernel = gaussian_kernel(1), n_features = 8, lambda = 1,
                       probability = TRUE), "needs the data in memory", class = "askrff_invalid_argument")
  expect_error(rff_glm(data$x, data$y, family = "squared_hinge", n_features = 8, lambda = 1, probability = NA),
               "probability", class = "askrff_invalid_argument")
  fit <- rff_glm(data$x, data$y, family = "squared_hinge", n_features = 8, lambda = 1, seed = 1, probability = TRUE)
  p <- predict(fit, data$x, type = "response")
  expect_equal(unname(rowSums(p)), rep(1, nrow(data$x)))
  fit$platt$slope <- fit$platt$slope[-1]
  expect_error(predict(fit, data$x, type = "response"), "`object\\$platt` must be NULL or a list",
               class = "askrff_invalid_object")
})
