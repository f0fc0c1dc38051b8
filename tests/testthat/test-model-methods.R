# The methods R users call on any fit: summary(), nobs(), logLik() (and so
# AIC() and BIC()), deviance(), vcov(), and predict()'s intervals. The
# references are independent of the package's code: with a tiny lambda and
# few features a fit is lm() or glm() on its own features, and at a real
# lambda the penalized Hessian is built here from the features.

# 200 rows of two predictors with a numeric, a 0/1, a count and a
# three-class response; the map has 4 frequencies, so 8 feature columns.
methods_data <- function() {
  set.seed(11)
  n <- 200
  x <- matrix(rnorm(n * 2), n)
  list(x = x, n = n, y = sin(x[, 1]) + x[, 2]^2 / 3 + rnorm(n, sd = 0.3), binary = rbinom(n, 1, plogis(2 * x[, 1])),
       counts = rpois(n, exp(0.5 + 0.7 * x[, 1])),
       classes = factor(apply(cbind(0, x) + matrix(rlogis(3 * n), n), 1L, function(e) c("a", "b", "c")[which.max(e)])),
       map = rff_map(gaussian_kernel(1), d = 2, n_features = 4, seed = 2))
}

# the GLM fit keeps what its likelihood needs (glm_fit()'s `likelihood`)
skip_without_likelihood <- function(fit) {
  skip_if(is.null(fit$likelihood), "rff_glm() fits keep no `likelihood` (glm_fit() needs `likelihood = glm_likelihood(solved, shift)`)")
}

# The smallest eigenvalue of the centered Z'Z is 0.024 on these data, so
# lambda = 1e-10 moves the fit from lm()'s by a relative 1e-8 at most (and
# glm()'s, whose weighted Hessian is smaller, by 1e-6 at most).
tiny <- 1e-10

test_that("a ridge fit with a tiny lambda has lm()'s likelihood, deviance, observations and covariance", {
  d <- methods_data()
  w <- c(0, rep(c(1, 2.5), length.out = d$n - 1))
  z <- rff_features(d$map, d$x)
  for (weights in list(NULL, w)) {
    fit <- rff_ridge(d$x, d$y, map = d$map, lambda = tiny, weights = weights)
    reference <- lm(d$y ~ z, weights = weights)
    expect_equal(nobs(fit), nobs(reference))
    expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(reference)), tolerance = 1e-8)
    # df: the 9 coefficients and sigma, as lambda -> 0
    expect_equal(attr(logLik(fit), "df"), attr(logLik(reference), "df"), tolerance = 1e-6)
    expect_equal(attr(logLik(fit), "nobs"), nobs(reference))
    expect_s3_class(logLik(fit), "logLik")
    expect_equal(AIC(fit), AIC(reference), tolerance = 1e-8)
    expect_equal(BIC(fit), BIC(reference), tolerance = 1e-8)
    expect_equal(deviance(fit), deviance(reference), tolerance = 1e-8)
    # lm's covariance is sigma^2 (X'WX)^-1 with the same sigma^2 as lambda -> 0
    expect_equal(unname(vcov(fit)), unname(vcov(reference)), tolerance = 1e-6)
    expect_identical(rownames(vcov(fit)), names(coef(fit)))
  }
})

test_that("a ridge fit's covariance is sigma^2 (G + lambda I)^-1 on the centered features, and tidy()'s standard errors", {
  d <- methods_data()
  # 30 rows and 64 feature columns: the fit keeps fewer eigenvectors than columns
  map <- rff_map(gaussian_kernel(1), d = 2, n_features = 32, seed = 3)
  rows <- 1:30
  w <- rep(c(1, 3), 15)
  fit <- rff_ridge(d$x[rows, ], d$y[rows], map = map, lambda = 0.5, weights = w)
  z <- rff_features(map, d$x[rows, ])
  mean_z <- colSums(w * z) / sum(w)
  centered <- sweep(z, 2L, mean_z)
  g <- crossprod(centered * sqrt(w))
  inverse <- solve(g + 0.5 * diag(ncol(z)))
  df <- 1 + sum(diag(inverse %*% g))
  b <- coef(fit)
  rss <- sum(w * (d$y[rows] - b[1] - z %*% b[-1])^2)
  sigma2 <- rss / (length(rows) - df)
  expected <- sigma2 * rbind(c(1 / sum(w) + drop(mean_z %*% inverse %*% mean_z), -drop(inverse %*% mean_z)),
                             cbind(-drop(inverse %*% mean_z), inverse))
  expect_equal(unname(vcov(fit)), expected, tolerance = 1e-8)
  expect_equal(attr(logLik(fit), "df"), df + 1, tolerance = 1e-10)
  skip_if_not_installed("generics")
  skip_if_not_installed("tibble")
  expect_equal(unname(diag(vcov(fit))), generics::tidy(fit)$std.error^2, tolerance = 1e-10)
})

