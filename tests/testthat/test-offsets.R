# Offsets in rff_ridge() and rff_glm(): a known part of each row's linear
# predictor, as lm() and glm() take them. Against glm()'s intercept-only
# model with an offset, glmnet's ridge fits with an offset on the same
# features, ridge on y - offset, and each family's loss minimised directly;
# the formula's offset() terms against the `offset` argument, formula
# against default methods, chunks against data in memory; missing values
# and bad offsets.

# Counts of a rate per unit of exposure, the exposures spanning two orders
# of magnitude.
rate_data <- function(n = 300, seed = 1) {
  set.seed(seed)
  exposure <- exp(runif(n, -1, 3))
  a <- runif(n)
  data.frame(a = a, b = runif(n), exposure = exposure, y = rpois(n, exposure * exp(0.3 + sin(3 * a))))
}

# glm()'s intercept-only model with an offset, converged to rounding.
glm_null <- function(formula, family, data) {
  stats::glm(formula, family, data, control = stats::glm.control(epsilon = 1e-14, maxit = 100))
}

test_that("a Poisson rate model starts from glm()'s intercept-only model with offset(log(exposure))", {
  d <- rate_data()
  null <- glm_null(y ~ 1 + offset(log(exposure)), stats::poisson(), d)
  # Poisson's null intercept in closed form: glm() is the reference it claims
  expect_equal(unname(coef(null)), log(sum(d$y) / sum(d$exposure)), tolerance = 1e-12)
  fit <- rff_glm(y ~ a + b + offset(log(exposure)), d, family = "poisson", kernel = gaussian_kernel(1), n_features = 16,
                 lambda = 1e12, seed = 1)
  # the null deviance is the path's deviance at its start, the
  # intercept-only fit that Newton's method takes to the loss's rounding
  expect_equal(fit$null_deviance, deviance(null), tolerance = 1e-12)
  # at lambda = 1e12 the features' coefficients are at most |Z'(y - mu)| /
  # lambda, about 3e-11 here, and move the intercept and the deviance by as
  # little: the fit is the intercept-only model to 1e-9
  expect_lt(max(abs(fit$coefficients)), 1e-9)
  expect_equal(unname(fit$intercept), unname(coef(null)), tolerance = 1e-9)
  expect_equal(deviance(fit), deviance(null), tolerance = 1e-9)
  expect_equal(as.numeric(logLik(fit)), as.numeric(logLik(null)), tolerance = 1e-9)
  expect_equal(attr(logLik(fit), "df"), 1, tolerance = 1e-9)
  # the offset is in the fitted means, as in glm()
  expect_equal(unname(fitted(fit)), unname(fitted(null)), tolerance = 1e-9)
})

test_that("Poisson's intercept-only model is exact with offsets hundreds of units of eta apart", {
  # Newton's method alone approaches it from above by about a unit of eta
  # per pass when the offsets are spread (its curvature grows as exp(eta));
  # the step on the link scale from the offset's mean lands on it at once
  set.seed(9)
  x <- matrix(runif(40), 20, 2)
  counts <- rpois(20, 3)
  offset <- rep(c(0, 800), 10)
  fit <- expect_no_warning(rff_glm(x, counts, rff_map(gaussian_kernel(1), 2, 8, seed = 1), family = "poisson", lambda = 1,
                                   offset = offset))
  # the closed form, log(sum y / sum exp(o)), with exp(800) kept out of
  # doubles, and the deviance from log(mu), which underflows as mu
  intercept <- log(sum(counts)) - 800 - log(10 + 10 * exp(-800))
  log_mu <- intercept + offset
  deviance <- 2 * sum(ifelse(counts > 0, counts * (log(counts) - log_mu), 0) - counts + exp(log_mu))
  expect_equal(fit$null_deviance, deviance, tolerance = 1e-12)
  expect_lte(fit$passes, 12)
})

test_that("a rate model's predicted counts scale with the exposure in newdata", {
  d <- rate_data()
  fit <- rff_glm(y ~ a + b + offset(log(exposure)), d, family = "poisson", kernel = gaussian_kernel(1), n_features = 16,
                 seed = 1)
  new <- d[1:5, ]
  doubled <- transform(new, exposure = 2 * exposure)
  expect_equal(predict(fit, doubled, type = "response"), 2 * predict(fit, new, type = "response"), tolerance = 1e-14)
  expect_equal(predict(fit, doubled) - predict(fit, new), stats::setNames(rep(log(2), 5), rownames(new)),
               tolerance = 1e-14)
  # the training rows' predictions are the fitted values, their offsets included
  expect_equal(predict(fit, d, type = "response"), fitted(fit), tolerance = 1e-12)
  expect_equal(unname(fit$linear_predictors[, 1]), unname(predict(fit, d)), tolerance = 1e-12)
  # a fit without the offset predicts a rate that does not move with it
  plain <- rff_glm(y ~ a + b, d, family = "poisson", kernel = gaussian_kernel(1), n_features = 16, seed = 1)
  expect_identical(predict(plain, doubled), predict(plain, new))
})

