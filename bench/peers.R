# askrff against scikit-learn on OpenBLAS (issue: speed claims against
# optimized peers), one thread and two (askrff's n_threads, OpenBLAS's
# OPENBLAS_NUM_THREADS), each ratio measured in one run:
#   features: rff_features() against RBFSampler.transform(), 20,000 x 64 and
#     100,000 x 16 rows, 2,048 columns (1,024 frequencies' cosines and sines
#     against 2,048 shifted cosines); the maps are drawn outside the timings;
#   exact Gaussian Gram: kernel_matrix(gaussian_kernel(s), x) against
#     sklearn.metrics.pairwise.rbf_kernel(x), 5,000 x 64;
#   Nystrom: nystrom_map() on 1,024 uniformly chosen landmarks and
#     rff_features() against Nystroem(n_components = 1024).fit(x).transform(x),
#     24,000 x 6 rows;
#   ridge: rff_ridge() with lambda chosen by exact leave-one-out against
#     RBFSampler + RidgeCV (its efficient leave-one-out), both on the same 61
#     penalties log-spaced from 1e-8 to 1e4, 100,000 x 16 rows, 2,048
#     columns, the features included in both times; test RMSE on 10,000 new
#     rows (noise sd 0.3, the best possible);
#   the ridge's fixed cost at 2,048 columns: rff_ridge() on 1,000 rows
#     against R's eigen(symmetric = TRUE) of a 2,048 x 2,048 matrix on
#     OpenBLAS (a child R with OpenBLAS preloaded);
#   and, for the README's claims, idiomatic R's features and Gram matrix on
#     OpenBLAS, 20,000 x 64 and 5,000 x 64.
# Times are the minimum and median of `reps` runs (`ridge_reps` for the
# 100,000-row ridge, whose runs take minutes). Usage:
#   Rscript bench/peers.R [reps=5] [ridge_reps=3] [scale=1] [threads=1,2]
# after `make install`; scale < 1 shrinks every row count for a quick check.
# Needs Debian's python3-sklearn and libopenblas0-pthread. Results are in
# bench/RESULTS.md.
library(askrff)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "common.R"))

settings <- list(reps = "5", ridge_reps = "3", scale = "1", threads = "1,2")
for (arg in commandArgs(trailingOnly = TRUE)) {
  key <- sub("=.*", "", arg)
  if (!key %in% names(settings) || !grepl("=", arg)) stop(sprintf("Unknown argument %s; give %s.", arg,
                                                                  paste0(names(settings), "=", collapse = ", ")))
  settings[[key]] <- sub("^[^=]*=", "", arg)
}
reps <- as.integer(settings$reps)
ridge_reps <- as.integer(settings$ridge_reps)
scale <- as.numeric(settings$scale)
thread_counts <- as.integer(strsplit(settings$threads, ",")[[1L]])
rows <- function(n) as.integer(max(100, round(n * scale)))

python <- require_peers()
cat(machine_line(), "\n")
cat(sprintf("uptime: %s\n", trimws(system("uptime", intern = TRUE))))
cat(sprintf("min / median of %d runs (ridge: %d)\n\n", reps, ridge_reps))

frequencies <- 1024L
columns <- 2L * frequencies
feature_cases <- list(c(n = rows(20000), d = 64), c(n = rows(1e5), d = 16))
n_gram <- rows(5000); d_gram <- 64L
n_nystrom <- rows(24000); d_nystrom <- 6L; landmarks <- 1024L
n_ridge <- rows(1e5); n_test <- rows(1e4); d_ridge <- 16L
n_fixed <- 1000L
alphas <- 10^seq(-8, 4, length.out = 61)
# Gaussian kernels exp(-||x - y||^2 / (2 s^2)), scikit-learn's gamma = 1 / (2 s^2);
# s = sqrt(d) is about the median distance of standard normal points
gamma_of <- function(s) 1 / (2 * s^2)

simulate <- function(n, d, seed) {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * d), n, d)
  list(x = x, y = sin(2 * x[, 1]) + x[, 2] * x[, 3] / 2 + cos(x[, 4]) + stats::rnorm(n, sd = 0.3))
}
train <- simulate(n_ridge, d_ridge, 1)
test <- simulate(n_test, d_ridge, 2)
data_dir <- tempfile("peers")
dir.create(data_dir)
for (name in c("x", "y")) {
  writeBin(as.vector(train[[name]]), file.path(data_dir, paste0("train_", name)))
  writeBin(as.vector(test[[name]]), file.path(data_dir, paste0("test_", name)))
}

