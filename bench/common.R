# What the benchmarks share: finding scikit-learn and OpenBLAS, running
# Python and R children on OpenBLAS with a given thread count, repeated
# timings, the machine's load and the process's peak memory. Sourced by the bench
# scripts from their own directory; installs nothing.

openblas_dir <- "/usr/lib/x86_64-linux-gnu/openblas-pthread"

# The first python3 that has scikit-learn (Debian's python3-sklearn lives in /usr/bin).
find_sklearn_python <- function() {
  has_sklearn <- function(python) {
    nzchar(python) && file.exists(python) &&
      system2(python, c("-c", shQuote("import sklearn")), stdout = FALSE, stderr = FALSE) == 0
  }
  candidates <- unique(c(Sys.getenv("ASKRFF_PYTHON"), Sys.which("python3"), "/usr/bin/python3"))
  Filter(has_sklearn, candidates[nzchar(candidates)])[1]
}

# Stops, naming the Debian packages, unless python3 with scikit-learn and
# OpenBLAS are installed; returns the python to use.
require_peers <- function() {
  python <- find_sklearn_python()
  missing <- c(if (is.na(python)) "python3-sklearn (with python3-numpy and python3-scipy)",
               if (!file.exists(file.path(openblas_dir, "libblas.so.3"))) "libopenblas0-pthread")
  if (length(missing) > 0L) {
    stop(sprintf("This benchmark needs %s: on Debian, apt-get install %s.", paste(missing, collapse = " and "),
                 paste(sub(" .*", "", missing), collapse = " ")), call. = FALSE)
  }
  python
}

# The environment of a child that runs on OpenBLAS with `threads` threads.
openblas_env <- function(threads) {
  c(paste0("LD_LIBRARY_PATH=", openblas_dir),
    paste0(c("OPENBLAS_NUM_THREADS=", "OMP_NUM_THREADS=", "MKL_NUM_THREADS="), as.integer(threads)))
}

# Output lines "name t1 t2 ..." of a child as a named list of numeric vectors;
# the lines "blas <library>" (the BLAS the child loaded: the run stops unless
# it is OpenBLAS) and "versions ..." are kept as text.
parse_child <- function(output, who) {
  fields <- strsplit(trimws(output), "[[:space:]]+")
  fields <- fields[lengths(fields) >= 2L]
  names(fields) <- vapply(fields, `[`, "", 1L)
  blas <- fields[["blas"]][2L]
  if (is.null(blas) || !grepl("openblas", blas, ignore.case = TRUE)) {
    stop(sprintf("%s ran on %s, not OpenBLAS:\n%s", who, if (is.null(blas)) "an unknown BLAS" else blas,
                 paste(output, collapse = "\n")), call. = FALSE)
  }
  text <- names(fields) %in% c("blas", "versions")
  values <- lapply(fields[!text], function(f) suppressWarnings(as.numeric(f[-1L])))
  c(values, lapply(fields[text], function(f) paste(f[-1L], collapse = " ")))
}

# Python lines run after a prelude that defines timed(name, f, reps), which
# prints the name and the seconds of each of reps calls of f, and reports the
# BLAS loaded.
run_python <- function(python, lines, threads) {
  script <- tempfile(fileext = ".py")
  on.exit(unlink(script))
  writeLines(c(
    "import time, numpy as np, scipy.linalg",
    "def timed(name, f, reps):",
    "    seconds = []",
    "    for _ in range(reps):",
    "        t = time.perf_counter(); f(); seconds.append(time.perf_counter() - t)",
    "    print(name, *seconds, flush=True)",
    lines,
    "maps = [l.split()[-1] for l in open('/proc/self/maps') if 'blas' in l]",
    "print('blas', ([m for m in maps if 'openblas' in m.split('/')[-1]] or maps or ['none'])[0])"), script)
  output <- system2(python, script, stdout = TRUE, stderr = TRUE, env = openblas_env(threads))
  parse_child(output, sprintf("Python (%d thread%s)", threads, if (threads == 1L) "" else "s"))
}

# R lines run by Rscript with OpenBLAS preloaded in place of R's BLAS and
# LAPACK (the system's choice is left alone), after a prelude that defines
# timed(name, f, reps) as in run_python().
run_r_openblas <- function(lines, threads) {
  script <- tempfile(fileext = ".R")
  on.exit(unlink(script))
  writeLines(c(
    "timed <- function(name, f, reps) {",
    "  seconds <- vapply(seq_len(reps), function(i) { gc(); system.time(f())[['elapsed']] }, 0)",
    "  cat(name, seconds, '\\n')",
    "}",
    lines,
    "cat('blas', extSoftVersion()[['BLAS']], '\\n')"), script)
  preload <- sprintf("LD_PRELOAD=%s/libblas.so.3:%s/liblapack.so.3", openblas_dir, openblas_dir)
  output <- system2(file.path(R.home("bin"), "Rscript"), script, stdout = TRUE, stderr = TRUE,
                    env = c(preload, openblas_env(threads)))
  parse_child(output, sprintf("R on OpenBLAS (%d thread%s)", threads, if (threads == 1L) "" else "s"))
}

# Seconds of each of `reps` calls of run(), each after a garbage collection.
seconds_of <- function(run, reps) {
  vapply(seq_len(reps), function(i) {
    gc()
    system.time(run())[["elapsed"]]
  }, numeric(1))
}

load_average <- function() {
  paste(strsplit(readLines("/proc/loadavg"), " ")[[1L]][1:3], collapse = " ")
}

machine_line <- function() {
  model <- grep("^model name", readLines("/proc/cpuinfo"), value = TRUE)[1L]
  sprintf("machine: %s, %d cores; R %s (BLAS %s); askrff %s, paths %s; load average %s",
          trimws(sub(".*:", "", model)), parallel::detectCores(), getRversion(),
          basename(extSoftVersion()[["BLAS"]]), utils::packageVersion("askrff"),
          paste(askrff::askrff_cpu()$paths, collapse = ", "), load_average())
}

# "min / median" of a vector of seconds.
min_median <- function(seconds, digits = 3L) {
  sprintf("%.*f / %.*f", digits, min(seconds), digits, stats::median(seconds))
}

# A peer's time over askrff's (above 1: askrff is faster), from the minima
# and from the medians.
speed_ratio <- function(peer, askrff) {
  sprintf("%.2fx / %.2fx", min(peer) / min(askrff), stats::median(peer) / stats::median(askrff))
}

# The BLAS library a child loaded, with the directory that tells which it is.
blas_label <- function(path) {
  parts <- strsplit(path, "/", fixed = TRUE)[[1L]]
  paste(utils::tail(parts, 2L), collapse = "/")
}

# The resident set's high-water mark of this process, in GB (Linux).
peak_gb <- function() {
  status <- readLines("/proc/self/status")
  as.numeric(sub("[^0-9]*([0-9]+).*", "\\1", grep("^VmHWM", status, value = TRUE))) / 2^20
}
