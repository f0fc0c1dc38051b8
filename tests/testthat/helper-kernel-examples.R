# One small example kernel of every family in the core's registry
# (askrff:::.cpp_kernel_families()), keyed by the family's name: the name of
# its constructor and the arguments of the example. The families of kernel
# arithmetic have operators for constructors. The fuzz suite fuzzes each
# constructor's arguments and test-kernel-conformance.R checks each family
# through its example; both take the families from the registry, so a
# family missing here fails them, named.
kernel_examples <- list(
  gaussian = list(constructor = "gaussian_kernel", args = list(sigma = 1)),
  laplace = list(constructor = "laplace_kernel", args = list(sigma = 1)),
  delta_gaussian = list(constructor = "delta_gaussian_kernel", args = list(weights = c(1, -1), sigmas = c(1, 10))),
  poly_sphere = list(constructor = "poly_sphere_kernel", args = list(a = 2, p = 1)),
  arccos = list(constructor = "arccos_kernel", args = list(order = 0)),
  ntk = list(constructor = "ntk_kernel", args = list()),
  shift_gaussian = list(constructor = "shift_gaussian_kernel", args = list(sigma = 1, shift = 0.3)),
  sinh_gaussian = list(constructor = "sinh_gaussian_kernel", args = list(sigma = 1, beta = 0.3)),
  cosh_gaussian = list(constructor = "cosh_gaussian_kernel", args = list(sigma = 1, beta = 0.3)),
  matern = list(constructor = "matern_kernel", args = list(sigma = c(1, 2, 1), nu = 1.5)),
  exponential = list(constructor = "exponential_kernel", args = list(sigma = 1)),
  rational_quadratic = list(constructor = "rational_quadratic_kernel", args = list(sigma = 1, alpha = 2)),
  generalized_gaussian = list(constructor = "generalized_gaussian_kernel", args = list(sigma = 1, power = 0.7)),
  radial = list(constructor = "radial_kernel", args = list(fun = function(r) exp(-r^2 / 2))),
  rpf_expected = list(constructor = "rpf_expected_kernel",
                      args = list(kernel = gaussian_kernel(1), left = "square", right = "cos", tolerance = 1e-3)),
  sum = list(constructor = "+", args = list(e1 = gaussian_kernel(1), e2 = laplace_kernel(2))),
  product = list(constructor = "*", args = list(e1 = gaussian_kernel(1), e2 = laplace_kernel(2))))

# The operators of kernel arithmetic (Ops.askrff_kernel), the constructors
# of the expression families.
kernel_operators <- c("+", "-", "*", "/")

# The families of the core's registry that have no example above.
families_without_example <- function() setdiff(askrff:::.cpp_kernel_families(), names(kernel_examples))

example_kernel <- function(family) {
  example <- kernel_examples[[family]]
  do.call(example$constructor, example$args)
}

# The frequency sources, from the core's table (askrff:::source_table(): each
# source's name and traits), never from a list: tests that mean every source,
# or every source of a trait, take them from here, so a new source is tested
# without being named. `kernel_sources()` gives those the kernel's laws take
# in dimension d under `settings`.
exact_sources <- function() with(askrff:::source_table(), name[exact])
blocked_sources <- function() with(askrff:::source_table(), name[blocked])
kernel_sources <- function(kernel, d, settings = list()) {
  spec <- askrff:::kernel_with_settings(kernel, askrff:::resolve_kernel_settings(kernel, settings), d)
  askrff:::core(askrff:::.cpp_measure_sources(spec, d))
}

# Evaluates `code`; an error in it fails the test with `label` and its
# message, and the test goes on (a failed expectation goes on as usual).
# Conformance loops wrap each entry in it, so one entry's error names the
# entry and leaves the others checked.
naming_errors <- function(label, code) {
  withRestarts(
    withCallingHandlers(code, error = function(e) {
      if (inherits(e, "expectation")) return()
      expect(FALSE, sprintf("%s: %s", label, conditionMessage(e)))
      invokeRestart("skip_entry")
    }),
    skip_entry = function() NULL)
  invisible()
}
