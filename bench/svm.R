# Benchmark of the support vector machines of rff_glm(family =
# "squared_hinge") (rff_svm_train(), parsnip's svm_rbf() engine), in two
# parts, each run alone by naming it:
#   peers  against kernlab::ksvm (C-svc, the hinge, the exact Gaussian
#          kernel) at n = 20,000 training rows of real data: mlbench's
#          Shuttle (space shuttle radiator states, 9 sensors; "Rad.Flow",
#          78 % of rows, against the rest) and LetterRecognition (16
#          features of 20,000 letters; A-M against N-Z), the rest of Shuttle
#          and a held-out fifth of the letters as test rows; both with
#          kernlab's sigest() median sigma and C = 10 on standardized
#          predictors, askrff with 1,024 frequencies (2,048 columns) at the
#          same cost and rbf_sigma, and with its defaults (both chosen from
#          the data); and ggplot2's diamonds (Ideal cut against the others
#          from the 7 measurements, color and clarity as their ranks; 20,000
#          rows, the other 33,940 tested), a noisy boundary with many
#          support vectors; test accuracy and seconds, ratios in one run;
#   scale  1,000,000 simulated rows of 20 columns with 1,024 frequencies
#          (2,048 columns), lambda by the engine's 5-fold path (on its
#          sample of 100,000 rows, options(askrff.path_rows)), two threads:
#          seconds, passes and peak memory (the R process's resident set
#          high-water mark, VmHWM).
# Usage: Rscript bench/svm.R peers|scale [shuttle|letters|diamonds] (after `make
# install`; kernlab and mlbench for the peers; the peers' data sets named, by
# default both). Results are recorded in bench/RESULTS.md.
library(askrff)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "common.R"))

part <- match.arg(commandArgs(TRUE)[1L], c("peers", "scale"))
cat(machine_line(), "\n\n", sep = "")

accuracy <- function(predicted, truth) mean(as.character(predicted) == as.character(truth))

peer_data <- function(name) {
  if (name == "shuttle") {
    data(Shuttle, package = "mlbench", envir = environment())
    x <- as.matrix(Shuttle[, -10])
    y <- factor(ifelse(Shuttle$Class == "Rad.Flow", "flow", "other"))
    set.seed(1)
    train <- sample(nrow(x), 20000)
  } else if (name == "diamonds") {
    data(diamonds, package = "ggplot2", envir = environment())
    x <- cbind(as.matrix(diamonds[, c("carat", "depth", "table", "price", "x", "y", "z")]),
               color = as.integer(diamonds$color), clarity = as.integer(diamonds$clarity))
    y <- factor(ifelse(diamonds$cut == "Ideal", "ideal", "other"))
    set.seed(1)
    train <- sample(nrow(x), 20000)
  } else {
    data(LetterRecognition, package = "mlbench", envir = environment())
    x <- as.matrix(LetterRecognition[, -1])
    y <- factor(ifelse(LetterRecognition$lettr %in% LETTERS[1:13], "A-M", "N-Z"))
    set.seed(1)
    train <- sample(nrow(x), 16000)
  }
  list(x = x[train, ], y = y[train], test_x = x[-train, ], test_y = y[-train])
}

peers_part <- function() {
  cat("| data | train rows | test rows | ksvm accuracy (s) | askrff same C, sigma (s) | askrff defaults (s) | speed-up |\n")
  cat("|---|---|---|---|---|---|---|\n")
  chosen <- commandArgs(TRUE)[-1L]
  for (name in if (length(chosen) > 0L) chosen else c("shuttle", "letters", "diamonds")) {
    d <- peer_data(name)
    center <- colMeans(d$x)
    spread <- apply(d$x, 2, stats::sd)
    standardized <- scale(d$x, center, spread)
    set.seed(2)
    sigma <- unname(kernlab::sigest(standardized, scaled = FALSE)[2L])
    cost <- 10
    exact <- system.time(peer <- kernlab::ksvm(standardized, d$y, kernel = "rbfdot", kpar = list(sigma = sigma),
                                               C = cost, scaled = FALSE))[["elapsed"]]
    peer_accuracy <- accuracy(kernlab::predict(peer, scale(d$test_x, center, spread)), d$test_y)
    same <- system.time(fit <- rff_svm_train(d$x, d$y, cost = cost, rbf_sigma = sigma, n_features = 1024, seed = 1,
                                             probability = FALSE))[["elapsed"]]
    same_accuracy <- accuracy(predict(fit, d$test_x, type = "class"), d$test_y)
    chosen <- system.time(auto <- rff_svm_train(d$x, d$y, n_features = 1024, seed = 1,
                                                probability = FALSE))[["elapsed"]]
    auto_accuracy <- accuracy(predict(auto, d$test_x, type = "class"), d$test_y)
    cat(sprintf("| %s | %d | %d | %.4f (%.1f) | %.4f (%.2f) | %.4f (%.2f) | %.2fx |\n", name, nrow(d$x), nrow(d$test_x),
                peer_accuracy, exact, same_accuracy, same, auto_accuracy, chosen, exact / same))
  }
}

scale_part <- function() {
  set.seed(3)
  n <- 1e6
  d <- 20
  x <- matrix(stats::rnorm(n * d), n, d)
  y <- factor(ifelse(sin(2 * x[, 1]) + x[, 2] * x[, 3] + stats::rnorm(n, sd = 0.5) > 0, "yes", "no"))
  seconds <- system.time(fit <- rff_glm(x, y, family = "squared_hinge", kernel = gaussian_kernel(sqrt(d)),
                                        n_features = 1024, seed = 1, n_threads = 2))[["elapsed"]]
  cat(sprintf("squared hinge, n = %d, d = %d, %d columns: %.1f s, %d passes over all rows, lambda %.3g (path on %s rows), peak memory %.2f GB\n",
              n, d, nrow(fit$coefficients), seconds, fit$passes, fit$lambda,
              if (is.null(fit$path_rows)) "all" else format(fit$path_rows, big.mark = ","), peak_gb()))
}

switch(part, peers = peers_part(), scale = scale_part())