test_that("the formula's offset() terms and the offset argument give one fit, and the default method the same", {
  d <- rate_data(n = 200, seed = 2)
  map <- rff_map(gaussian_kernel(1), 2, 12, seed = 2)
  by_term <- rff_glm(y ~ a + b + offset(log(exposure)), d, family = "poisson", map = map, nfolds = 3, seed = 1)
  by_argument <- rff_glm(y ~ a + b, d, family = "poisson", map = map, offset = log(exposure), nfolds = 3, seed = 1)
  expect_identical(coef(by_argument), coef(by_term))
  expect_identical(by_argument$path, by_term$path)
  expect_identical(predict(by_argument, d[1:4, ]), predict(by_term, d[1:4, ]))
  # offsets of both kinds are summed, as model.offset() sums them
  halves <- rff_glm(y ~ a + b + offset(log(exposure) / 2), d, family = "poisson", map = map,
                    offset = log(exposure) / 2, nfolds = 3, seed = 1)
  expect_equal(coef(halves), coef(by_term), tolerance = 1e-12)
  expect_equal(predict(halves, d[1:4, ]), predict(by_term, d[1:4, ]), tolerance = 1e-12)
  # the default method on the same columns, with its offset given for new rows
  x <- as.matrix(d[, c("a", "b")])
  default <- rff_glm(x, d$y, map, family = "poisson", offset = log(d$exposure), nfolds = 3, seed = 1)
  expect_identical(unname(coef(default)), unname(coef(by_term)))
  expect_identical(unname(predict(default, x[1:4, ], offset = log(d$exposure[1:4]))), unname(predict(by_term, d[1:4, ])))
  # ridge likewise
  ridge_term <- rff_ridge(log1p(y) ~ a + b + offset(log(exposure)), d, map = map)
  ridge_argument <- rff_ridge(log1p(y) ~ a + b, d, map = map, offset = log(exposure))
  ridge_default <- rff_ridge(x, log1p(d$y), map, offset = log(d$exposure))
  expect_identical(coef(ridge_argument), coef(ridge_term))
  expect_identical(unname(coef(ridge_default)), unname(coef(ridge_term)))
  expect_identical(unname(predict(ridge_default, x[1:4, ], offset = log(d$exposure[1:4]))),
                   unname(predict(ridge_term, d[1:4, ])))
})

test_that("ridge with an offset is ridge on y - offset with the offset added back", {
  set.seed(4)
  n <- 150
  x <- matrix(rnorm(n * 2), n, 2)
  o <- 3 * x[, 2] + rnorm(n)
  y <- o + sin(2 * x[, 1]) + rnorm(n, sd = 0.2)
  map <- rff_map(gaussian_kernel(1), 2, 24, seed = 4)
  fit <- rff_ridge(x, y, map, offset = o)
  shifted <- rff_ridge(x, y - o, map)
  # the same sums, so the same path and choice of lambda by leave-one-out
  expect_identical(coef(fit), coef(shifted))
  expect_identical(fit$path, shifted$path)
  expect_true(fit$offset)
  expect_false(shifted$offset)
  expect_equal(fitted(fit), fitted(shifted) + o, tolerance = 1e-14)
  expect_equal(residuals(fit), residuals(shifted), tolerance = 1e-14)
  expect_equal(residuals(fit), y - fitted(fit), tolerance = 1e-12)
  new <- x[1:6, ]
  new_offset <- c(-1, 0, 1, 2, 10, -10)
  expect_equal(predict(fit, new, offset = new_offset), predict(shifted, new) + new_offset, tolerance = 1e-14)
  # the intervals move with the offset, which is known: their widths and the
  # standard errors are the same
  interval <- predict(fit, new, offset = new_offset, interval = "prediction", se.fit = TRUE)
  reference <- predict(shifted, new, interval = "prediction", se.fit = TRUE)
  expect_equal(interval$fit, reference$fit + new_offset, tolerance = 1e-14)
  expect_identical(interval$se.fit, reference$se.fit)
  # the likelihood is that of the residuals, which the offset does not
  # change, and R^2 the variation explained beyond the offset, as
  # summary.lm() takes it since R 4.3.0 (lm(y ~ x, offset = o) has lm(y - o
  # ~ x)'s; before, it counted the offset as explained)
  expect_equal(logLik(fit), logLik(shifted))
  expect_equal(deviance(fit), deviance(shifted))
  expect_equal(summary(fit)$r.squared, summary(shifted)$r.squared, tolerance = 1e-12)
  # with fewer rows than feature columns, the dual form solves it likewise
  few <- 1:30
  dual <- rff_ridge(x[few, ], y[few], map, lambda = 0.1, offset = o[few])
  expect_identical(dual$form, "dual")
  expect_equal(coef(dual), coef(rff_ridge(x[few, ], y[few] - o[few], map, lambda = 0.1)), tolerance = 1e-12)
  expect_equal(predict(dual, new, offset = new_offset),
               predict(rff_ridge(x[few, ], y[few] - o[few], map, lambda = 0.1), new) + new_offset, tolerance = 1e-12)
  # chunks carry their offset as they carry w
  pieces <- split(seq_len(n), rep(1:3, c(40, 60, 50)))
  chunked <- rff_ridge(lapply(pieces, function(i) list(x = x[i, ], y = y[i], offset = o[i])), map = map)
  expect_equal(coef(chunked), coef(fit), tolerance = 1e-10)
  expect_true(chunked$offset)
})

