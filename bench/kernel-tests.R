# Benchmark of the kernel tests, rff_independence_test() (HSIC) and
# rff_two_sample_test() (MMD), in three parts, each run alone by naming it:
#   scale  seconds to the p-value at n = 1e5 rows, d = 5, n_features = 250
#          (D = 500 columns per variable), two threads, gamma and
#          chi2_mixture; dHSIC::dhsic.test (gamma) and kernlab::kmmd, which
#          hold n x n Gram matrices, timed at doubling n up to about 10 s,
#          and askrff at their largest n, for ratios in one run;
#   size   under the null, the rejection rate at alpha = 0.05 and the
#          Kolmogorov-Smirnov distance of the p-values to uniform, for every
#          method (permutation with B = 200), n = 200 and 2,000, one thread;
#   power  at n = 500, 200 replicates, one thread: the rejection rate on a
#          sinusoid, a ring and a Gaussian copula with nonlinear marginals,
#          of the default n_features = 100 (gamma and chi2_mixture), of
#          n_features = 250 (gamma) and of the default with dHSIC's length
#          scale (gamma), against dhsic.test (Gaussian kernel at the median
#          heuristic, gamma null) and Pearson's test.
# Usage: Rscript bench/kernel-tests.R scale|size|power [replicates]
# (after `make install`; dHSIC and kernlab for the peers). `replicates`
# overrides the size part's 1,000 for the costly permutation runs of the
# independence test at n = 2,000. Results are recorded in bench/RESULTS.md.
library(askrff)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "common.R"))

args <- commandArgs(TRUE)
part <- match.arg(args[1L], c("scale", "size", "power"))
alpha <- 0.05
cat(machine_line(), "\n\n", sep = "")

# The median of `reps` timings of run(), with the last result.
timed <- function(run, reps = 3L) {
  result <- NULL
  seconds <- vapply(seq_len(reps), function(i) system.time(result <<- run())[["elapsed"]], numeric(1))
  list(seconds = stats::median(seconds), result = result)
}

# run(n) at doubling n from `start` while the next doubling would take at
# most `budget` seconds (the peers' cost grows as n^2) and its Gram
# matrices, bytes(n), fit in `max_bytes`; returns the timings at every n.
largest_n <- function(run, bytes, start = 1000, budget = 10, max_bytes = 6e9) {
  rows <- list()
  n <- start
  while (bytes(n) <= max_bytes) {
    gc()
    seconds <- system.time(run(n))[["elapsed"]]
    rows[[length(rows) + 1L]] <- data.frame(n = n, seconds = seconds, gram_gb = bytes(n) / 1e9)
    cat(sprintf("  n = %6d: %7.2f s, Gram matrices %.2f GB\n", n, seconds, bytes(n) / 1e9))
    if (4 * seconds > budget) break
    n <- 2 * n
  }
  do.call(rbind, rows)
}

