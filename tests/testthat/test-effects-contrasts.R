# rff_effects() beyond derivatives of ridge fits: the differences a
# factor's or logical's levels (and a numeric +1) make, and the effects of
# binomial and Poisson GLMs on the link and the response scale, with
# delta-method standard errors checked against a numeric Jacobian in the
# coefficients.

contrast_data <- function(n = 300) {
  set.seed(3)
  data <- data.frame(a = stats::runif(n, -2, 2), b = stats::runif(n, 1, 3),
                     g = factor(sample(c("u", "v", "w"), n, TRUE)), l = stats::runif(n) > 0.5)
  data$y <- sin(2 * data$a) + log(data$b) + (data$g == "v") / 2 + data$l + stats::rnorm(n, sd = 0.1)
  data$k <- stats::rpois(n, exp(0.5 * data$a + (data$g == "w") / 2))
  data$z <- factor(stats::runif(n) < stats::plogis(data$a + data$l - 0.5), labels = c("no", "yes"))
  data
}

# The fit with its intercept and coefficients set to theta.
with_coefficients <- function(fit, theta) {
  fit$intercept[[1L]] <- theta[[1L]]
  fit$coefficients[, 1L] <- theta[-1L]
  fit
}

# sqrt(J V J') with J the central-difference Jacobian of `effect` (a
# function of the fit) in the coefficients: the delta method, independent
# of rff_effects()'s algebra. The effects are smooth in the coefficients
# (linear, or a logistic or exponential of linear ones), so steps of 1e-5
# err by about 1e-10 relative.
delta_method_se <- function(fit, effect) {
  theta <- c(fit$intercept[[1L]], fit$coefficients[, 1L])
  jacobian <- vapply(seq_along(theta), function(k) {
    step <- replace(numeric(length(theta)), k, 1e-5)
    (effect(with_coefficients(fit, theta + step)) - effect(with_coefficients(fit, theta - step))) / 2e-5
  }, numeric(length(effect(fit))))
  jacobian <- matrix(jacobian, ncol = length(theta))
  sqrt(rowSums((jacobian %*% stats::vcov(fit)) * jacobian))
}

at_level <- function(rows, variable, value) {
  rows[[variable]] <- if (is.factor(rows[[variable]])) factor(value, levels = levels(rows[[variable]])) else value
  rows
}

test_that("factor, logical and +1 differences are differences of the predictions, with delta-method errors", {
  data <- contrast_data()
  fit <- rff_ridge(y ~ a + poly(b, 2) + g + l, data, kernel = gaussian_kernel(1.5), n_features = 48, seed = 2)
  rows <- data[1:8, ]
  effects <- rff_effects(fit, rows, variables = c("g", "l"))
  expect_equal(unique(effects$contrast), c("v - u", "w - u", "TRUE - FALSE"))
  expect_true(all(is.na(effects$value)))
  difference <- function(f, variable, high, low) {
    unname(predict(f, at_level(rows, variable, high)) - predict(f, at_level(rows, variable, low)))
  }
  # differences of two predictions: equal to rounding
  expect_equal(effects$estimate[effects$contrast == "w - u"], difference(fit, "g", "w", "u"), tolerance = 1e-10)
  logical <- effects[effects$term == "l", ]
  expect_equal(logical$estimate, difference(fit, "l", TRUE, FALSE), tolerance = 1e-10)
  expect_equal(logical$std.error, delta_method_se(fit, function(f) difference(f, "l", TRUE, FALSE)), tolerance = 1e-6)
  # a numeric variable moved by +1, as marginaleffects::comparisons()
  step <- rff_effects(fit, rows, variables = "a", type = "difference")
  moved <- function(f) unname(predict(f, transform(rows, a = a + 1)) - predict(f, rows))
  expect_equal(step$contrast, rep("+1", 8))
  expect_equal(step$estimate, moved(fit), tolerance = 1e-10)
  expect_equal(step$std.error, delta_method_se(fit, moved), tolerance = 1e-6)
  # the average difference and its error: the mean over the rows
  average <- summary(rff_effects(fit, data, variables = "g"))
  expect_equal(average$contrast, c("v - u", "w - u"))
  mean_difference <- function(f) {
    mean(predict(f, at_level(data, "g", "v")) - predict(f, at_level(data, "g", "u")))
  }
  expect_equal(average$estimate[1], mean_difference(fit), tolerance = 1e-10)
  expect_equal(average$std.error[1], delta_method_se(fit, mean_difference), tolerance = 1e-6)
})

