# The one-call default of rff_glm() on real classification data with
# factors and missing values: the kernel's scale chosen by the evidence of
# ridge regression on the 0/1 response (scale_by = "evidence", the default)
# or by the GLM's own cross-validated deviance (scale_by = "cv"), against
# the best test log-loss over a grid of scales and penalties in hindsight,
# and against what a user would fit instead: glm() on the same predictors
# and cv.glmnet() (ridge, alpha = 0, on the same indicator columns). One
# thread, 75 % of the rows to fit and 25 % to test (rows with a missing
# value left out, test rows with a level the fit did not see dropped).
# Usage: Rscript bench/glm-scale.R (after `make install`). Results are
# recorded in bench/RESULTS.md.

library(askrff)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "holdout.R"))

data_sets <- function() {
  credit <- stats::na.omit(as.data.frame(modeldata::credit_data))
  attrition <- as.data.frame(modeldata::attrition)
  churn <- as.data.frame(modeldata::mlc_churn)
  list(credit_data = data.frame(y = credit$Status, credit[, names(credit) != "Status"]),
       attrition = data.frame(y = attrition$Attrition, attrition[, names(attrition) != "Attrition"]),
       mlc_churn = data.frame(y = churn$churn, churn[, names(churn) != "churn"]))
}

# the mean negative log-likelihood of the event (the second level)
log_loss <- function(p, y) {
  p <- pmin(pmax(p, 1e-15), 1 - 1e-15)
  event <- y == levels(y)[2L]
  -mean(ifelse(event, log(p), log(1 - p)))
}

rows <- list()
for (name in names(data_sets())) {
  parts <- split_rows(data_sets()[[name]])
  train <- parts$train
  test <- parts$test
  fit <- by_cv <- NULL
  default_seconds <- seconds(fit <- rff_glm(y ~ ., train, seed = 1, n_threads = 1))
  cv_seconds <- seconds(by_cv <- rff_glm(y ~ ., train, seed = 1, n_threads = 1, scale_by = "cv"))
  # the grid in hindsight: factors of the median distance, penalties
  # around the default's
  tuned <- Inf
  for (factor in 2^seq(-2, 6, by = 0.5)) {
    for (lambda in fit$lambda * 10^seq(-1.5, 1.5, by = 0.5)) {
      candidate <- rff_glm(y ~ ., train, kernel = "gaussian", scale = factor, lambda = lambda, seed = 1, n_threads = 1)
      tuned <- min(tuned, log_loss(predict(candidate, test, type = "response"), test$y))
    }
  }
  linear <- NULL
  glm_seconds <- seconds(linear <- suppressWarnings(stats::glm(y ~ ., stats::binomial, train)))
  columns <- stats::model.matrix(y ~ ., rbind(train, test))[, -1L]
  ridge <- NULL
  glmnet_seconds <- seconds(ridge <- glmnet::cv.glmnet(columns[seq_len(nrow(train)), ], train$y, family = "binomial",
                                                       alpha = 0))
  net <- stats::predict(ridge, columns[-seq_len(nrow(train)), ], s = "lambda.min", type = "response")
  rows[[name]] <- data.frame(
    data = name, rows = nrow(train), columns = ncol(columns),
    default = log_loss(predict(fit, test, type = "response"), test$y), default_s = default_seconds,
    cv = log_loss(predict(by_cv, test, type = "response"), test$y), cv_s = cv_seconds, tuned = tuned,
    glm = log_loss(suppressWarnings(stats::predict(linear, test, type = "response")), test$y), glm_s = glm_seconds,
    glmnet = log_loss(drop(net), test$y), glmnet_s = glmnet_seconds)
  rows[[name]]$ratio <- rows[[name]]$default / tuned
  print(rows[[name]], digits = 4, row.names = FALSE)
}
print(do.call(rbind, rows), digits = 4, row.names = FALSE)