test_that("the GLM with an offset equals glmnet's ridge fit with that offset on the same features, for every family glmnet has", {
  skip_on_cran()
  skip_if_not_installed("glmnet")
  set.seed(2)
  n <- 300
  x <- matrix(rnorm(n * 3), n, 3)
  o <- rnorm(n, sd = 2)
  map <- rff_map(gaussian_kernel(1), 3, 16, seed = 2)
  z <- rff_features(map, x)
  binary <- rbinom(n, 1, stats::plogis(o + sin(2 * x[, 1])))
  counts <- rpois(n, exp(o / 2 + sin(2 * x[, 1])))
  for (lambda in c(0.5, 20)) {
    fit <- rff_glm(x, binary, map, family = "binomial", lambda = lambda, offset = o)
    reference <- tight_glmnet(z, binary, family = "binomial", lambda = lambda / n, offset = o)
    expect_equal(unname(coef(fit)), as.vector(coef(reference)), tolerance = 1e-6)
    fit <- rff_glm(x, counts, map, family = "poisson", lambda = lambda, offset = o / 2)
    reference <- tight_glmnet(z, counts, family = "poisson", lambda = lambda / n, offset = o / 2)
    expect_equal(unname(coef(fit)), as.vector(coef(reference)), tolerance = 1e-6)
  }
  # several classes take one offset column per class, as glmnet does
  classes <- cut(x[, 1] + rnorm(n, sd = 0.5), c(-Inf, -0.5, 0.5, Inf), labels = c("u", "v", "w"))
  offsets <- matrix(rnorm(n * 3), n, 3)
  fit <- rff_glm(x, classes, map, family = "multinomial", lambda = 3, offset = offsets)
  reference <- sapply(coef(tight_glmnet(z, classes, family = "multinomial", lambda = 3 / n, offset = offsets)), as.vector)
  centered <- function(b) {
    b[1L, ] <- b[1L, ] - mean(b[1L, ])
    unname(b)
  }
  expect_equal(centered(coef(fit)), centered(reference), tolerance = 1e-6)
  expect_equal(unname(predict(fit, x[1:5, ], offset = offsets[1:5, ], type = "response")),
               unname(stats::predict(tight_glmnet(z, classes, family = "multinomial", lambda = 3 / n, offset = offsets),
                                     z[1:5, ], newoffset = offsets[1:5, ], type = "response")[, , 1]),
               tolerance = 1e-6)
  # one offset added to every class cancels in the softmax: the fit is the one without
  same <- rff_glm(x, classes, map, family = "multinomial", lambda = 3, offset = cbind(o, o, o))
  plain <- rff_glm(x, classes, map, family = "multinomial", lambda = 3)
  expect_equal(coef(same), coef(plain), tolerance = 1e-8)
  expect_equal(same$null_deviance, plain$null_deviance, tolerance = 1e-12)
})