test_that("binomial and Poisson fits with a tiny lambda have glm()'s likelihood, deviance and covariance", {
  d <- methods_data()
  z <- rff_features(d$map, d$x)
  w <- c(0, rep(1:2, length.out = d$n - 1))  # whole weights: glm()'s likelihood counts them as repeated rows
  for (family in c("binomial", "poisson")) {
    y <- if (family == "binomial") d$binary else d$counts
    for (weights in list(NULL, w)) {
      fit <- rff_glm(d$x, y, map = d$map, family = family, lambda = tiny, weights = weights)
      skip_without_likelihood(fit)
      reference <- glm(y ~ z, family = family, weights = weights, control = glm.control(epsilon = 1e-14, maxit = 100))
      expect_equal(nobs(fit), nobs(reference))
      expect_equal(deviance(fit), deviance(reference), tolerance = 1e-9)
      expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(reference)), tolerance = 1e-9)
      # the effective df tends to glm()'s 9 coefficients
      expect_equal(attr(logLik(fit), "df"), attr(logLik(reference), "df"), tolerance = 1e-6)
      expect_equal(AIC(fit), AIC(reference), tolerance = 1e-8)
      # (BIC.glm counts rows of zero weight: logLik.glm's `nobs` is not nobs())
      expect_equal(BIC(fit), -2 * as.numeric(logLik(reference)) + log(nobs(reference)) * attr(logLik(reference), "df"),
                   tolerance = 1e-8)
      expect_equal(unname(vcov(fit)), unname(vcov(reference)), tolerance = 1e-5)
      expect_identical(rownames(vcov(fit)), names(coef(fit)))
    }
  }
})

test_that("a GLM's degrees of freedom and covariance come from the penalized Hessian at its coefficients", {
  d <- methods_data()
  z <- cbind(1, rff_features(d$map, d$x))
  penalty <- diag(c(0, rep(1, ncol(z) - 1L)))
  for (family in c("binomial", "poisson")) {
    y <- if (family == "binomial") d$binary else d$counts
    fit <- rff_glm(d$x, y, map = d$map, family = family, lambda = 3)
    skip_without_likelihood(fit)
    mu <- predict(fit, d$x, type = "response")
    h <- crossprod(z * (if (family == "binomial") mu * (1 - mu) else mu), z)
    covariance <- solve(h + 3 * penalty)
    expect_equal(unname(vcov(fit)), covariance, tolerance = 1e-8)
    expect_equal(attr(logLik(fit), "df"), sum(diag(covariance %*% h)), tolerance = 1e-8)
    saturated <- if (family == "poisson") sum(dpois(y, y, log = TRUE)) else 0
    expect_equal(as.numeric(logLik(fit)), saturated - deviance(fit) / 2, tolerance = 1e-12)
  }
})