scale_part <- function() {
  n <- 1e5; d <- 5; features <- 250; threads <- 2L
  set.seed(1)
  x <- matrix(stats::rnorm(n * d), n, d)
  y <- x %*% matrix(stats::rnorm(d * d, sd = 0.1), d) + matrix(stats::rnorm(n * d), n, d)
  y2 <- matrix(stats::rnorm(n * d, sd = 1.05), n, d)
  cat(sprintf("scale: n = %g, d = %d, n_features = %d (D = %d columns per variable), %d threads, median of 3\n",
              n, d, features, 2 * features, threads))
  ours <- list()
  for (method in c("gamma", "chi2_mixture")) {
    ours[[paste("independence", method)]] <- timed(function() {
      rff_independence_test(x, y, n_features = features, method = method, seed = 1, n_threads = threads)
    })
    ours[[paste("two-sample", method)]] <- timed(function() {
      rff_two_sample_test(x, y2, n_features = features, method = method, seed = 1, n_threads = threads)
    })
  }
  for (name in names(ours)) {
    cat(sprintf("  %-26s %6.3f s, p-value %.3g\n", name, ours[[name]]$seconds, ours[[name]]$result$p.value))
  }

  cat("\ndHSIC::dhsic.test (gamma, Gaussian kernels at the median heuristic), two n x n Gram matrices:\n")
  small <- function(n) list(x = x[seq_len(n), , drop = FALSE], y = y[seq_len(n), , drop = FALSE],
                            y2 = y2[seq_len(n), , drop = FALSE])
  dhsic <- largest_n(function(n) {
    s <- small(n)
    dHSIC::dhsic.test(s$x, s$y, method = "gamma", kernel = "gaussian")
  }, bytes = function(n) 2 * 8 * n^2)
  cat("kernlab::kmmd (Gaussian kernel, sigma by kernlab's automatic choice, asymptotic bound), a 2n x 2n Gram matrix:\n")
  kmmd <- largest_n(function(n) {
    s <- small(n)
    # kmmd's sigma estimate prints a line with cat(), not a message.
    utils::capture.output(test <- kernlab::kmmd(s$x, s$y2, kernel = "rbfdot", kpar = "automatic", asymptotic = TRUE))
    test
  }, bytes = function(n) 8 * (2 * n)^2, start = 125)

  # askrff at the largest n the peer took at most 10 s for (kmmd grows
  # faster than n^2, so the last doubling may overshoot), and the peer's
  # time there extrapolated to n = 1e5 by an n^2 cost.
  peer_row <- function(name, peer, ours_at) {
    last <- peer[max(1L, which(peer$seconds <= 10)), ]
    at_peer <- timed(function() ours_at(last$n))$seconds
    data.frame(peer = name, n = last$n, peer_seconds = last$seconds, peer_gram_gb = last$gram_gb,
               askrff_seconds = at_peer, ratio = last$seconds / at_peer,
               peer_at_1e5 = last$seconds * (n / last$n)^2, gram_gb_at_1e5 = last$gram_gb * (n / last$n)^2)
  }
  rows <- rbind(
    peer_row("dhsic.test", dhsic, function(m) {
      s <- small(m)
      rff_independence_test(s$x, s$y, n_features = features, seed = 1, n_threads = threads)
    }),
    peer_row("kmmd", kmmd, function(m) {
      s <- small(m)
      rff_two_sample_test(s$x, s$y2, n_features = features, seed = 1, n_threads = threads)
    }))
  cat("\n")
  print(rows, row.names = FALSE, digits = 3)
  cat(sprintf("\naskrff at n = 1e5 (gamma): independence %.3f s, two-sample %.3f s\n",
              ours[["independence gamma"]]$seconds, ours[["two-sample gamma"]]$seconds))
}

# Independent or equally distributed data of the size part: x in two
# columns, y in one (standard normal both).
null_pair <- function(n) list(x = matrix(stats::rnorm(2 * n), n, 2), y = stats::rnorm(n))

size_part <- function() {
  replicates <- 1000L
  permutation_replicates <- if (length(args) >= 2L) as.integer(args[2L]) else replicates
  cat(sprintf("size: alpha = %.2f, one thread, default n_features = 100 (D = 200), B = 200 permutations\n", alpha))
  tests <- list(
    independence = function(data, method, seed) {
      rff_independence_test(data$x, data$y, method = method, B = 200, seed = seed, n_threads = 1)$p.value
    },
    `two-sample` = function(data, method, seed) {
      # Two samples of n rows from one law: x's rows and as many more.
      rff_two_sample_test(data$x, matrix(stats::rnorm(length(data$x)), ncol = 2), method = method, B = 200,
                          seed = seed, n_threads = 1)$p.value
    })
  rows <- list()
  for (n in c(200L, 2000L)) for (test in names(tests)) for (method in c("gamma", "chi2_mixture", "permutation")) {
    reps <- if (method == "permutation" && test == "independence" && n == 2000L) permutation_replicates else replicates
    set.seed(n + nchar(test))
    seconds <- system.time(p <- vapply(seq_len(reps), function(r) tests[[test]](null_pair(n), method, r),
                                       numeric(1)))[["elapsed"]]
    rows[[length(rows) + 1L]] <- data.frame(
      test = test, n = n, method = method, replicates = reps, rejection = mean(p <= alpha),
      se = sqrt(alpha * (1 - alpha) / reps), ks_distance = unname(suppressWarnings(stats::ks.test(p, "punif"))$statistic),
      seconds_each = seconds / reps)
    print(rows[[length(rows)]], row.names = FALSE, digits = 3)
  }
  cat("\n")
  print(do.call(rbind, rows), row.names = FALSE, digits = 3)
}

