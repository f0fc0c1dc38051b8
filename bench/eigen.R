# Benchmark of the core's symmetric eigendecomposition (the ridge fit's,
# the GLM solver's and the Nystrom landmark matrix's) against R's
# eigen(symmetric = TRUE), which calls LAPACK's dsyevr through R's BLAS, on
# A = X'X / (2n) for X of 2n x n standard normal entries (Marchenko-Pastur
# eigenvalues between about 0.09 and 2.9), n = 512, 1024, 2048. Times are
# the minimum and median of `reps` runs on one thread (the core's
# decomposition uses one; run with OPENBLAS_NUM_THREADS=1 or the like when
# R's BLAS is multithreaded). Usage: Rscript bench/eigen.R (after `make
# install`); to time eigen() on another BLAS without reinstalling R, preload
# it, e.g. LD_PRELOAD=/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0
# OPENBLAS_NUM_THREADS=1 Rscript bench/eigen.R. Results are recorded in
# bench/RESULTS.md.
library(askrff)

reps <- 5L
sizes <- c(512L, 1024L, 2048L)

load_average <- function() paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " ")
seconds <- function(run) {
  times <- vapply(seq_len(reps), function(i) system.time(run())[["elapsed"]], 0)
  c(min = min(times), median = stats::median(times))
}

info <- utils::sessionInfo()
cat(sprintf("machine: %s cores; R %s; BLAS %s; LAPACK %s\n", parallel::detectCores(), getRversion(), info$BLAS,
            info$LAPACK))
if (nzchar(Sys.getenv("LD_PRELOAD"))) cat(sprintf("preloaded: %s\n", Sys.getenv("LD_PRELOAD")))
cat(sprintf("load average at the start: %s; %d runs each\n\n", load_average(), reps))
for (n in sizes) {
  set.seed(n)
  x <- matrix(stats::rnorm(2 * n * n), 2 * n)
  a <- crossprod(x) / (2 * n)
  ours <- seconds(function() askrff:::symmetric_eigen(a))
  ours_values <- seconds(function() askrff:::symmetric_eigen(a, only_values = TRUE))
  r <- seconds(function() eigen(a, symmetric = TRUE))
  r_values <- seconds(function() eigen(a, symmetric = TRUE, only.values = TRUE))
  e <- askrff:::symmetric_eigen(a)
  reference <- eigen(a, symmetric = TRUE, only.values = TRUE)$values
  cat(sprintf("n = %4d  askrff %6.3f s (median %6.3f), values only %6.3f s | eigen() %6.3f s (median %6.3f), values only %6.3f s\n",
              n, ours[["min"]], ours[["median"]], ours_values[["min"]], r[["min"]], r[["median"]], r_values[["min"]]))
  cat(sprintf("          max |value - eigen()'s| / max |value| %.1e, max |V'V - I| %.1e, ||A V - V diag(values)||_F / ||A||_F %.1e\n",
              max(abs(e$values - reference)) / max(abs(reference)), max(abs(crossprod(e$vectors) - diag(n))),
              norm(a %*% e$vectors - e$vectors %*% diag(e$values), "F") / norm(a, "F")))
}
cat(sprintf("\nload average at the end: %s\n", load_average()))
