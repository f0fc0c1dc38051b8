# The package's conditions. Every error askrff raises is an "askrff_error"
# of one subclass that says what went wrong, and names the function the
# user called (the outermost of the package's functions on the stack, or
# the generic that dispatched to it), so scripts can tell the package's
# refusals apart and handle each kind; the classes are listed on the
# package's help page.

condition_classes <- list(
  invalid_argument = c("askrff_invalid_argument", "askrff_error"),
  invalid_object = c("askrff_invalid_object", "askrff_invalid_argument", "askrff_error"),
  data = c("askrff_data_error", "askrff_invalid_argument", "askrff_error"),
  too_large = c("askrff_too_large", "askrff_error"),
  missing_package = c("askrff_missing_package", "askrff_error"),
  core = c("askrff_core_error", "askrff_error")
)

# An error of the kind `class` (a name of condition_classes): an argument
# breaks a rule unless another kind is given.
fail <- function(..., class = "invalid_argument") {
  stop(structure(class = c(condition_classes[[class]], "error", "condition"),
                 list(message = sprintf(...), call = caller_call())))
}

# A warning of the package: the call went on and its result says where.
# `class` adds a subclass of "askrff_warning" ("askrff_not_converged").
warn <- function(..., class = NULL) {
  warning(structure(class = c(class, "askrff_warning", "warning", "condition"),
                    list(message = sprintf(...), call = caller_call())))
}

# The C++ core checks its own invariants and throws; its message reaches the
# user as an askrff_core_error. Interrupts are not errors and pass through.
core <- function(value) {
  tryCatch(value, error = function(e) {
    if (inherits(e, "askrff_error")) stop(e)
    fail("%s", conditionMessage(e), class = "core")
  })
}

# Runs `expr`; an error it raises of a more general kind (an invalid
# argument, or the core's refusal; and inside an object's checks, a data
# error) becomes one of the kind `class`, keeping its message and call: the
# checks of an object or of the data wrap their bodies in it. Errors of
# another kind (too large, a missing package) pass unchanged.
as_condition_class <- function(class, expr) {
  general <- c("askrff_invalid_argument", "askrff_core_error", if (class == "invalid_object") "askrff_data_error")
  tryCatch(expr, askrff_error = function(e) {
    # an error of another call the user made (an argument evaluated here)
    # keeps its kind
    if (class(e)[1L] %in% general && identical(conditionCall(e), caller_call())) {
      class(e) <- c(condition_classes[[class]], "error", "condition")
    }
    stop(e)
  })
}

# The call the user made into the package that refused: the innermost frame
# of a package function that no package function called (one the user
# called, perhaps as an argument the package evaluated, as
# rff_map(gaussian_kernel(-1), ...) evaluates gaussian_kernel(-1)), or,
# when an S3 generic dispatched to it (predict(fit) to predict.askrff_glm()),
# the generic's call. NULL when there is none.
caller_call <- function() {
  namespace <- topenv(environment(caller_call))
  here <- sys.nframe() - 1L
  if (here < 1L) return(NULL)
  calls <- sys.calls()
  parents <- sys.parents()
  ours <- vapply(seq_len(here), function(i) {
    environment <- environment(sys.function(i))
    !is.null(environment) && identical(topenv(environment), namespace)
  }, NA)
  entry <- 0L
  for (i in seq_len(here)) {
    if (!ours[i]) next
    p <- parents[i]
    while (p > 0L && !ours[p]) p <- parents[p]
    if (p == 0L) entry <- i
  }
  if (entry == 0L) return(NULL)
  head <- calls[[entry]][[1L]]
  if (entry > 1L && is.symbol(head)) {
    outer <- calls[[entry - 1L]][[1L]]
    if (is.symbol(outer) && startsWith(as.character(head), paste0(as.character(outer), "."))) {
      return(calls[[entry - 1L]])
    }
  }
  calls[[entry]]
}