test_that("the covariance and degrees of freedom with an offset take the Hessian at the offset's means", {
  # (as test-model-methods.R checks them without an offset) The whole
  # Hessian of several classes takes one pass whose references rotate the
  # classes: each class's offset must rotate with them
  set.seed(11)
  n <- 80
  x <- matrix(rnorm(n * 2), n, 2)
  map <- rff_map(gaussian_kernel(1), 2, 6, seed = 11)
  z <- cbind(1, rff_features(map, x))
  penalty <- diag(c(0, rep(1, ncol(z) - 1L)))
  classes <- factor(sample(c("a", "b", "c"), n, replace = TRUE))
  offsets <- matrix(rnorm(n * 3, sd = 2), n, 3)
  fit <- rff_glm(x, classes, map, family = "multinomial", lambda = 2, offset = offsets)
  p <- predict(fit, x, offset = offsets, type = "response")
  h <- matrix(0, 3 * ncol(z), 3 * ncol(z))
  for (i in seq_len(n)) h <- h + kronecker(diag(p[i, ]) - tcrossprod(p[i, ]), tcrossprod(z[i, ]))
  e <- eigen(h + 2 * kronecker(diag(3), penalty), symmetric = TRUE)
  kept <- e$values > 1e-10 * e$values[1L]
  covariance <- e$vectors[, kept] %*% (t(e$vectors[, kept]) / e$values[kept])
  expect_equal(attr(logLik(fit), "df"), sum(diag(covariance %*% h)), tolerance = 1e-8)
  expect_equal(unname(vcov(fit)), covariance, tolerance = 1e-7)
  expect_equal(as.numeric(logLik(fit)), sum(log(p[cbind(seq_len(n), as.integer(classes))])), tolerance = 1e-10)
  counts <- rpois(n, exp(offsets[, 1] / 2))
  fit <- rff_glm(x, counts, map, family = "poisson", lambda = 2, offset = offsets[, 1] / 2)
  mu <- predict(fit, x, offset = offsets[, 1] / 2, type = "response")
  h <- crossprod(z * mu, z)
  covariance <- solve(h + 2 * penalty)
  expect_equal(unname(vcov(fit)), covariance, tolerance = 1e-8)
  expect_equal(attr(logLik(fit), "df"), sum(diag(covariance %*% h)), tolerance = 1e-8)
})

test_that("every family's null deviance with an offset is its intercept-only loss at the minimum", {
  # The minimum found here by R's general-purpose minimisers on the family's
  # own rows (its losses, as the core's table defines them) is independent of
  # the fit's Newton steps; optimize() and optim() stop within 1e-10 of the
  # minimiser, which moves the loss by about its curvature times 1e-20.
  set.seed(5)
  n <- 120
  x <- matrix(rnorm(n * 2), n, 2)
  map <- rff_map(gaussian_kernel(1), 2, 8, seed = 5)
  responses <- list(two_classes = rbinom(n, 1, 0.4), counts = rpois(n, 3),
                    classes = factor(sample(c("a", "b", "c"), n, replace = TRUE)), values = rnorm(n, 2),
                    survival = survival_times(rnorm(n, sd = 0.5)))
  # a one-vs-rest family on three classes: a predictor per class
  responses$one_vs_rest <- responses$classes
  responses$real <- responses$values
  for (traits in askrff:::model_families()) {
    y <- responses[[traits$response]]
    expect_false(is.null(y), info = sprintf("the test has no responses of the kind \"%s\"", traits$response))
    # a family of values at its default level, 0.5; a loss with kinks exactly
    tau <- if (traits$response == "values") 0.5 else numeric()
    # and a family of real numbers at its default tube, 0.1
    epsilon <- if (traits$response == "real") 0.1 else 0
    k <- askrff:::family_predictors(traits, if (is.factor(y)) levels(y) else character(), tau)
    offset <- matrix(rnorm(n * k, sd = 1.5), n, k)
    if (traits$response == "survival") {
      # the partial likelihood has no intercept: its null model is b = 0,
      # at eta = the offset (helper-survival.R)
      fit <- rff_glm(x, y, map, family = traits$name, lambda = 1, offset = drop(offset))
      expect_equal(fit$null_deviance, partial_deviance(drop(offset), y[, 1L], y[, 2L], rep(1, n), fit$ties),
                   tolerance = 1e-10, info = traits$name)
      next
    }
    encoded <- if (k > 1L) outer(as.integer(y), seq_len(k), "==") + 0 else matrix(as.double(y))
    loss <- function(b) {
      eta <- offset + matrix(b, n, k, byrow = TRUE)
      2 * sum(askrff:::.cpp_model_family_rows(traits$name, eta, encoded, tau, epsilon, 0)$half)
    }
    minimum <- if (k == 1L) {
      stats::optimize(loss, c(-20, 20), tol = 1e-10)$objective
    } else if (traits$response == "classes") {
      # the softmax ignores a common shift: the first class's intercept is 0
      stats::optim(rep(0, k - 1L), function(b) loss(c(0, b)), method = "BFGS", control = list(reltol = 1e-15))$value
    } else {
      stats::optim(rep(0, k), loss, method = "BFGS", control = list(reltol = 1e-15))$value
    }
    fit <- rff_glm(x, y, map, family = traits$name, lambda = 1, offset = if (k > 1L) offset else drop(offset))
    expect_equal(fit$null_deviance, minimum, tolerance = 1e-8, info = traits$name)
  }
})

