# Small fixed data sets and the Monte Carlo yardstick shared by the tests.
#
# A test that takes a second of CPU or more starts with skip_on_cran():
# CRAN's check gives the whole suite about a minute. `make test` and
# `make sanitize` set NOT_CRAN=true and run every test.

# Uniform points in [0, 1]^d, the papers' scaling of real data.
fixture_points <- function(n, d, seed = 42) {
  set.seed(seed)
  matrix(stats::runif(n * d), n, d)
}

# z-scores of the mean of independent approximations against the exact matrix:
# each entry's mean over `replicates` maps, divided by its standard error.
# Unbiased estimators give z ~ N(0, 1) entry by entry; with a few dozen entries
# |z| stays below 4.5 except with probability below 1e-3, and the seeds are fixed.
unbiasedness_z <- function(exact, make_approximation, replicates) {
  draws <- vapply(seq_len(replicates), function(r) as.vector(make_approximation(r)), numeric(length(exact)))
  mean_hat <- rowMeans(draws)
  se <- apply(draws, 1, stats::sd) / sqrt(replicates)
  (mean_hat - as.vector(exact)) / se
}

# Each map's mean error over all pairs: pairs sharing a map are correlated,
# maps are independent, so the mean of these over many maps, divided by its
# standard error, is about N(0, 1) for an unbiased estimator.
mean_error_z <- function(K, make_approximation, replicates) {
  errors <- vapply(seq_len(replicates), function(r) mean(make_approximation(r) - K), 0)
  mean(errors) / (stats::sd(errors) / sqrt(replicates))
}

# Evaluates plotting code on a throwaway PDF device.
on_pdf_device <- function(code) {
  path <- tempfile(fileext = ".pdf")
  grDevices::pdf(path)
  on.exit({
    grDevices::dev.off()
    unlink(path)
  })
  force(code)
}

# Every string a plot draws (titles, axis labels, legends), from its display list.
plotted_text <- function(code) {
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  grDevices::dev.control("enable")
  force(code)
  calls <- grDevices::recordPlot()[[1]]
  unlist(lapply(calls, function(call) Filter(is.character, unlist(call[[2]], recursive = TRUE))), use.names = FALSE)
}

# Tests that only add statistical evidence, through C++ paths the other tests
# already run, are skipped under the sanitizers, whose build is 5-10x slower.
skip_statistics_under_sanitizers <- function() {
  skip_if(nzchar(Sys.getenv("ASKRFF_SANITIZE")), "statistics only; their C++ paths run in other tests")
}

# A function source of the chunks: each call the next chunk, NULL after the
# last, and then the first again (a pass per round).
restarting_reader <- function(chunks) {
  index <- 0L
  function() {
    index <<- index + 1L
    if (index > length(chunks)) {
      index <<- 0L
      return(NULL)
    }
    chunks[[index]]
  }
}
