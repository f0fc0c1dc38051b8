# A user's Ctrl-C must stop every long computation within a second and leave
# the session usable. The test allows five: `make test` runs two test
# processes on CI's two cores, so the child waits for a core beside a test
# process and the computation's own threads (3.9 s seen once on a slow
# machine), while a computation that never polls runs on for tens of
# seconds, so the bound still tells the two apart. Each case runs in a child R process that is sent
# SIGINT one second after its long call starts; the child records when the
# interrupt reached R and then computes something small.

interrupt_delay <- function(setup, call, timeout = 60) {
  dir <- tempfile("interrupt")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  files <- file.path(dir, c("pid", "started", "result"))
  script <- file.path(dir, "child.R")
  writeLines(c(
    "suppressMessages(library(askrff))",
    sprintf("writeLines(as.character(Sys.getpid()), %s)", deparse(files[1])),
    setup,
    sprintf("writeLines('go', %s)", deparse(files[2])),
    "stopped <- tryCatch({", call, "; NA_real_ }, interrupt = function(e) as.numeric(Sys.time()))",
    "usable <- kernel_matrix(gaussian_kernel(1), diag(2))[1, 2]",
    sprintf("writeLines(format(c(stopped, usable), digits = 17), %s)", deparse(files[3]))), script)
  system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", script), wait = FALSE, stdout = FALSE, stderr = FALSE)
  wait_for <- function(path) {
    deadline <- Sys.time() + timeout
    while (!file.exists(path) && Sys.time() < deadline) Sys.sleep(0.05)
    file.exists(path)
  }
  if (!wait_for(files[2])) stop("the child never started its long call")
  pid <- as.integer(readLines(files[1]))
  Sys.sleep(1)
  signalled <- as.numeric(Sys.time())
  tools::pskill(pid, tools::SIGINT)
  if (!wait_for(files[3])) {
    tools::pskill(pid, tools::SIGKILL)
    return(c(delay = Inf, usable = NA))
  }
  Sys.sleep(0.1)
  result <- as.numeric(readLines(files[3]))
  c(delay = result[1] - signalled, usable = result[2])
}

# Each case is setup lines and a last line, the long call.
expect_prompt_stops <- function(cases) {
  for (name in names(cases)) {
    lines <- cases[[name]]
    outcome <- interrupt_delay(utils::head(lines, -1L), utils::tail(lines, 1L))
    # NA: the call ended before the signal, so the case says nothing
    expect(isTRUE(outcome[["delay"]] < 5),
           if (is.na(outcome[["delay"]])) sprintf("%s ended before SIGINT; make the case longer", name) else
             sprintf("%s stopped %.2f s after SIGINT", name, outcome[["delay"]]))
    if (nzchar(Sys.getenv("ASKRFF_SHOW_DELAYS"))) message(sprintf("%s: %.3f s", name, outcome[["delay"]]))
    expect_equal(outcome[["usable"]], exp(-1))
  }
}