test_that("chunks and future workers carry the offset of their rows, and give the in-memory fit", {
  skip_on_cran()
  d <- rate_data(n = 240, seed = 10)
  x <- as.matrix(d[, c("a", "b")])
  map <- rff_map(gaussian_kernel(1), 2, 16, seed = 10)
  whole <- rff_glm(x, d$y, map, family = "poisson", offset = log(d$exposure), nfolds = 3, seed = 1)
  pieces <- split(seq_len(240), rep(1:3, c(50, 110, 80)))
  chunks <- lapply(pieces, function(i) list(x = x[i, ], y = d$y[i], offset = log(d$exposure[i])))
  chunked <- rff_glm(chunks, map = map, family = "poisson", nfolds = 3, seed = 1)
  # chunks change the order of the sums only: the folds (fixed by row index)
  # and the choice are the same, the coefficients agree to the folds' fits'
  # tolerance (as in test-glm.R), the null deviance to rounding
  expect_equal(chunked$lambda, whole$lambda, tolerance = 1e-12)
  expect_equal(chunked$null_deviance, whole$null_deviance, tolerance = 1e-12)
  expect_equal(coef(chunked), coef(whole), tolerance = 1e-6)
  expect_true(chunked$offset)
  expect_equal(predict(chunked, x[1:3, ], offset = log(d$exposure[1:3])), predict(whole, x[1:3, ], offset = log(d$exposure[1:3])),
               tolerance = 1e-6)
  skip_if_not_installed("future")
  skip_if(nzchar(Sys.getenv("ASKRFF_SANITIZE")), "no worker processes under the sanitizers")
  old_plan <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old_plan), add = TRUE)
  expect_identical(coef(rff_glm(chunks, map = map, family = "poisson", nfolds = 3, seed = 1)), coef(chunked))
})

test_that("the cross-validated deviance with an offset is that of glmnet's fits on each fold's rows and their offsets", {
  skip_if_not_installed("glmnet")
  set.seed(6)
  n <- 200
  x <- matrix(rnorm(n * 3), n, 3)
  o <- rnorm(n, sd = 1.5)
  y <- rbinom(n, 1, stats::plogis(o + sin(2 * x[, 1]) + x[, 2]))
  map <- rff_map(gaussian_kernel(1), 3, 16, seed = 2)
  z <- rff_features(map, x)
  lambdas <- c(30, 3, 0.3)
  fit <- rff_glm(x, y, map, family = "binomial", lambda = lambdas, nfolds = 4, seed = 7, offset = o)
  folds <- askrff:::.cpp_cv_folds(0, n, 4L, askrff:::resolve_seed(7))
  cv <- vapply(sort(lambdas, decreasing = TRUE), function(lambda) {
    sum(vapply(1:4, function(f) {
      train <- folds != f
      g <- tight_glmnet(z[train, ], y[train], family = "binomial", lambda = lambda / sum(train), offset = o[train])
      p <- as.vector(stats::predict(g, z[!train, ], newoffset = o[!train], type = "response"))
      -2 * sum(y[!train] * log(p) + (1 - y[!train]) * log(1 - p))
    }, 0)) / n
  }, 0)
  # the folds' fits stop at a relative decrease of 1e-8 in their criterion,
  # which moves the held-out deviance by far less than 1e-5 (as test-glm.R)
  expect_equal(fit$path$cv, cv, tolerance = 1e-5)
})

test_that("augment() takes the offset as predict() does: from the rows for a formula fit, as `offset` otherwise", {
  skip_if_not_installed("generics")
  skip_if_not_installed("tibble")
  d <- rate_data(n = 60, seed = 12)
  map <- rff_map(gaussian_kernel(1), 2, 8, seed = 12)
  fit <- rff_glm(y ~ a + b + offset(log(exposure)), d, family = "poisson", map = map, lambda = 1)
  expect_equal(generics::augment(fit, data = d)$.fitted, unname(predict(fit)))
  new <- transform(d[1:5, ], exposure = 3 * exposure)
  expect_equal(generics::augment(fit, newdata = new, type.predict = "response")$.fitted,
               unname(predict(fit, new, type = "response")))
  x <- as.matrix(d[, c("a", "b")])
  ridge <- rff_ridge(x, log1p(d$y), map, lambda = 1, offset = log(d$exposure))
  # the rows fitted keep their fitted values; with `offset` they are predicted
  expect_equal(generics::augment(ridge, data = x)$.fitted, unname(fitted(ridge)))
  expect_equal(generics::augment(ridge, data = x, offset = log(d$exposure))$.fitted, unname(fitted(ridge)),
               tolerance = 1e-12)
  expect_equal(generics::augment(ridge, newdata = x[1:4, ], offset = rep(1, 4), interval = "confidence")$.upper,
               unname(predict(ridge, x[1:4, ], offset = rep(1, 4), interval = "confidence")[, "upr"]))
  expect_error(generics::augment(ridge, newdata = x[1:4, ]), "`offset` must be given", class = "askrff_invalid_argument")
})