test_that("a GLM's effects on the link and the response scale are the derivatives of its predictions", {
  data <- contrast_data()
  classifier <- rff_glm(z ~ a + b + l, data, family = "binomial", kernel = gaussian_kernel(1.5), n_features = 24,
                        seed = 1, lambda = 0.05)
  rows <- data[1:6, ]
  slope <- function(f, type, h = 1e-4) {
    unname((predict(f, transform(rows, a = a + h), type = type) - predict(f, transform(rows, a = a - h), type = type)) /
             (2 * h))
  }
  for (prediction in c("response", "link")) {
    effects <- rff_effects(classifier, rows, variables = "a", prediction = prediction)
    # central differences err by h^2 f''' / 6 and rounding 1e-16 / h
    expect_equal(effects$estimate, slope(classifier, prediction), tolerance = 1e-6)
    # the delta method in the coefficients, of the closed-form slopes
    expect_equal(effects$std.error, delta_method_se(classifier, function(f) {
      rff_effects(f, rows, variables = "a", prediction = prediction, se = FALSE)$estimate
    }), tolerance = 1e-5)
    # normal intervals: a GLM has no residual degrees of freedom
    expect_equal(effects$conf.high - effects$estimate, stats::qnorm(0.975) * effects$std.error, tolerance = 1e-12)
  }
  # a logical's difference on the probability scale, and its average's error
  probability <- function(f, value) unname(predict(f, at_level(data, "l", value), type = "response"))
  average <- summary(rff_effects(classifier, data, variables = "l"))
  expect_equal(average$estimate, mean(probability(classifier, TRUE) - probability(classifier, FALSE)),
               tolerance = 1e-10)
  expect_equal(average$std.error, delta_method_se(classifier, function(f) {
    mean(probability(f, TRUE) - probability(f, FALSE))
  }), tolerance = 1e-6)
  # Poisson: the mean count's derivative, with an offset in the formula
  data$exposure <- stats::runif(300, 1, 3)
  counts <- rff_glm(k ~ a + g + offset(log(exposure)), data, family = "poisson", kernel = gaussian_kernel(1),
                    n_features = 24, seed = 2, lambda = 0.1)
  poisson <- rff_effects(counts, rows <- data[1:6, ], variables = "a")
  expect_equal(poisson$estimate, slope(counts, "response"), tolerance = 1e-6)
  expect_equal(poisson$std.error, delta_method_se(counts, function(f) {
    rff_effects(f, rows, variables = "a", se = FALSE)$estimate
  }), tolerance = 1e-5)
  expect_equal(setdiff(unique(rff_effects(counts, rows)$term), c("a", "g")), character())
})

test_that("without pointwise errors the estimates and averages are unchanged", {
  data <- contrast_data(200)
  fit <- rff_ridge(y ~ a + g, data, kernel = gaussian_kernel(1), n_features = 32, seed = 1)
  full <- rff_effects(fit, data)
  quick <- rff_effects(fit, data, se = FALSE)
  expect_equal(quick$estimate, full$estimate)
  expect_true(all(is.na(quick$std.error)))
  expect_equal(attr(quick, "average"), attr(full, "average"))
})

test_that("rff_effects() refuses fits, variables and settings it cannot take, naming the argument", {
  data <- contrast_data(150)
  x <- as.matrix(data[, c("a", "b")])
  plain <- rff_ridge(x, data$y, kernel = gaussian_kernel(1), n_features = 16, seed = 1)
  expect_error(rff_effects(plain, x, variables = 2.5), "variables", class = "askrff_error")
  expect_error(rff_effects(plain, x, variables = 3), "variables", class = "askrff_error")
  expect_error(rff_effects(plain, x, variables = NA_real_), "variables", class = "askrff_error")
  expect_error(rff_effects(plain, x, type = "ratio"), "type", class = "askrff_error")
  expect_error(rff_effects(plain, x, prediction = "probability"), "prediction", class = "askrff_error")
  expect_error(rff_effects(plain, x, se = NA), "se", class = "askrff_error")
  expect_error(rff_effects(plain, x, vcov = "HC3"), "vcov", class = "askrff_error")
  several <- rff_glm(g ~ a + b, data, family = "multinomial", n_features = 16, seed = 1, lambda = 0.1)
  expect_error(rff_effects(several, data), "one linear predictor", class = "askrff_error")
  binomial <- rff_glm(l ~ a + b, data, family = "binomial", n_features = 16, seed = 1, lambda = 0.1)
  expect_error(rff_effects(binomial, data, vcov = "sampling"), "ridge fits", class = "askrff_error")
  quantile <- rff_glm(y ~ a + b, data, family = "quantile", n_features = 16, seed = 1, lambda = 0.1)
  expect_error(rff_effects(quantile, data), "\"quantile\"", class = "askrff_error")
  expect_error(rff_effects(lm(y ~ a, data), data), "fit", class = "askrff_error")
})

test_that("values over orders of magnitude, rows without data and overflowing means end in effects or a named error", {
  set.seed(4)
  data <- data.frame(b = 10^stats::runif(300, -3, 3))
  data$y <- log(data$b) / 3 + stats::rnorm(300, sd = 0.1)
  fit <- rff_ridge(y ~ log(b), data, kernel = gaussian_kernel(1), n_features = 32, seed = 1)
  rows <- data[order(data$b)[c(1, 2, 150, 300)], , drop = FALSE]
  # steps relative to each value: the smallest b (about 1e-3) stays in
  # log()'s domain and its slope is as accurate as the largest's
  slope <- (predict(fit, transform(rows, b = b * (1 + 1e-6))) - predict(fit, transform(rows, b = b * (1 - 1e-6)))) /
    (2e-6 * rows$b)
  expect_equal(rff_effects(fit, rows)$estimate, unname(slope), tolerance = 1e-6)
  # a default-method fit given a data frame without one complete row
  x <- matrix(stats::runif(200), 100)
  plain <- rff_ridge(x, x[, 1], kernel = gaussian_kernel(1), n_features = 8, seed = 1)
  empty <- rff_effects(plain, data.frame(a = c(NA_real_, NA), b = c(1, NA)), type = "difference")
  expect_true(all(is.na(empty$estimate)))
  file <- tempfile(fileext = ".png")
  grDevices::png(file)
  expect_silent(plot(empty))
  grDevices::dev.off()
  expect_error(rff_effects(fit, as.list(rows)), "newdata", class = "askrff_error")
  # a Poisson fit whose mean overflows at rows far outside the data
  counts <- rff_glm(x, stats::rpois(100, 2), family = "poisson", kernel = gaussian_kernel(1), n_features = 8, seed = 1,
                    lambda = 0.1)
  counts$intercept[[1L]] <- 800
  expect_error(rff_effects(counts, x[1:3, ]), "overflows", class = "askrff_error")
})
