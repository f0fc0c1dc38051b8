# Kernels are rebuilt by their constructors on every entry (R/util-validate.R
# says why objects are checked).

# Returns the kernel built afresh by its constructor, <name>_kernel(), from
# its name and parameters, with its settings from with_settings(), so nothing
# downstream reads a field the user may have edited. The families are those
# of the core's registry.
validate_kernel <- function(kernel, arg = "kernel", depth = 0L) {
  # an expression's terms (depth >= 1) are validated inside the one
  # condition handler of the outermost call (which marks its own call
  # inside it by depth -1): each level of nesting costs C stack, and a
  # handler per level would cost more
  if (depth == 0L) return(as_condition_class("invalid_object", validate_kernel(kernel, arg, -1L)))
  rebuilt <- rebuild_kernel(kernel, arg, max(depth, 0L))
  validate_defaults(rebuilt, kernel$defaults, arg)
}

rebuild_kernel <- function(kernel, arg, depth) {
  check_object(kernel, arg, "askrff_kernel", "a kernel object such as gaussian_kernel(1)")
  name <- kernel$name
  families <- core(.cpp_kernel_families())
  if (!is.character(name) || length(name) != 1L || is.na(name) || !name %in% families) {
    fail("`%s` must name a kernel family askrff knows (%s); make it with its constructor, such as gaussian_kernel(1).",
         field(arg, "name"), paste(families, collapse = ", "))
  }
  params <- kernel$params
  if (!is.list(params) || is.object(params)) fail("`%s` must be a list of the kernel's parameters.", field(arg, "params"))
  if (name == "rpf_expected") return(validate_expected_kernel(kernel, arg))
  if (name %in% c("sum", "product")) return(validate_expression(kernel, arg, depth))
  constructor <- get(paste0(name, "_kernel"), envir = asNamespace("askrff"), mode = "function")
  expected <- names(formals(constructor))
  given <- names(params)
  if (length(params) != length(expected) || (length(expected) > 0L && !setequal(given, expected))) {
    fail("`%s` of a %s kernel must hold exactly %s; make the kernel again with %s_kernel().",
         field(arg, "params"), name, if (length(expected) == 0L) "nothing" else paste0("`", expected, "`", collapse = ", "),
         name)
  }
  # quote = TRUE: a parameter is data, so an R expression put in its place
  # reaches the constructor's checks as a call object and is never evaluated
  tryCatch(do.call(constructor, params, quote = TRUE), askrff_error = function(e) {
    fail("`%s` is not a valid kernel: %s Make it again with %s_kernel().", arg, conditionMessage(e), name)
  })
}

validate_expected_kernel <- function(kernel, arg) {
  base <- validate_kernel(kernel$base, field(arg, "base"))
  fun <- function(side) {
    value <- kernel$settings[[side]]
    if (!is.character(value) || length(value) != 1L || is.na(value)) {
      fail("`%s` must name a periodic function such as \"square\".", field(arg, sprintf("settings$%s", side)))
    }
    value
  }
  tryCatch(rpf_expected_kernel(base, fun("left"), fun("right"), kernel$params$tolerance), askrff_error = function(e) {
    fail("`%s` is not a valid expected kernel: %s Make it again with rpf_expected_kernel().", arg, conditionMessage(e))
  })
}
