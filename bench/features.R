# Benchmark of the hot path: feature matrices and exact Gram matrices, against
# baselines timed in the same run: idiomatic R on R's own BLAS, and
# scikit-learn on OpenBLAS with as many threads as askrff (bench/peers.R
# compares with scikit-learn on one and two threads). Usage: Rscript
# bench/features.R (after `make install`); results are recorded in
# bench/RESULTS.md.
library(askrff)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "common.R"))

n <- 20000; d <- 64; n_freq <- 1024; threads <- 2L; reps <- 5L
set.seed(1)
x <- matrix(stats::rnorm(n * d) / sqrt(d), n, d)
map <- rff_map(gaussian_kernel(1), d, n_freq, seed = 1)
w <- map$omega

median_time <- function(expr_fn, reps) {
  stats::median(vapply(seq_len(reps), function(i) {
    gc()
    system.time(expr_fn())[["elapsed"]]
  }, numeric(1)))
}

# Peak resident memory above the starting point while expr_fn runs (Linux).
peak_extra_bytes <- function(expr_fn) {
  status <- "/proc/self/status"
  if (!file.exists(status) || !file.exists("/proc/self/clear_refs")) return(NA_real_)
  read_kb <- function(field) {
    line <- grep(paste0("^", field, ":"), readLines(status), value = TRUE)
    1024 * as.numeric(gsub("[^0-9]", "", line))
  }
  gc()
  writeLines("5", "/proc/self/clear_refs")
  before <- read_kb("VmRSS")
  result <- expr_fn()
  peak <- read_kb("VmHWM")
  rm(result)
  peak - before
}

askrff_features <- function() rff_features(map, x, n_threads = threads)
r_features <- function() {
  projection <- x %*% w
  cbind(cos(projection), sin(projection)) / sqrt(n_freq)
}

check <- max(abs(askrff_features() - r_features()))
t_askrff <- median_time(askrff_features, reps)
t_r <- median_time(r_features, 3L)
output_bytes <- 8 * n * 2 * n_freq
memory_ratio <- peak_extra_bytes(askrff_features) / output_bytes

t_sklearn <- NA_real_
python <- find_sklearn_python()
if (!is.na(python) && file.exists(file.path(openblas_dir, "libblas.so.3"))) {
  sklearn <- run_python(python, c(
    "from sklearn.kernel_approximation import RBFSampler",
    sprintf("n, d = %d, %d", n, d),
    "x = np.random.default_rng(1).standard_normal((n, d)) / np.sqrt(d)",
    sprintf("s = RBFSampler(gamma=0.5, n_components=%d, random_state=1).fit(x)", 2 * n_freq),
    sprintf("timed('transform', lambda: s.transform(x), %d)", reps)), threads)
  t_sklearn <- stats::median(sklearn$transform)
}

m <- 5000
y <- x[seq_len(m), ]
askrff_gram <- function() kernel_matrix(gaussian_kernel(1), y, n_threads = threads)
r_gram <- function() {
  sq <- rowSums(y^2)
  exp(-pmax(outer(sq, sq, "+") - 2 * tcrossprod(y), 0) / 2)
}
gram_check <- max(abs(askrff_gram() - r_gram()))
t_gram <- median_time(askrff_gram, reps)
t_r_gram <- median_time(r_gram, 3L)

cat(sprintf("machine: %s, %d cores; R %s; BLAS %s\n", Sys.info()[["nodename"]], parallel::detectCores(),
            getRversion(), basename(extSoftVersion()[["BLAS"]])))
cat(sprintf("instruction-set path: %s; load average %s\n", askrff_cpu()$path, load_average()))
cat(sprintf("\nrff_features, n = %d, d = %d, %d frequencies (%d features), %d threads\n", n, d, n_freq, 2 * n_freq, threads))
cat(sprintf("  askrff:                      %.3f s (median of %d)\n", t_askrff, reps))
cat(sprintf("  idiomatic R cbind(cos, sin), R's BLAS: %.3f s  -> askrff is %.1fx faster\n", t_r, t_r / t_askrff))
if (!is.na(t_sklearn)) {
  cat(sprintf("  scikit-learn RBFSampler, OpenBLAS, %d threads: %.3f s  -> askrff is %.1fx faster\n", threads, t_sklearn,
              t_sklearn / t_askrff))
} else {
  cat("  scikit-learn RBFSampler:     not run (needs Debian's python3-sklearn and libopenblas0-pthread)\n")
}
cat(sprintf("  peak extra memory / output:  %.2f (output %.0f MB)\n", memory_ratio, output_bytes / 2^20))
cat(sprintf("  max |askrff - R|:            %.2e\n", check))
cat(sprintf("\nkernel_matrix, Gaussian, %d x %d, d = %d, %d threads\n", m, m, d, threads))
cat(sprintf("  askrff:                      %.3f s\n", t_gram))
cat(sprintf("  plain R (outer + tcrossprod), R's BLAS: %.3f s  -> askrff is %.1fx faster\n", t_r_gram, t_r_gram / t_gram))
cat(sprintf("  max |askrff - R|:            %.2e\n", gram_check))