test_that("a GLM's scale search with an offset compares the evidence of a stand-in that leaves the offset out", {
  skip_on_cran()
  d <- rate_data(n = 80, seed = 13)
  x <- as.matrix(d[, c("a", "b")])
  o <- log(d$exposure)
  search <- function(fit) fit$selection[c("scales", "lambda", "value", "chosen")]
  same_search <- function(fit, ridge, label) {
    expect_identical(fit$selection$surrogate, "ridge", label = label)
    expect_equal(search(fit), search(ridge), tolerance = 1e-9, label = label)
  }
  grid <- list(kernel = gaussian_kernel(1), n_features = 8, scale = c(0.25, 1, 4), seed = 1)
  glm_of <- function(y, family, ...) do.call(rff_glm, c(list(x, y, family = family, offset = o, nfolds = 3), grid, list(...)))
  ridge_of <- function(y, ...) do.call(rff_ridge, c(list(x, y, criterion = "evidence"), grid, list(...)))
  # counts: the rate's root sqrt((y + 3/8) / mu), mu = exp(o + b0), weighted
  # by mu; b0 = log(sum y / sum exposure), Poisson's null model in closed form
  mu <- d$exposure * sum(d$y) / sum(d$exposure)
  poisson <- glm_of(d$y, "poisson")
  same_search(poisson, ridge_of(sqrt((d$y + 3 / 8) / mu), weights = mu), "poisson")
  # the formula's offset() is the same offset
  formula <- rff_glm(y ~ a + b + offset(log(exposure)), d, family = "poisson", nfolds = 3, kernel = grid$kernel,
                     n_features = 8, scale = grid$scale, seed = 1)
  expect_equal(search(formula), search(poisson), tolerance = 1e-12)
  # the exposure changes the choice: without it the stand-in is the counts' root
  expect_false(isTRUE(all.equal(search(poisson), search(ridge_of(sqrt(d$y + 3 / 8))))))
  # two classes: the working response of glm()'s intercept-only model with
  # the offset, weighted by p (1 - p)
  event <- as.integer(d$y > stats::median(d$y))
  null <- glm_null(event ~ 1 + offset(o), stats::binomial(), data.frame(event = event, o = o))
  p <- stats::fitted(null)
  b0 <- stats::coef(null)[[1L]]
  same_search(glm_of(event, "binomial"), ridge_of(b0 + (event - p) / (p * (1 - p)), weights = p * (1 - p)), "binomial")
  # a support vector machine's margins and numbers less the offset, as ridge
  # regression's own offset takes them
  same_search(glm_of(event, "squared_hinge"), ridge_of(2 * event - 1, offset = o), "squared_hinge")
  same_search(glm_of(log1p(d$y), "quantile", tau = 0.5), ridge_of(log1p(d$y), offset = o), "quantile")
  # the softmax has no stand-in per class: the cross-validated deviance
  classes <- factor(cut(d$a, 3, labels = c("low", "mid", "high")))
  offsets <- cbind(o, 0, -o)
  softmax <- rff_glm(x, classes, family = "multinomial", offset = offsets, nfolds = 3, kernel = grid$kernel,
                     n_features = 8, scale = grid$scale, seed = 1)
  expect_identical(softmax$selection$criterion, "cv")
  expect_null(softmax$selection$surrogate)
  expect_error(rff_glm(x, classes, family = "multinomial", offset = offsets, kernel = grid$kernel, n_features = 8,
                       scale = grid$scale, scale_by = "evidence", seed = 1),
               "`scale_by = \"evidence\"`.*multinomial family's classes with an offset", class = "askrff_invalid_argument")
  # without a search, scale_by changes nothing
  expect_s3_class(rff_glm(x, classes, family = "multinomial", offset = offsets, kernel = grid$kernel, n_features = 8,
                          lambda = 1, scale_by = "evidence", seed = 1), "askrff_glm")
})

