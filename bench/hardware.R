# askrff's dense product kernels against the machine's peak, measured in one
# run (issue: speed claims against optimized peers):
#   (a) the single-core dgemm peak: numpy's 2048 x 2048 x 2048 product on
#       OpenBLAS, one thread;
#   (b) on every instruction-set path of askrff_cpu(), one thread, in
#       GFlop/s and as a share of (a):
#       rff_kernel_matrix(map, x), 5,000 x 16 rows, 1,024 frequencies (2,048
#         columns): n^2 D flops for the one triangle it computes (2 n n D / 2);
#       the ridge cross-products Z'Z and Z'y of rff_ridge(), 20,000 x 16 rows,
#         2,048 columns: n D^2 flops for the lower triangle;
#       the exact Gaussian Gram kernel_matrix(gaussian_kernel(s), x), 5,000 x
#         64: 2 n^2 d flops for its distances (the exponentials not counted);
#       the features times a matrix, Z(x) B, as predictions and Nystrom
#         features compute it: 2,048 rows, 2,048 columns, B of 2,048 x
#         2,048, 2 * 2048^3 flops (the 2048 x 16 features not counted);
#   (c) R's tcrossprod(rff_features(map, x)) on OpenBLAS (preloaded in a child
#       R, one thread) against rff_kernel_matrix(map, x), one thread.
# Times are the minimum and median of `reps` runs. Usage: Rscript
# bench/hardware.R [reps] (after `make install`); needs Debian's
# libopenblas0-pthread and python3-numpy. Results are in bench/RESULTS.md.
library(askrff)
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))
source(file.path(here, "common.R"))

args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1L) as.integer(args[[1L]]) else 5L
python <- require_peers()
cat(machine_line(), "\n")
cat(sprintf("uptime: %s\n\n", trimws(system("uptime", intern = TRUE))))

# (a) the peak: GFlop/s of the fastest and the median run
peak_n <- 2048
numpy <- run_python(python, c(
  sprintf("n = %d", peak_n),
  "rng = np.random.default_rng(1); a = rng.standard_normal((n, n)); b = rng.standard_normal((n, n))",
  "a @ b",
  sprintf("timed('dgemm', lambda: a @ b, %d)", reps)), threads = 1L)
gflops <- function(flops, seconds) flops / seconds / 1e9
peak <- gflops(2 * peak_n^3, numpy$dgemm)
cat(sprintf("(a) dgemm %d^3, numpy's a @ b on %s, 1 thread: %.1f GFlop/s (fastest) / %.1f (median) of %d runs\n\n",
            peak_n, blas_label(numpy$blas), max(peak), stats::median(peak), reps))

# (b) askrff's kernels on each path
set.seed(1)
n_km <- 5000L; n_xp <- 20000L; n_gram <- 5000L; d <- 16L; d_gram <- 64L; frequencies <- 1024L
columns <- 2 * frequencies
x <- matrix(stats::rnorm(n_xp * d), n_xp, d)
y <- stats::rnorm(n_xp)
x_km <- x[seq_len(n_km), ]
x_gram <- matrix(stats::rnorm(n_gram * d_gram), n_gram, d_gram)
map <- rff_map(gaussian_kernel(sqrt(d)), d, frequencies, seed = 1)
kernel <- gaussian_kernel(sqrt(d_gram))

# The ridge cross-products alone: the internal step rff_ridge() takes for each
# chunk of rows (features of a block, then Z'Z's lower triangle and Z'y),
# without its eigendecomposition.
model <- askrff:::ridge_map(map, NULL)
shifts <- list(z = rff_features(map, x[1L, , drop = FALSE])[1L, ], y = y[[1L]])
cross_products <- askrff:::ridge_chunk_work(model, shifts, 1L)
chunk <- list(x = x, y = matrix(y), w = rep(1, n_xp))
# Z(x) B by the internal call predict() and rff_ridge()'s fitted values use
n_zb <- 2048L
x_zb <- askrff:::core_input(map, x[seq_len(n_zb), ], "left", 1L)
b_t <- matrix(stats::rnorm(n_zb * columns), n_zb, columns)

kernels <- list(
  rff_kernel_matrix = list(run = function() rff_kernel_matrix(map, x_km, n_threads = 1L),
                           flops = as.double(n_km)^2 * columns),
  ridge_cross_products = list(run = function() cross_products(chunk), flops = n_xp * as.double(columns)^2),
  kernel_matrix = list(run = function() kernel_matrix(kernel, x_gram, n_threads = 1L),
                       flops = 2 * as.double(n_gram)^2 * d_gram),
  features_times_matrix = list(run = function() askrff:::.cpp_feature_products(x_zb$map, "", x_zb$x, b_t, 1L),
                               flops = 2 * as.double(n_zb) * columns * n_zb))

before <- askrff_cpu()
results <- list()
for (path in before$paths) {
  askrff_cpu(path)
  for (name in names(kernels)) {
    seconds <- seconds_of(kernels[[name]]$run, reps)
    rate <- gflops(kernels[[name]]$flops, seconds)
    results[[length(results) + 1L]] <- sprintf("    %-8s %-21s %s   %5.1f / %5.1f   %3.0f %% / %3.0f %%", path, name,
                                               min_median(seconds), max(rate), stats::median(rate),
                                               100 * max(rate) / max(peak),
                                               100 * stats::median(rate) / stats::median(peak))
    if (name == "rff_kernel_matrix" && path == before$detected) kernel_matrix_seconds <- seconds
  }
}
askrff_cpu(before$path)
cat(sprintf("(b) askrff, 1 thread: rff_kernel_matrix %d x %d, %d columns; ridge cross-products %d x %d, %d columns;\n",
            n_km, d, columns, n_xp, d, columns))
cat(sprintf("    kernel_matrix %d x %d; Z(x) B, %d x %d times %d x %d.\n", n_gram, d_gram, n_zb, columns, columns, n_zb))
cat("    Share: GFlop/s over (a)'s, fastest over fastest and median over median\n")
cat("    path     kernel                 seconds min / median   GFlop/s best / median   share of (a)\n")
cat(unlist(results), sep = "\n")

# (c) R's product of the features on OpenBLAS, one thread, in a child R
child <- run_r_openblas(c(
  "library(askrff)",
  sprintf("set.seed(1); x <- matrix(stats::rnorm(%d * %d), %d, %d)", n_xp, d, n_xp, d),
  sprintf("x <- x[seq_len(%d), ]", n_km),
  sprintf("map <- rff_map(gaussian_kernel(sqrt(%d)), %d, %d, seed = 1)", d, d, frequencies),
  "check <- max(abs(tcrossprod(rff_features(map, x, n_threads = 1)) - rff_kernel_matrix(map, x, n_threads = 1)))",
  "cat('check', check, '\\n')",
  sprintf("timed('tcrossprod', function() tcrossprod(rff_features(map, x, n_threads = 1)), %d)", reps)), threads = 1L)
cat(sprintf("\n(c) K = Z Z' of %d x %d rows, %d columns, 1 thread (max |difference| %.1e)\n", n_km, d, columns,
            child$check))
cat(sprintf("    rff_kernel_matrix (%s path): %s s (min / median)\n", before$detected, min_median(kernel_matrix_seconds)))
cat(sprintf("    R tcrossprod(rff_features()) on %s: %s s; R's time over askrff's %s (min / median)\n",
            blas_label(child$blas), min_median(child$tcrossprod), speed_ratio(child$tcrossprod, kernel_matrix_seconds)))
cat(sprintf("\nload average at the end: %s\n", load_average()))