python_lines <- function(threads) c(
  "from sklearn.kernel_approximation import RBFSampler, Nystroem",
  "from sklearn.metrics.pairwise import rbf_kernel",
  "from sklearn.linear_model import RidgeCV",
  "import sklearn",
  "print('versions', 'numpy', np.__version__, 'scikit-learn', sklearn.__version__)",
  "rng = np.random.default_rng(1)",
  unlist(lapply(feature_cases, function(case) c(
    sprintf("x = rng.standard_normal((%d, %d))", case[["n"]], case[["d"]]),
    sprintf("s = RBFSampler(gamma=%.17g, n_components=%d, random_state=1).fit(x)", gamma_of(sqrt(case[["d"]])), columns),
    sprintf("timed('features_%d', lambda: s.transform(x), %d)", case[["n"]], reps)))),
  sprintf("x = rng.standard_normal((%d, %d))", n_gram, d_gram),
  sprintf("timed('gram', lambda: rbf_kernel(x, gamma=%.17g), %d)", gamma_of(sqrt(d_gram)), reps),
  sprintf("x = rng.standard_normal((%d, %d))", n_nystrom, d_nystrom),
  sprintf("nystroem = lambda: Nystroem(gamma=%.17g, n_components=%d, random_state=1).fit(x).transform(x)",
          gamma_of(sqrt(d_nystrom)), landmarks),
  sprintf("timed('nystrom', nystroem, %d)", reps),
  sprintf("d = '%s'", data_dir),
  sprintf("x = np.fromfile(d + '/train_x').reshape((%d, %d)).T; y = np.fromfile(d + '/train_y')", d_ridge, n_ridge),
  sprintf("tx = np.fromfile(d + '/test_x').reshape((%d, %d)).T; ty = np.fromfile(d + '/test_y')", d_ridge, n_test),
  "def ridge():",
  "    global fitted",
  sprintf("    s = RBFSampler(gamma=%.17g, n_components=%d, random_state=1)", gamma_of(sqrt(d_ridge)), columns),
  sprintf("    fitted = (s, RidgeCV(alphas=np.logspace(-8, 4, 61)).fit(s.fit_transform(x), y))"),
  sprintf("timed('ridge', ridge, %d)", ridge_reps),
  "s, fit = fitted",
  "print('ridge_rmse', np.sqrt(np.mean((fit.predict(s.transform(tx)) - ty) ** 2)), fit.alpha_)")

r_lines <- function(threads) c(
  sprintf("set.seed(1); x <- matrix(stats::rnorm(%d * 64), %d, 64); w <- matrix(stats::rnorm(64 * %d) / 8, 64, %d)",
          feature_cases[[1L]][["n"]], feature_cases[[1L]][["n"]], frequencies, frequencies),
  sprintf("timed('r_features', function() { p <- x %%*%% w; cbind(cos(p), sin(p)) / sqrt(%d) }, %d)", frequencies, reps),
  sprintf("y <- x[seq_len(%d), ]", n_gram),
  "gram <- function() { sq <- rowSums(y^2); exp(-pmax(outer(sq, sq, '+') - 2 * tcrossprod(y), 0) / 128) }",
  sprintf("timed('r_gram', gram, %d)", reps),
  "set.seed(2); g <- crossprod(matrix(stats::rnorm(4096 * 2048), 4096, 2048))",
  sprintf("timed('eigen', function() eigen(g, symmetric = TRUE), %d)", reps))