test_that("the stand-in's rows whose null mean underflows count for nothing, with finite responses", {
  skip_on_cran()
  d <- rate_data(n = 80, seed = 14)
  o <- log(d$exposure)
  # two rows 800 units of eta below the others: their means underflow
  o[1:2] <- o[1:2] - 800
  d$y[1:2] <- 1
  fit <- rff_glm(as.matrix(d[, c("a", "b")]), d$y, family = "poisson", offset = o, nfolds = 3, n_features = 8, seed = 1)
  expect_identical(fit$selection$surrogate, "ridge")
  expect_true(all(is.finite(fit$selection$value)))
  expect_true(all(is.finite(predict(fit, as.matrix(d[, c("a", "b")]), offset = o))))
})

test_that("a missing offset is handled by na.action, and a row whose offset is NA predicts NA", {
  d <- rate_data(n = 100, seed = 3)
  d$exposure[c(4, 9)] <- NA
  kept <- d[-c(4, 9), ]
  map <- rff_map(gaussian_kernel(1), 2, 8, seed = 3)
  omitted <- rff_glm(y ~ a + b + offset(log(exposure)), d, family = "poisson", map = map, lambda = 1)
  reference <- rff_glm(y ~ a + b + offset(log(exposure)), kept, family = "poisson", map = map, lambda = 1)
  expect_identical(coef(omitted), coef(reference))
  excluded <- rff_ridge(log1p(y) ~ a + b, d, map = map, offset = log(exposure), na.action = stats::na.exclude, lambda = 1)
  expect_identical(unname(which(is.na(fitted(excluded)))), c(4L, 9L))
  expect_identical(unname(which(is.na(residuals(excluded)))), c(4L, 9L))
  expect_error(rff_glm(y ~ a + b + offset(log(exposure)), d, family = "poisson", map = map, lambda = 1,
                       na.action = stats::na.fail), "missing values", class = "askrff_data_error")
  # predictions: NA where the new row's offset is
  expect_identical(unname(which(is.na(predict(omitted, d[1:10, ])))), c(4L, 9L))
  expect_identical(unname(which(is.na(predict(excluded, d[1:10, ], interval = "confidence")[, "fit"]))), c(4L, 9L))
  x <- as.matrix(kept[, c("a", "b")])
  default <- rff_glm(x, kept$y, map, family = "poisson", lambda = 1, offset = log(kept$exposure))
  expect_identical(unname(which(is.na(predict(default, x[1:3, ], offset = c(0, NA, 1))))), 2L)
})