# The power part's alternatives at n rows, in the manner of the
# dependences in Gretton et al. (2008) and Pfister et al. (2018), their
# noise chosen so that dHSIC's power at n = 500 is between 0.4 and 0.8
# (an easier one would show nothing: both tests at power 1).
alternatives <- list(
  sinusoid = function(n) {
    x <- stats::runif(n, -1, 1)
    list(x = x, y = sin(6 * x) + stats::rnorm(n, sd = 2.5))
  },
  ring = function(n) {
    # Uncorrelated: a circle of radius 1 with noise on both coordinates.
    angle <- stats::runif(n, 0, 2 * pi)
    list(x = cos(angle) + stats::rnorm(n, sd = 0.55), y = sin(angle) + stats::rnorm(n, sd = 0.55))
  },
  copula = function(n) {
    # A Gaussian copula with correlation 0.25, through a log-normal and a
    # cubic marginal.
    u <- stats::rnorm(n)
    v <- 0.25 * u + sqrt(1 - 0.25^2) * stats::rnorm(n)
    list(x = exp(u), y = v^3)
  })

# askrff's kernels by name and dHSIC's take the same median heuristic: a
# Gaussian exp(-d^2 / median(d^2)).
power_part <- function() {
  n <- 500L; replicates <- 200L
  cat(sprintf("power: n = %d, %d replicates, alpha = %.2f, one thread, n_features = 100 (D = 200) unless named\n",
              n, replicates, alpha))
  rows <- list()
  for (name in names(alternatives)) {
    set.seed(nchar(name))
    p <- t(vapply(seq_len(replicates), function(r) {
      data <- alternatives[[name]](n)
      c(gamma = rff_independence_test(data$x, data$y, seed = r, n_threads = 1)$p.value,
        chi2_mixture = rff_independence_test(data$x, data$y, method = "chi2_mixture", seed = r, n_threads = 1)$p.value,
        gamma_250 = rff_independence_test(data$x, data$y, n_features = 250, seed = r, n_threads = 1)$p.value,
        dhsic = dHSIC::dhsic.test(data$x, data$y, method = "gamma", kernel = "gaussian")$p.value,
        pearson = stats::cor.test(data$x, data$y)$p.value)
    }, numeric(5)))
    power <- colMeans(p <= alpha)
    rows[[name]] <- data.frame(alternative = name, askrff_gamma = power[["gamma"]],
                               askrff_chi2_mixture = power[["chi2_mixture"]], askrff_gamma_250 = power[["gamma_250"]],
                               dhsic_gamma = power[["dhsic"]], pearson = power[["pearson"]],
                               ratio_gamma = power[["gamma"]] / power[["dhsic"]],
                               ratio_gamma_250 = power[["gamma_250"]] / power[["dhsic"]])
    print(rows[[name]], row.names = FALSE, digits = 3)
  }
  cat("\n")
  print(do.call(rbind, rows), row.names = FALSE, digits = 3)
}

switch(part, scale = scale_part(), size = size_part(), power = power_part())
cat(sprintf("\nload average at the end: %s\n", load_average()))