askrff_times <- function(threads) {
  out <- list()
  set.seed(1)
  for (case in feature_cases) {
    x <- matrix(stats::rnorm(case[["n"]] * case[["d"]]), case[["n"]], case[["d"]])
    map <- rff_map(gaussian_kernel(sqrt(case[["d"]])), case[["d"]], frequencies, seed = 1)
    out[[sprintf("features_%d", case[["n"]])]] <- seconds_of(function() rff_features(map, x, n_threads = threads), reps)
  }
  x <- matrix(stats::rnorm(n_gram * d_gram), n_gram, d_gram)
  out$gram <- seconds_of(function() kernel_matrix(gaussian_kernel(sqrt(d_gram)), x, n_threads = threads), reps)
  x <- matrix(stats::rnorm(n_nystrom * d_nystrom), n_nystrom, d_nystrom)
  nystrom <- function() {
    map <- nystrom_map(gaussian_kernel(sqrt(d_nystrom)), nystrom_landmarks(x, landmarks, "uniform", seed = 1),
                       n_threads = threads)
    rff_features(map, x, n_threads = threads)
  }
  out$nystrom <- seconds_of(nystrom, reps)
  out$nystrom_columns <- ncol(nystrom())
  map <- rff_map(gaussian_kernel(sqrt(d_ridge)), d_ridge, frequencies, seed = 1)
  fit <- NULL
  out$ridge <- seconds_of(function() {
    fit <<- rff_ridge(train$x, train$y, map, lambda = alphas, criterion = "loo", n_threads = threads)
  }, ridge_reps)
  out$ridge_rmse <- c(sqrt(mean((predict(fit, test$x) - test$y)^2)), fit$lambda)
  few <- seq_len(n_fixed)
  out$fixed <- seconds_of(function() rff_ridge(train$x[few, ], train$y[few], map, n_threads = threads), reps)
  out$fixed_one_lambda <- seconds_of(function() rff_ridge(train$x[few, ], train$y[few], map, lambda = 1e-3,
                                                          n_threads = threads), reps)
  out
}

table <- character()
add <- function(task, threads, ours, peer_name, peer, target = "") {
  table <<- c(table, sprintf("| %s | %d | %s | %s | %s | %.2fx / %.2fx | %s |", task, threads, min_median(ours), peer_name,
                             min_median(peer), min(peer) / min(ours), stats::median(peer) / stats::median(ours), target))
}
for (threads in thread_counts) {
  ours <- askrff_times(threads)
  sk <- run_python(python, python_lines(threads), threads)
  r <- run_r_openblas(r_lines(threads), threads)
  for (case in feature_cases) {
    name <- sprintf("features_%d", case[["n"]])
    add(sprintf("rff_features %d x %d -> %d", case[["n"]], case[["d"]], columns), threads, ours[[name]],
        "RBFSampler.transform", sk[[name]], if (threads == 1L) ">= 1.5x" else "")
  }
  add(sprintf("rff_features %d x 64 -> %d", feature_cases[[1L]][["n"]], columns), threads,
      ours[[sprintf("features_%d", feature_cases[[1L]][["n"]])]], "R cbind(cos, sin)", r$r_features)
  add(sprintf("kernel_matrix Gaussian %d x %d", n_gram, d_gram), threads, ours$gram, "rbf_kernel", sk$gram,
      if (threads == 1L) ">= 2x" else "")
  add(sprintf("kernel_matrix Gaussian %d x %d", n_gram, d_gram), threads, ours$gram, "R outer + tcrossprod", r$r_gram)
  add(sprintf("Nystrom %d x %d, %d landmarks (%d columns), map + features", n_nystrom, d_nystrom, landmarks,
              ours$nystrom_columns), threads, ours$nystrom, "Nystroem fit + transform", sk$nystrom, ">= 1/1.2 = 0.83x")
  add(sprintf("rff_ridge %d x %d, %d columns, LOO over 61 lambdas", n_ridge, d_ridge, columns), threads, ours$ridge,
      "RBFSampler + RidgeCV", sk$ridge, if (threads == 1L) ">= 5x at equal RMSE" else "")
  add(sprintf("rff_ridge %d rows, %d columns (fixed cost), default lambda", n_fixed, columns), threads, ours$fixed,
      "R eigen(symmetric = TRUE), 2048", r$eigen, if (threads == 1L) ">= 1x" else "")
  add(sprintf("rff_ridge %d rows, %d columns, one lambda", n_fixed, columns), threads, ours$fixed_one_lambda,
      "R eigen(symmetric = TRUE), 2048", r$eigen)
  cat(sprintf("%d thread%s: test RMSE askrff %.4f (lambda %.3g), scikit-learn %.4f (alpha %.3g); peers on %s\n",
              threads, if (threads == 1L) "" else "s", ours$ridge_rmse[1L], ours$ridge_rmse[2L], sk$ridge_rmse[1L],
              sk$ridge_rmse[2L], basename(sk$blas)))
  if (threads == thread_counts[[1L]]) cat(sk$versions, "\n")
}
unlink(data_dir, recursive = TRUE)
cat("\nratio: the peer's time over askrff's (above 1: askrff is faster), of the minima / of the medians\n\n")
cat("| task | threads | askrff s (min / median) | peer (on OpenBLAS) | peer s (min / median) | ratio | target |",
    "|---|---|---|---|---|---|---|", table, sep = "\n")
cat(sprintf("\nload average at the end: %s\n", load_average()))
