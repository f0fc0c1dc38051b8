# The smoke test of a build with another toolchain (tools/clang-build.sh): the
# package loads, and its features, Gram matrices, the Bessel function behind
# the sphere's measures, a ridge fit and a logistic fit agree with values
# computed here in base R, on every instruction set the CPU offers.
library(askrff)

check <- function(ok, what) {
  if (!isTRUE(ok)) stop("smoke test failed: ", what, call. = FALSE)
  cat("ok:", what, "\n")
}

set.seed(1)
n <- 300
d <- 4
x <- matrix(rnorm(n * d), n, d) / 2
exact <- exp(-as.matrix(stats::dist(x))^2 / 2)
y <- sin(2 * x[, 1]) + x[, 2]^2 + rnorm(n, sd = 0.1)
label <- x[, 1] + x[, 2] + rnorm(n, sd = 0.3) > 0

for (path in askrff_cpu()$paths) {
  askrff_cpu(path)
  check(max(abs(kernel_matrix(gaussian_kernel(1), x) - exact)) < 1e-12, sprintf("[%s] Gaussian Gram matrix", path))

  # One positive part of mass 1: K_hat = mean over frequencies of cos(w'(x - y)).
  map <- rff_map(gaussian_kernel(1), d, 2048, method = "orthogonal", seed = 1)
  projections <- x %*% map$omega
  in_r <- (tcrossprod(cos(projections)) + tcrossprod(sin(projections))) / ncol(projections)
  approximate <- rff_kernel_matrix(map, x)
  check(max(abs(approximate - in_r)) < 1e-10, sprintf("[%s] approximate Gram matrix", path))
  check(max(abs(tcrossprod(rff_features(map, x), rff_features(map, x, "right")) - in_r)) < 1e-10,
        sprintf("[%s] left and right features", path))
  # Relative Frobenius error about 1 / sqrt(2048) per entry's scale; 0.1 is far above it.
  check(relative_error(exact, approximate) < 0.1, sprintf("[%s] the map approximates the kernel", path))
}
askrff_cpu("auto")

# Omega_d(z) = Gamma(d / 2) (2 / z)^nu J_nu(z), nu = d / 2 - 1, where the core
# calls Boost's Bessel function (z below nu^2 / 2 + 25).
z <- seq(0.5, 30, length.out = 60)
check(max(abs(askrff:::.cpp_omega_matrix(5L, z, 1) - gamma(2.5) * (2 / z)^1.5 * besselJ(z, 1.5))) < 1e-12,
      "Omega_5 against besselJ")

# Ridge: the fit solves Z'(y - b0 - Z b) = lambda b with residuals summing to 0.
fit <- rff_ridge(x, y, gaussian_kernel(1), n_features = 128, seed = 1)
features <- rff_features(fit$map, x)
residuals <- y - fit$intercept - features %*% fit$coefficients
check(abs(sum(residuals)) < 1e-8 && max(abs(crossprod(features, residuals) - fit$lambda * fit$coefficients)) < 1e-8,
      "ridge fit's normal equations")
check(stats::cor(stats::predict(fit, x), y) > 0.9, "ridge fit predicts")

# Logistic: the penalized deviance's gradient, -2 Z'(y - mu) + 2 lambda b, vanishes.
logistic <- rff_glm(x, label, gaussian_kernel(1), n_features = 64, seed = 1, lambda = 1)
features <- rff_features(logistic$map, x)
mu <- stats::plogis(logistic$intercept + features %*% logistic$coefficients)
check(abs(sum(label - mu)) < 1e-6 && max(abs(crossprod(features, label - mu) - logistic$coefficients)) < 1e-6,
      "logistic fit's score equations")
check(mean((stats::predict(logistic, x, type = "response") > 0.5) == label) > 0.8, "logistic fit classifies")
