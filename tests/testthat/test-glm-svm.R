# Support vector machines on random features: the squared hinge family for
# two classes and, one class against the rest, for several.

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
