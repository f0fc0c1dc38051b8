#' The instruction set askrff's dense kernels run on
#'
#' The core's dense kernels (the fused trigonometric feature loop and its
#' vectorized sine and cosine, and the packed matrix products behind Gram
#' matrices, approximate Gram matrices, ridge cross-products, Nyström
#' features and the eigendecomposition) are compiled for several instruction
#' sets and chosen when the package loads, by what the CPU offers:
#' `"avx512"` (AVX-512F/DQ/VL with FMA), `"avx2"` (AVX2 with FMA) or
#' `"baseline"` (SSE2 on x86-64, the compiler's default elsewhere). No
#' build flag is needed, so a library built on one machine runs on any
#' other.
#'
#' The paths agree to rounding (fused multiply-adds round once where the
#' baseline rounds twice; relative differences stay far below 1e-12), and
#' every path draws the same frequencies from a seed. Forcing a lower path
#' is for comparisons and for ruling the vector units out when debugging;
#' `options(askrff.cpu = "baseline")` before the package loads does the same
#' for a whole session.
#'
#' @param path `NULL` to only report, or the path to use from now on:
#'   `"baseline"`, `"avx2"`, `"avx512"` or `"auto"` (the best the CPU has).
#'   A path the CPU lacks falls back to the best one below it.
#' @return A list with `path`, the path in force, `detected`, the best path
#'   this CPU and build support, and `paths`, all the paths they can run; when
#'   `path` was given, invisibly, the state before the change, so that
#'   `askrff_cpu(old$path)` restores it.
#' @examples
#' askrff_cpu()
#' old <- askrff_cpu("baseline")
#' askrff_cpu()$path
#' askrff_cpu(old$path)
#' @export
askrff_cpu <- function(path = NULL) {
  before <- cpu_state(.cpp_instruction_set(""))
  if (is.null(path)) return(before)
  check_choice(path, c(instruction_sets, "auto"), "path")
  .cpp_instruction_set(if (path == "auto") before$detected else path)
  invisible(before)
}

instruction_sets <- c("baseline", "avx2", "avx512")

cpu_state <- function(core_state) {
  detected <- unname(core_state[["detected"]])
  list(path = unname(core_state[["path"]]), detected = detected,
       paths = instruction_sets[seq_len(match(detected, instruction_sets))])
}

# At load: the path asked for by options(askrff.cpu), if any. An option the
# package cannot follow (mistyped in .Rprofile, or a path this CPU lacks)
# must not stop it loading: it warns and keeps the detected path.
apply_cpu_option <- function() {
  wanted <- getOption("askrff.cpu")
  if (is.null(wanted)) return(invisible())
  tryCatch(askrff_cpu(check_choice(wanted, c(instruction_sets, "auto"), "options(askrff.cpu)")),
           askrff_error = function(e) {
             warn("%s askrff uses the path it detected.", conditionMessage(e), class = "askrff_cpu_option")
           })
  invisible()
}
