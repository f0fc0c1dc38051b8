# marginaleffects on rff_ridge() fits (R/marginaleffects-methods.R): the
# real package from Suggests, against rff_effects() and predict().

test_that("marginaleffects' slopes, average slopes and predictions agree with rff_effects() and predict()", {
  skip_if_not_installed("marginaleffects")
  set.seed(1)
  data <- data.frame(a = stats::runif(300, -2, 2), b = stats::runif(300, 1, 3))
  data$y <- sin(2 * data$a) + log(data$b) + stats::rnorm(300, sd = 0.1)
  fit <- rff_ridge(y ~ a + log(b), data, kernel = gaussian_kernel(1), n_features = 32, seed = 1)
  ours <- summary(rff_effects(fit, data))
  theirs <- marginaleffects::avg_slopes(fit, newdata = data, variables = c("a", "b"))
  # marginaleffects differentiates by finite differences (steps of 1e-4 of
  # the variable's range by default): the estimates to 1e-4; its standard
  # errors take the coefficients' Jacobian by finite differences too, whose
  # rounding over the 65 coefficients moves them by a few tenths of a
  # percent here
  expect_equal(theirs$estimate, ours$estimate, tolerance = 1e-4)
  expect_equal(theirs$std.error, ours$std.error, tolerance = 0.02)
  # with central steps of 1e-6 the difference quotients err by about
  # 1e-12 (h^2) and 1e-10 (rounding): the estimates agree to 1e-6, and the
  # standard errors to the Jacobian's rounding (2.5e-4 here)
  fine <- marginaleffects::avg_slopes(fit, newdata = data, variables = c("a", "b"), eps = 1e-6,
                                      numderiv = list("fdcenter", eps = 1e-6))
  expect_equal(fine$estimate, ours$estimate, tolerance = 1e-6)
  expect_equal(fine$std.error, ours$std.error, tolerance = 1e-3)
  pointwise <- marginaleffects::slopes(fit, newdata = data[1:10, ], variables = "a")
  expect_equal(pointwise$estimate, rff_effects(fit, data[1:10, ], variables = "a")$estimate, tolerance = 1e-4)
  # predictions are predict()'s, and their standard errors too (to
  # marginaleffects' numerical Jacobian): the coefficients' covariance is
  # the posterior's
  predicted <- marginaleffects::predictions(fit, newdata = data[1:10, ])
  exact <- predict(fit, data[1:10, ], se.fit = TRUE)
  expect_equal(predicted$estimate, unname(exact$fit), tolerance = 1e-12)
  expect_equal(predicted$std.error, unname(exact$se.fit), tolerance = 1e-4)
  # the coefficients round-trip, and bad ones are refused
  b <- marginaleffects::get_coef(fit)
  expect_length(b, 65L)
  expect_equal(marginaleffects::get_coef(marginaleffects::set_coef(fit, b)), b)
  expect_error(marginaleffects::set_coef(fit, b[-1]), "coefs", class = "askrff_error")
  expect_true("askrff_ridge" %in% getOption("marginaleffects_model_classes"))
})

test_that("the coefficients' covariance is the posterior's: its quadratic forms are predict()'s variances", {
  set.seed(2)
  x <- matrix(stats::runif(400, -2, 2), 200)
  y <- sin(x[, 1]) + stats::rnorm(200, sd = 0.2)
  fit <- rff_ridge(x, y, kernel = gaussian_kernel(1), n_features = 20, seed = 1, weights = stats::runif(200, 0.5, 2))
  new <- x[1:5, ]
  design <- cbind(1, rff_features(fit$map, new))
  covariance <- askrff:::get_vcov.askrff_ridge(fit)
  expect_equal(sqrt(rowSums((design %*% covariance) * design)), unname(predict(fit, new, se.fit = TRUE)$se.fit),
               tolerance = 1e-8)
  expect_equal(covariance, t(covariance))
})

test_that("marginaleffects' comparisons and a GLM's average slopes agree with rff_effects()", {
  skip_if_not_installed("marginaleffects")
  set.seed(3)
  data <- data.frame(a = stats::runif(300, -2, 2), g = factor(sample(c("u", "v", "w"), 300, TRUE)))
  data$y <- sin(2 * data$a) + (data$g == "v") + stats::rnorm(300, sd = 0.1)
  data$z <- stats::runif(300) < stats::plogis(data$a + (data$g == "w"))
  fit <- rff_ridge(y ~ a + g, data, kernel = gaussian_kernel(1), n_features = 24, seed = 1)
  ours <- summary(rff_effects(fit, data, variables = "g"))
  theirs <- marginaleffects::avg_comparisons(fit, newdata = data, variables = "g")
  # differences of predictions on both sides: equal to rounding; the
  # standard errors through marginaleffects' numerical Jacobian
  expect_equal(theirs$estimate, ours$estimate, tolerance = 1e-10)
  expect_equal(theirs$std.error, ours$std.error, tolerance = 1e-3)
  classifier <- rff_glm(z ~ a + g, data, family = "binomial", kernel = gaussian_kernel(1), n_features = 24, seed = 1,
                        lambda = 0.05)
  for (type in c("response", "link")) {
    ours <- summary(rff_effects(classifier, data, variables = "a", prediction = type))
    theirs <- marginaleffects::avg_slopes(classifier, newdata = data, variables = "a", type = type)
    expect_equal(theirs$estimate, ours$estimate, tolerance = 1e-4)
    expect_equal(theirs$std.error, ours$std.error, tolerance = 0.02)
  }
  expect_equal(marginaleffects::get_predict(classifier, data[1:3, ], type = "link")$estimate,
               unname(predict(classifier, data[1:3, ])))
  expect_true("askrff_glm" %in% getOption("marginaleffects_model_classes"))
})