test_that("a multinomial fit's likelihood and degrees of freedom take the whole Hessian of the softmax", {
  d <- methods_data()
  z <- cbind(1, rff_features(d$map, d$x))
  k <- nlevels(d$classes)
  # the Hessian of half the deviance, every pair of classes' block, and the
  # pseudo-inverse of H + lambda P (singular along the intercepts' common shift)
  whole <- function(p) {
    h <- matrix(0, k * ncol(z), k * ncol(z))
    for (i in seq_len(nrow(z))) h <- h + kronecker(diag(p[i, ]) - tcrossprod(p[i, ]), tcrossprod(z[i, ]))
    h
  }
  pseudo_inverse <- function(m) {
    e <- eigen(m, symmetric = TRUE)
    kept <- e$values > 1e-10 * e$values[1L]
    e$vectors[, kept] %*% (t(e$vectors[, kept]) / e$values[kept])
  }
  fit <- rff_glm(d$x, d$classes, map = d$map, family = "multinomial", lambda = 2)
  skip_without_likelihood(fit)
  p <- predict(fit, d$x, type = "response")
  h <- whole(p)
  covariance <- pseudo_inverse(h + 2 * kronecker(diag(k), diag(c(0, rep(1, ncol(z) - 1L)))))
  expect_equal(attr(logLik(fit), "df"), sum(diag(covariance %*% h)), tolerance = 1e-8)
  expect_equal(unname(vcov(fit)), covariance, tolerance = 1e-7)
  expect_equal(rownames(vcov(fit))[c(1, 2, ncol(z) + 1)], c("a:(Intercept)", "a:z1", "b:(Intercept)"))
  expect_equal(as.numeric(logLik(fit)), sum(log(p[cbind(seq_len(d$n), as.integer(d$classes))])), tolerance = 1e-10)
  # lambda -> 0: (K - 1)(1 + D) degrees of freedom, nnet::multinom()'s count
  small <- rff_glm(d$x, d$classes, map = d$map, family = "multinomial", lambda = 1e-7)
  expect_equal(attr(logLik(small), "df"), (k - 1) * ncol(z), tolerance = 1e-4)
  skip_if_not_installed("nnet")
  reference <- nnet::multinom(d$classes ~ z[, -1], trace = FALSE, reltol = 1e-14, maxit = 2000)
  expect_equal(as.numeric(logLik(small)), as.numeric(logLik(reference)), tolerance = 1e-5)
})

test_that("the squared hinge loss has no likelihood, and logLik(), AIC() and vcov() say so", {
  d <- methods_data()
  fit <- rff_glm(d$x, d$binary, map = d$map, family = "squared_hinge", lambda = 1)
  expect_error(logLik(fit), class = "askrff_invalid_argument", regexp = "needs a family with a likelihood.*squared_hinge")
  expect_error(AIC(fit), class = "askrff_error", regexp = "likelihood")
  expect_error(BIC(fit), class = "askrff_error", regexp = "likelihood")
  expect_error(vcov(fit), class = "askrff_error", regexp = "likelihood")
  expect_equal(nobs(fit), d$n)
  expect_equal(deviance(fit), fit$deviance)
  expect_output(print(summary(fit)), "AIC: none \\(the loss is no likelihood\\)")
})

test_that("a GLM fit that kept no Hessian, or an edited likelihood, is refused clearly", {
  d <- methods_data()
  fit <- rff_glm(d$x, d$binary, map = d$map, lambda = 1)
  skip_without_likelihood(fit)
  without <- fit
  without$likelihood[c("hessian", "df", "covariance")] <- list(FALSE, NULL, NULL)
  expect_error(vcov(without), class = "askrff_error", regexp = "keeps no Hessian.*9 x 9.*memory")
  expect_error(logLik(without), class = "askrff_error", regexp = "keeps no Hessian")
  expect_equal(summary(without)$aic, NA_real_)
  older <- fit
  older$likelihood <- NULL
  expect_error(logLik(older), class = "askrff_error", regexp = "keeps no likelihood")
  edited <- fit
  edited$likelihood$covariance <- edited$likelihood$covariance[-1L, ]
  expect_error(vcov(edited), class = "askrff_invalid_object", regexp = "likelihood")
  edited <- fit
  edited$likelihood$df <- -1
  expect_error(logLik(edited), class = "askrff_invalid_object")
})

test_that("a cross-validated GLM fit has its likelihood", {
  d <- methods_data()
  fit <- rff_glm(d$x, d$binary, map = d$map)
  skip_without_likelihood(fit)
  expect_gt(attr(logLik(fit), "df"), 1)
  expect_lt(attr(logLik(fit), "df"), 9)
  expect_equal(as.numeric(logLik(fit)), -deviance(fit) / 2)
})

test_that("a streamed ridge fit has the likelihood and covariance of the same fit in memory", {
  d <- methods_data()
  w <- rep(2:1, each = d$n / 2)
  memory <- rff_ridge(d$x, d$y, map = d$map, lambda = 0.1, weights = w)
  halves <- list(1:100, 101:200)
  chunks <- lapply(halves, function(r) list(x = d$x[r, ], y = d$y[r], w = w[r]))
  streamed <- rff_ridge(chunks, map = d$map, lambda = 0.1)
  skip_if(is.null(streamed$log_weight), "rff_ridge() fits keep no `log_weight` (ridge_fit() needs `log_weight = sums$log_weight`)")
  expect_equal(logLik(streamed), logLik(memory), tolerance = 1e-10)
  expect_equal(vcov(streamed), vcov(memory), tolerance = 1e-10)
})

