# Quantile regression on real data: rff_glm(family = "quantile") at three
# levels against kernlab's kqr(), the exact kernel quantile regression (a
# quadratic program on the n x n Gram matrix, one level per fit), on log
# salaries of the Stack Overflow developer survey (modeldata::stackoverflow,
# 5,594 rows, 20 predictors, two of them factors): 3,000 rows to fit, the
# others to test, the mean check (pinball) loss on the test rows. rff_glm()
# at its one-call defaults (a Gaussian kernel whose scale the evidence
# surrogate chooses, 256 frequencies, lambda by 5-fold cross-validated
# check loss, all three levels in one fit); kqr() at its defaults (its
# automatic sigma, C = 0.1) and, for the median, at the best C of a grid in
# hindsight. One thread each (kqr is single-threaded). Usage:
# Rscript bench/quantile.R (after installing askrff; kernlab and modeldata
# from Suggests). Results are recorded in bench/RESULTS.md.

library(askrff)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "holdout.R"))

survey <- as.data.frame(modeldata::stackoverflow)
survey <- data.frame(y = log(survey$Salary), survey[, names(survey) != "Salary"])
set.seed(1)
fitted_rows <- sample(nrow(survey), 3000)
train <- survey[fitted_rows, ]
test <- survey[-fitted_rows, ]
columns <- stats::model.matrix(y ~ ., survey)[, -1L]
x_train <- columns[fitted_rows, ]
x_test <- columns[-fitted_rows, ]

pinball <- function(y, q, tau) mean((y - q) * (tau - (y < q)))
levels_tau <- c(0.1, 0.5, 0.9)

fit <- NULL
ours_seconds <- seconds(fit <- rff_glm(y ~ ., train, family = "quantile", tau = levels_tau, seed = 1, n_threads = 1))
ours <- predict(fit, test)
rearranged <- predict(fit, test, type = "response")

kqr_fit <- function(tau, ...) kernlab::kqr(x_train, train$y, tau = tau, ...)
rows <- lapply(seq_along(levels_tau), function(j) {
  tau <- levels_tau[j]
  reference <- NULL
  kqr_seconds <- seconds(reference <- kqr_fit(tau))
  data.frame(tau = tau, rff_glm = pinball(test$y, ours[, j], tau), rearranged = pinball(test$y, rearranged[, j], tau),
             kqr = pinball(test$y, kernlab::predict(reference, x_test), tau), kqr_s = kqr_seconds)
})
table <- do.call(rbind, rows)
table$ratio <- table$rff_glm / table$kqr
cat(sprintf("rff_glm, three levels in one fit: %.1f s, %d passes, lambda %.3g, %d feature columns\n", ours_seconds,
            fit$passes, fit$lambda, nrow(fit$coefficients)))
cat("final fit's smoothing (width, passes):", paste(sprintf("%.2g:%d", fit$smoothing$width, fit$smoothing$passes),
                                                    collapse = " "), "\n")
print(table, digits = 4)

# the median at kqr's best cost in hindsight
grid <- sapply(c(0.3, 1, 3, 10), function(cost) {
  reference <- kqr_fit(0.5, C = cost)
  c(C = cost, pinball = pinball(test$y, kernlab::predict(reference, x_test), 0.5))
})
print(t(grid), digits = 4)
cat(sprintf("median: rff_glm / kqr at its best C in hindsight = %.4f\n", table$rff_glm[2] / min(grid["pinball", ])))