test_that("bad offsets are refused, naming `offset` and the rule", {
  set.seed(7)
  x <- matrix(rnorm(40), 20, 2)
  y <- rnorm(20)
  counts <- rpois(20, 2)
  classes <- factor(rep(c("a", "b", "c"), length.out = 20))
  map <- rff_map(gaussian_kernel(1), 2, 8, seed = 1)
  for (bad in list(rep(0, 19), c(rep(0, 19), Inf), c(rep(0, 19), NaN), c(rep(0, 19), NA), rep("a", 20),
                   factor(rep("a", 20)), matrix(0, 20, 2), c(rep(0, 19), 1e101))) {
    expect_error(rff_ridge(x, y, map, lambda = 1, offset = bad), "`offset` must", class = "askrff_data_error")
    expect_error(rff_glm(x, counts, map, family = "poisson", lambda = 1, offset = bad), "`offset` must",
                 class = "askrff_data_error")
  }
  expect_error(rff_ridge(x, y, map, lambda = 1, offset = c(rep(0, 19), Inf)), "finite numbers of at most 1e100")
  expect_error(rff_ridge(x, y, map, lambda = 1, offset = 1), "one number per row \\(20\\)")
  # several classes: a vector would cancel, and a matrix needs a column per class
  expect_error(rff_glm(x, classes, map, family = "multinomial", lambda = 1, offset = rep(1, 20)),
               "`offset` must be a matrix of one column per class \\(3\\).*cancel in the softmax",
               class = "askrff_data_error")
  expect_error(rff_glm(x, classes, map, family = "multinomial", lambda = 1, offset = matrix(0, 20, 2)),
               "`offset` must be NULL or a numeric matrix of 20 rows and 3 columns", class = "askrff_data_error")
  frame <- data.frame(y = classes, u = x[, 1], v = x[, 2], e = 1:20, s = letters[1:20])
  expect_error(rff_glm(y ~ u + v + offset(log(e)), frame, family = "multinomial", map = map, lambda = 1),
               "takes no offset from a formula.*cancel in the softmax", class = "askrff_invalid_argument")
  # the formula's offset: a character term, a bad argument, a non-finite value
  frame$y <- y
  expect_error(rff_ridge(y ~ u + v + offset(s), frame, map = map, lambda = 1), "offset.*could not be summed",
               class = "askrff_data_error")
  expect_error(rff_ridge(y ~ u + v, frame, map = map, lambda = 1, offset = rep(1, 3)), "`offset`",
               class = "askrff_data_error")
  expect_error(rff_ridge(y ~ u + v + offset(log(e - 1)), frame, map = map, lambda = 1),
               "The offset of `formula` \\(its offset\\(\\) terms and `offset`\\) must hold finite numbers",
               class = "askrff_data_error")
  # chunks: every chunk carries an offset, or none
  chunk <- function(i, offset = TRUE) c(list(x = x[i, ], y = y[i]), if (offset) list(offset = rep(0, length(i))))
  expect_error(rff_ridge(list(chunk(1:10), chunk(11:20, FALSE)), map = map, lambda = 1),
               "`offset` of chunk 2 of `x` is missing, but the first chunk carries one", class = "askrff_data_error")
  count_chunks <- list(list(x = x[1:10, ], y = counts[1:10]), list(x = x[11:20, ], y = counts[11:20], offset = rep(0, 10)))
  expect_error(rff_glm(count_chunks, map = map, family = "poisson", lambda = 1),
               "`offset` of chunk 2 of `x` is given, but the first chunk carries none", class = "askrff_data_error")
  expect_error(rff_ridge(list(chunk(1:10), list(x = x[11:20, ], y = y[11:20], offset = rep(NA_real_, 10))), map = map,
                         lambda = 1), "`offset` of chunk 2 of `x` must hold finite numbers", class = "askrff_data_error")
  expect_error(rff_ridge(list(chunk(1:10), chunk(11:20)), map = map, lambda = 1, offset = rep(0, 20)),
               "`offset` must be NULL when `x` is a chunk source; each chunk carries its own `offset`",
               class = "askrff_invalid_argument")
  # predictions: a fit of the default method whose rows carried an offset needs one for new rows
  fit <- rff_glm(x, counts, map, family = "poisson", lambda = 1, offset = rep(0.5, 20))
  expect_error(predict(fit, x[1:3, ]), "rows carried an offset, so `offset` must be given with `newdata`",
               class = "askrff_invalid_argument")
  expect_error(predict(fit, x[1:3, ], offset = rep(0, 2)), "`offset` must be NULL or one number per row \\(3\\)",
               class = "askrff_data_error")
  expect_error(predict(fit, offset = rep(0, 20)), "`offset` goes with `newdata`", class = "askrff_invalid_argument")
  ridge <- rff_ridge(x, y, map, lambda = 1, offset = rep(0.5, 20))
  expect_error(predict(ridge, x[1:3, ], interval = "confidence"), "`offset` must be given", class = "askrff_invalid_argument")
  formula_fit <- rff_ridge(y ~ u + v + offset(log(e)), frame, map = map, lambda = 1)
  expect_error(predict(formula_fit, frame[1:3, ], offset = rep(0, 3)), "a formula fit takes its offset from `newdata`",
               class = "askrff_invalid_argument")
  expect_error(predict(formula_fit, frame[1:3, c("u", "v")]), "`newdata` does not fit the model's formula.*'e'",
               class = "askrff_invalid_argument")
  # offsets the intercept-only model cannot fit: means that overflow at the
  # offset's mean, and offsets so large that the intercept's digits are lost
  # in their sum
  expect_error(rff_glm(x, counts, map, family = "poisson", lambda = 1, offset = rep(c(0, 2000), 10)),
               "intercept-only model with this offset has no finite fit.*on the scale of the linear predictor",
               class = "askrff_data_error")
  expect_error(rff_glm(x, counts, map, family = "poisson", lambda = 1, offset = rep(1e100, 20)),
               "cannot be fitted in double precision.*Subtract a constant from `offset`", class = "askrff_data_error")
})

test_that("edited offsets in a saved fit are refused, naming the field", {
  d <- rate_data(n = 40, seed = 8)
  fit <- rff_glm(y ~ a + b, d, family = "poisson", kernel = gaussian_kernel(1), n_features = 4, lambda = 1,
                 offset = log(exposure), seed = 1)
  expect_true(fit$offset)
  edited <- fit
  edited$offset <- "yes"
  expect_error(predict(edited, d), "`object\\$offset` must be TRUE or FALSE", class = "askrff_invalid_object")
  edited <- fit
  edited$design$offset <- list(1)
  expect_error(predict(edited, d), "`object\\$design\\$offset` must be NULL or the `offset` argument's expression",
               class = "askrff_invalid_object")
  # a fit saved before offsets were kept has none
  edited <- fit
  edited$offset <- NULL
  edited$design$offset <- NULL
  expect_equal(predict(edited, d[1:3, ]), predict(fit, d[1:3, ]) - log(d$exposure[1:3]), tolerance = 1e-12)
})
