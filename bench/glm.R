# Benchmark of rff_glm() (issue: classification with probabilities) against
# cv.glmnet(alpha = 0) on the same random features: test log-loss of each
# cross-validated fit and the time of the whole fit, one thread each
# (glmnet is single-threaded; rff_glm gets n_threads = 1). Real data, two
# small problems and two larger ones:
#   binary:  kernlab's spam (spambase: 4,601 emails, 57 counts and
#            frequencies, log1p-transformed and standardized), 3,000 rows to
#            fit, 1,601 to test;
#            mlbench's LetterRecognition (20,000 letters, 16 integer
#            features, standardized), whether the letter is a vowel, 15,000
#            rows to fit, 5,000 to test;
#   4-class: mlbench's Vehicle (846 silhouettes, 18 shape measures,
#            standardized; bus, opel, saab, van), 600 rows to fit, 246 to test;
#            mlbench's Satellite restricted to its four soil classes (red,
#            grey, damp grey, very damp grey soil: 5,025 pixels, 36 values
#            scaled to [0, 1]), 3,500 rows to fit, 1,525 to test;
#            a simulation at scale (no real 4-class data of that size ships
#            with the packages here): x ~ N(0, I_5), class probabilities the
#            softmax of 2 (2 sin(2 x1) + x2, x2 x3, cos(x1 + x4), 0), 12,000
#            rows to fit, 8,000 to test.
# Gaussian kernel at the median distance (median_bandwidth()), 256
# frequencies (512 feature columns). rff_glm chooses lambda by its default
# 5-fold CV; cv.glmnet by its default 10-fold CV, predicting at lambda.min
# (its lambda.1se, also shown, is its default for predict()). The rff_glm
# time includes computing its features (three times, in its passes), the
# glmnet time excludes it. rff_glm's times are the median of three runs,
# glmnet's of one (the machine's load varies by about 20 %).
# Usage: Rscript bench/glm.R (after `make install`; needs glmnet, kernlab and
# mlbench). Results are recorded in bench/RESULTS.md.

library(askrff)
stopifnot(requireNamespace("glmnet"), requireNamespace("kernlab"), requireNamespace("mlbench"))

log_loss <- function(p, y) {
  p <- if (is.matrix(p)) p[cbind(seq_along(y), as.integer(y))] else ifelse(as.integer(y) == 2L, p, 1 - p)
  -mean(log(pmax(p, 1e-15)))
}

median_time <- function(expr) {
  expr <- substitute(expr)
  env <- parent.frame()
  times <- numeric(3)
  for (i in 1:3) times[i] <- system.time(value <- eval(expr, env))[["elapsed"]]
  list(value = value, seconds = stats::median(times))
}

problem <- function(name) {
  set.seed(1)
  if (name == "spam") {
    data(spam, package = "kernlab", envir = environment())
    x <- scale(log1p(as.matrix(spam[, 1:57])))
    y <- spam$type
    train <- sample(nrow(x), 3000)
  } else if (name == "letters") {
    data(LetterRecognition, package = "mlbench", envir = environment())
    x <- scale(as.matrix(LetterRecognition[, -1]))
    y <- factor(LetterRecognition$lettr %in% c("A", "E", "I", "O", "U"), labels = c("consonant", "vowel"))
    train <- sample(nrow(x), 15000)
  } else if (name == "vehicle") {
    data(Vehicle, package = "mlbench", envir = environment())
    x <- scale(as.matrix(Vehicle[, 1:18]))
    y <- Vehicle$Class
    train <- sample(nrow(x), 600)
  } else if (name == "simulated") {
    x <- matrix(stats::rnorm(20000 * 5), 20000, 5)
    scores <- 2 * cbind(2 * sin(2 * x[, 1]) + x[, 2], x[, 2] * x[, 3], cos(x[, 1] + x[, 4]), 0)
    p <- exp(scores) / rowSums(exp(scores))
    y <- factor(apply(p, 1, function(q) sample(4, 1, prob = q)), labels = c("a", "b", "c", "d"))
    train <- 1:12000
  } else {
    data(Satellite, package = "mlbench", envir = environment())
    soil <- grepl("soil", Satellite$classes)
    x <- as.matrix(Satellite[soil, 1:36]) / 255
    y <- droplevels(Satellite$classes[soil])
    train <- sample(nrow(x), 3500)
  }
  list(x = x[train, ], y = y[train], x_test = x[-train, ], y_test = y[-train],
       family = if (nlevels(y) == 2L) "binomial" else "multinomial")
}

run <- function(name) {
  data <- problem(name)
  map <- rff_map(gaussian_kernel(median_bandwidth(data$x)), ncol(data$x), 256, seed = 1)
  ours <- median_time(rff_glm(data$x, data$y, map, family = data$family, seed = 1, n_threads = 1))
  fit <- ours$value
  z <- rff_features(map, data$x)
  z_test <- rff_features(map, data$x_test)
  set.seed(1)
  seconds <- system.time(cv <- glmnet::cv.glmnet(z, data$y, family = data$family, alpha = 0))[["elapsed"]]
  theirs <- list(value = cv, seconds = seconds)
  glmnet_p <- function(s) {
    p <- stats::predict(theirs$value, z_test, s = s, type = "response")
    if (data$family == "multinomial") p[, , 1] else as.vector(p)
  }
  ours_loss <- log_loss(predict(fit, data$x_test, type = "response"), data$y_test)
  min_loss <- log_loss(glmnet_p("lambda.min"), data$y_test)
  data.frame(problem = sprintf("%s (%s, n = %d, %d columns)", name, data$family, nrow(data$x), ncol(z)),
             rff_glm_log_loss = ours_loss, glmnet_log_loss_min = min_loss,
             glmnet_log_loss_1se = log_loss(glmnet_p("lambda.1se"), data$y_test),
             loss_ratio = ours_loss / min_loss, rff_glm_seconds = ours$seconds, glmnet_seconds = theirs$seconds,
             speedup = theirs$seconds / ours$seconds, rff_glm_lambda = fit$lambda,
             glmnet_lambda_min = theirs$value$lambda.min * nrow(data$x), passes = fit$passes)
}

results <- do.call(rbind, lapply(c("spam", "letters", "vehicle", "satellite", "simulated"), run))
print(results, digits = 4, row.names = FALSE)
