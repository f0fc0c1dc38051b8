# The Cox model on random features against the exact kernel Cox model, on
# real survival data no test uses: survival::rotterdam (2,982 women with
# breast cancer; time to death, 1,272 deaths; age, menopause, tumour size,
# grade, nodes, progesterone and oestrogen receptors, hormonal therapy and
# chemotherapy) and survival::flchain (serum free light chains; 3,000 rows
# to fit and 1,000 to test of its 7,874; time to death). 75 % of the rows
# fit (flchain: 3,000), the others test; Harrell's concordance of the
# linear predictors on the test rows (survival::concordance()).
#
# The exact kernel Cox model is the same penalized partial likelihood on
# the exact Gaussian kernel: glmnet's Cox ridge fit (Breslow's ties, lambda
# by its 5-fold cross-validated partial likelihood) on the kernel matrix's
# leading eigenvectors scaled by the roots of their eigenvalues (those
# above 1e-6 of the largest, which carry the kernel to that precision), the
# test rows projected by Nystrom's formula on all the fitted rows. Both use
# the same Gaussian kernel on the standardized predictors, its sigma the
# median distance between them (median_bandwidth()); rff_glm() with 512
# frequencies (1,024 feature columns), Breslow's ties and its own 5-fold
# cross-validated lambda. Also rff_glm() at its defaults (Efron's ties, a
# scale searched by cross-validated partial likelihood on 256 frequencies)
# and the linear Cox model (coxph()) for scale. Times of 0 (flchain has a
# few) are dropped, as glmnet takes positive times only. `Rscript
# bench/cox.R scale` times instead one fit of 100,000 simulated rows with
# continuous times (a distinct time per event) on one thread, whose risk
# sums are largest. Usage: Rscript bench/cox.R
# (after installing askrff; glmnet from Suggests). Results go in
# bench/RESULTS.md.

library(askrff)
library(survival)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "holdout.R"))

datasets <- list(
  rotterdam = local({
    d <- survival::rotterdam
    x <- cbind(age = d$age, meno = d$meno, size = as.integer(d$size), grade = d$grade, nodes = log1p(d$nodes),
               pgr = log1p(d$pgr), er = log1p(d$er), hormon = d$hormon, chemo = d$chemo)
    set.seed(1)
    test <- sample(nrow(d), round(nrow(d) / 4))
    list(x = x, y = Surv(d$dtime, d$death), train = setdiff(seq_len(nrow(d)), test), test = test)
  }),
  flchain = local({
    d <- survival::flchain
    d <- d[d$futime > 0, ]  # glmnet takes positive times only
    x <- cbind(age = d$age, sex = as.integer(d$sex == "M"), year = d$sample.yr, kappa = log(d$kappa),
               lambda = log(d$lambda), mgus = d$mgus)
    set.seed(1)
    rows <- sample(nrow(d), 4000)
    list(x = x, y = Surv(d$futime, d$death), train = rows[1:3000], test = rows[3001:4000])
  }))

if ("scale" %in% commandArgs(TRUE)) {
  set.seed(1)
  n <- 100000
  x <- matrix(rnorm(n * 10), n, 10)
  event <- rexp(n, exp(sin(2 * x[, 1]) + x[, 2] - 0.5 * x[, 3]^2))
  censor <- rexp(n, 0.5)
  y <- Surv(pmin(event, censor), as.integer(event <= censor))
  elapsed <- seconds(fit <- rff_glm(x, y, family = "cox", kernel = gaussian_kernel(3), n_features = 128, seed = 1,
                                    n_threads = 1))
  cat(sprintf("%d rows, %d events at distinct times, 256 feature columns: %.1f s, %d passes, peak R memory %.0f MB\n",
              n, sum(y[, 2L]), elapsed, fit$passes, sum(gc()[, 6L])))
  quit(save = "no")
}

concordance_of <- function(y, eta) survival::concordance(y ~ eta, reverse = TRUE)$concordance[[1L]]

for (name in names(datasets)) {
  data <- datasets[[name]]
  scaled <- scale(data$x[data$train, ])
  x_train <- unclass(scaled)
  x_test <- scale(data$x[data$test, ], attr(scaled, "scaled:center"), attr(scaled, "scaled:scale"))
  y_train <- data$y[data$train]
  y_test <- data$y[data$test]
  sigma <- median_bandwidth(x_train, seed = 1)
  kernel <- gaussian_kernel(sigma)

  exact_seconds <- seconds({
    k <- kernel_matrix(kernel, x_train)
    e <- eigen(k, symmetric = TRUE)
    kept <- e$values > 1e-6 * e$values[1L]
    features <- e$vectors[, kept] %*% diag(sqrt(e$values[kept]))
    test_features <- kernel_matrix(kernel, x_test, x_train) %*% e$vectors[, kept] %*% diag(1 / sqrt(e$values[kept]))
    # (Breslow's ties, glmnet's default before 5.1, said where it takes them)
    ties <- if ("cox.ties" %in% names(formals(glmnet::glmnet))) list(cox.ties = "breslow")
    cv <- do.call(glmnet::cv.glmnet, c(list(features, y_train, family = "cox", alpha = 0, standardize = FALSE,
                                            nfolds = 5), ties))
    exact_eta <- drop(test_features %*% as.vector(coef(cv, s = "lambda.min")))
  })
  rff_seconds <- seconds({
    fit <- rff_glm(x_train, y_train, family = "cox", ties = "breslow", kernel = kernel, n_features = 512, seed = 1,
                   n_threads = 2)
    rff_eta <- predict(fit, x_test)
  })
  default_seconds <- seconds({
    default <- rff_glm(x_train, y_train, seed = 1, n_threads = 2)
    default_eta <- predict(default, x_test)
  })
  linear <- coxph(y_train ~ x_train)
  linear_eta <- drop(x_test %*% coef(linear))
  cat(sprintf("\n%s: %d rows fitted (%d events), %d tested; sigma %.3g; exact kernel: %d eigenvectors\n", name,
              length(data$train), sum(y_train[, 2L]), length(data$test), sigma, sum(kept)))
  cat(sprintf("  %-40s test concordance %.4f  %7.1f s\n", "exact kernel Cox (glmnet on eigenvectors)",
              concordance_of(y_test, exact_eta), exact_seconds))
  cat(sprintf("  %-40s test concordance %.4f  %7.1f s  (%d passes, lambda %.3g)\n", "rff_glm, same kernel, 512 freq.",
              concordance_of(y_test, rff_eta), rff_seconds, fit$passes, fit$lambda))
  cat(sprintf("  %-40s test concordance %.4f  %7.1f s  (%d passes)\n", "rff_glm defaults (scale by CV)",
              concordance_of(y_test, default_eta), default_seconds, default$passes))
  cat(sprintf("  %-40s test concordance %.4f\n", "linear coxph()", concordance_of(y_test, linear_eta)))
}
