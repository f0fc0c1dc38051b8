# Benchmark of the linear program behind the L1-minimal radial measures of the
# kernels on the sphere (R/measure-lp.R): time to solve for
# poly_sphere_kernel(2, 1) at d = 16, 60 and 200, and the masses against the
# ones the former solver (lpSolve) found. Usage: Rscript bench/lp.R (after
# `make install`); results are recorded in bench/RESULTS.md.
library(askrff)

# Masses from lpSolve's simplex on the same grids (askrff 0.1.0 before the
# move to HiGHS); at d = 60 it failed after 225 s.
lpsolve_masses <- list(`3` = c(1.4878895, 0.4877895), `8` = c(3.154036, 2.153942), `16` = c(4.154416, 3.154316))
targets <- c(`16` = 2, `60` = 30, `200` = 30)

cat(sprintf("machine: %s cores; R %s\n", parallel::detectCores(), getRversion()))
for (d in c(3, 8, 16, 60, 200)) {
  # Solved measures are memoized per session: clear the memo for a fresh solve.
  rm(list = ls(askrff:::lp_cache), envir = askrff:::lp_cache)
  seconds <- system.time(measure <- spectral_measure(poly_sphere_kernel(2, 1), d))[["elapsed"]]
  masses <- measure$parts$mass
  line <- sprintf("d = %3d: %6.2f s; masses pos %.6f, neg %.6f; bias bound %.2e", d, seconds, masses[1], masses[2],
                  measure$lp$bias_bound)
  reference <- lpsolve_masses[[as.character(d)]]
  if (!is.null(reference)) {
    line <- paste0(line, sprintf("; against lpSolve: %.2e relative", max(abs(masses - reference) / reference)))
  }
  target <- targets[as.character(d)]
  if (!is.na(target)) line <- paste0(line, sprintf(" (target <= %g s: %s)", target, if (seconds <= target) "met" else "NOT met"))
  cat(line, "\n")
}