test_that("long computations stop soon after SIGINT and leave R usable", {
  skip_on_os("windows")
  skip_if(nzchar(Sys.getenv("ASKRFF_SANITIZE")), "timings mean nothing under the sanitizers")
  expect_prompt_stops(list(
    features = c("map <- rff_map(gaussian_kernel(30), 4000, 4096, seed = 1)",
                 "x <- matrix(runif(5000 * 4000), 5000)",
                 "rff_features(map, x, n_threads = 2)"),
    laplace_gram = c("x <- matrix(runif(5000 * 2000), 5000)",
                     "kernel_matrix(laplace_kernel(1), x, n_threads = 2)"),
    approx_gram = c("map <- rff_map(gaussian_kernel(10), 500, 4096, seed = 1)",
                    "x <- matrix(runif(8000 * 500), 8000)",
                    "rff_kernel_matrix(map, x, n_threads = 2)"),
    wide_gaussian_gram = c("x <- matrix(runif(3000 * 10000), 3000)",
                           "kernel_matrix(gaussian_kernel(30), x, n_threads = 2)"),
    orthogonal_map = c("NULL", "rff_map(gaussian_kernel(1), 4000, 4000, method = 'orthogonal', seed = 1)"),
    # K(x, Z) W for 2000 landmarks, hundreds of GFlop after a short K(x, Z)
    # (one product R's BLAS ran to its end), and sketches of degree 1 to 8 in
    # blocks of hundreds of columns: the core's, a block of rows at a time
    nystrom_features = c("set.seed(1)", "x <- matrix(rnorm(5e4 * 2), 5e4)",
                         "map <- nystrom_map(gaussian_kernel(0.3), x[1:2000, ], n_threads = 2)",
                         "rff_features(map, x, n_threads = 2)"),
    tensor_sketch_features = c("set.seed(1)", "x <- normalize_rows(matrix(rnorm(2e5 * 20), 2e5))",
                               "map <- tensor_sketch_map(poly_sphere_kernel(2, 8), 20, 4000, seed = 1)",
                               "rff_kernel_matrix(map, x[1:5000, ], n_threads = 2)"),
    # about 15 s: 10^8 pairs of an 8-bit expected kernel near zero
    expected_kernel_gram = c("x <- matrix(rnorm(10000 * 3) * 0.01, 10000)",
                             "k <- rpf_expected_kernel(laplace_kernel(1), rpf_quantizer(8), rpf_quantizer(8))",
                             "kernel_matrix(k, x, n_threads = 2)"),
    # about 7 s: a kinked profile against a shift tiny beside sigma sums
    # hundreds of series terms for each of 360,000 pairs' moments
    part_moments = c("x <- matrix(runif(600 * 2), 600)",
                     paste("spec <- askrff:::kernel_with_settings(shift_gaussian_kernel(1, 0.01),",
                           "list(decomposition = 'jordan'), 2L)"),
                     "askrff:::.cpp_part_moments(spec, 2L, x, x, 2L)")))
})

# Dense eigen- and singular value decompositions of order 2000 to 4000 take
# seconds, tens in the reference LAPACK without a check for interrupts; each
# call below is in one when signalled.
test_that("eigendecompositions stop soon after SIGINT: ridge, Nystrom, the spectral metric", {
  skip_on_os("windows")
  skip_if(nzchar(Sys.getenv("ASKRFF_SANITIZE")), "timings mean nothing under the sanitizers")
  expect_prompt_stops(list(
    # Z'Z of 4096 feature columns from 100 rows (its tridiagonalization alone
    # takes seconds): the rows as a chunk source, which the dual form (the
    # 100 x 100 Gram matrix of rows in memory) does not take
    ridge = c("set.seed(1)", "x <- matrix(rnorm(2000), 100)", "map <- rff_map(gaussian_kernel(2), 20, 2048, seed = 1)",
              "rff_ridge(list(list(x = x, y = x[, 1])), map = map, n_threads = 1)"),
    nystrom = c("set.seed(1)", "x <- matrix(rnorm(3000 * 5), 3000)", "nystrom_map(gaussian_kernel(3), x, n_threads = 1)"),
    # the largest singular value of the 2000 x 2000 kernel matrix, and of the errors
    spectral_metric = c("set.seed(1)", "x <- matrix(rnorm(2000 * 5), 2000)",
                        paste("approximation_study(gaussian_kernel(3), x, n_features = 16, trials = 1,",
                              "metrics = 'spectral', seed = 1, n_threads = 1)"))))
})

# The operating system takes seconds to provide the pages of a result of
# gigabytes (30,000 x 30,000 doubles are 7.2 GB) before its first block runs.
test_that("a result of gigabytes stops while its pages are provided", {
  skip_on_os("windows")
  skip_if(nzchar(Sys.getenv("ASKRFF_SANITIZE")), "timings mean nothing under the sanitizers")
  skip_if(!isTRUE(askrff:::available_memory() >= 12e9), "needs 12 GB of free memory")
  expect_prompt_stops(list(
    kernel_matrix = c("x <- matrix(runif(30000 * 8), 30000)", "kernel_matrix(gaussian_kernel(1), x, n_threads = 2)")))
})