test_that("summaries print the model, lambda, degrees of freedom and fit, and no table of coefficients", {
  d <- methods_data()
  data <- data.frame(y = d$y, u = d$x[, 1], v = d$x[, 2])
  fit <- rff_ridge(y ~ u + v, data, map = d$map, lambda = 0.1)
  s <- summary(fit)
  expect_s3_class(s, "summary.askrff_ridge")
  expect_equal(unname(s$sigma), sqrt(deviance(fit) / (nobs(fit) - s$df)))
  expect_equal(unname(s$r.squared), 1 - deviance(fit) / sum((d$y - mean(d$y))^2))
  expect_equal(s$aic, AIC(fit))
  out <- capture.output(print(s))
  expect_match(out, "^rff_ridge(\\.formula)?\\(formula = y ~ u \\+ v", all = FALSE)
  for (line in c("Ridge regression on random features", "kernel: Gaussian kernel \\(sigma = 1\\)", "rff_map, iid, 8 feature columns",
                 "rows: 200 of positive weight", "lambda = 0.1, given", "effective degrees of freedom: [0-9.]+ \\(intercept included\\)",
                 "Median", "not interpretable one by one", "Residual standard error", "R-squared", "AIC")) {
    expect_match(out, line, all = FALSE)
  }
  expect_lt(length(out), 30L)
  g <- rff_glm(d$x, d$classes, map = d$map, family = "multinomial")
  gs <- summary(g)
  expect_s3_class(gs, "summary.askrff_glm")
  out <- capture.output(print(gs))
  for (line in c("family: multinomial, 3 classes", "chosen by 5-fold cross-validation among", "Intercepts: a ",
                 "Feature coefficients: 8 per class", "Null deviance", "Residual deviance", "Converged after")) {
    expect_match(out, line, all = FALSE)
  }
  skip_without_likelihood(g)
  expect_equal(gs$aic, AIC(g))
  expect_match(out, sprintf("AIC: %s", format(signif(AIC(g), 4))), all = FALSE)
})

test_that("predict() of a GLM refuses intervals, standard errors and unknown arguments", {
  d <- methods_data()
  fit <- rff_glm(d$x, d$binary, map = d$map, lambda = 1)
  expect_error(predict(fit, d$x[1:3, ], interval = "prediction"), class = "askrff_invalid_argument",
               regexp = "`interval` is not available for fits of rff_glm\\(\\)")
  expect_error(predict(fit, d$x[1:3, ], se.fit = TRUE), class = "askrff_invalid_argument", regexp = "`se.fit`")
  expect_error(predict(fit, d$x[1:3, ], levels = 0.9), class = "askrff_invalid_argument", regexp = "Unknown argument: `levels`")
})

test_that("ridge intervals take the t quantile's lower tail: finite at level 1 - 1e-16, and lm()'s as lambda -> 0", {
  d <- methods_data()
  fit <- rff_ridge(d$x, d$y, map = d$map, lambda = 0.1)
  new <- d$x[1:4, ]
  p <- predict(fit, new, se.fit = TRUE)
  sigma2 <- p$residual.scale^2
  for (level in c(0.95, 1 - 1e-16)) {
    confidence <- predict(fit, new, interval = "confidence", level = level)
    prediction <- predict(fit, new, interval = "prediction", level = level)
    expect_true(all(is.finite(confidence)) && all(is.finite(prediction)))
    tail <- qt((1 - level) / 2, p$df)
    expect_equal(unname(confidence[, "lwr"]), unname(p$fit + tail * p$se.fit))
    expect_equal(unname(confidence[, "upr"]), unname(p$fit - tail * p$se.fit))
    expect_equal(unname(prediction[, "upr"]), unname(p$fit - tail * sqrt(p$se.fit^2 + sigma2)))
  }
  z <- rff_features(d$map, d$x)
  exact <- rff_ridge(d$x, d$y, map = d$map, lambda = tiny)
  reference <- lm(y ~ ., data.frame(y = d$y, z))
  for (interval in c("confidence", "prediction")) {
    expect_equal(unname(predict(exact, new, interval = interval, level = 1 - 1e-16)),
                 unname(predict(reference, data.frame(z[1:4, ]), interval = interval, level = 1 - 1e-16)), tolerance = 1e-6)
  }
})
