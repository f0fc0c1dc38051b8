# Kernel arithmetic: sums a_1 k_1 + ... + a_n k_n and products k_1 ... k_n of
# kernel objects (src/core/kernels/kernel_expressions.cpp). An expression is a kernel
# object like any other, with its terms in `terms`.

#' Arithmetic on kernels
#'
#' Kernels combine as functions do: `k1 + k2`, `k1 - k2`, `a * k` and `k / a`
#' for any real `a` other than 0, `-k`, and `k1 * k2`, the product kernel
#' \eqn{k_1(x, y) k_2(x, y)}. The result is a kernel object that every
#' function takes: [kernel_matrix()] is exact (the terms' Gram matrices,
#' combined), and [rff_map()] samples its spectral measure without bias.
#'
#' * A **linear combination** \eqn{\sum_i a_i k_i} has the measure
#'   \eqn{\sum_i a_i \mu_i}: each term's parts, named `k1.pos`, `k2.pos`, ...,
#'   with their coefficients times \eqn{a_i}, so `gaussian_kernel(1) -
#'   gaussian_kernel(10)` is the Delta-Gaussian kernel with its per-component
#'   split. When every term is radial, the setting `split = "jordan"` of
#'   [rff_map()] and [spectral_measure()] instead tabulates the combined radial
#'   density and samples its minimal Jordan parts (as [radial_kernel()] does,
#'   within `accuracy`), whose smaller total mass lowers the variance.
#' * A **product** has the convolution \eqn{\mu_1 * \mu_2} as its measure: a
#'   frequency is the sum of independent frequencies of the two measures,
#'   masses multiply and signs combine. A part whose law is symmetric and
#'   has no phases (every positive definite kernel) combines with any part
#'   into one part; two asymmetric parts give a part of sum frequencies and
#'   one of difference frequencies, each with half the coefficient, since
#'   \eqn{\cos a \cos b = (\cos(a + b) + \cos(a - b)) / 2}. An asymmetric
#'   kernel's `decomposition = "phase"` cannot enter a product: its phase is
#'   a function of its own frequency, not of the sum. Products take `"iid"`
#'   and `"qmc"` frequencies, and orthogonal or structured ones when every
#'   factor is radial.
#'
#' Terms use their default settings, or those given to them by
#' [with_settings()]. Kernels that cannot be combined are
#' refused with the reason: expected kernels of random periodic features
#' (no spectral measure) and the arc-cosine and NTK kernels, whose exact
#' features are not Fourier features.
#'
#' @param e1,e2 Kernel objects, or a number and a kernel object.
#' @return A kernel object of class `c("sum_kernel", "askrff_kernel")` or
#'   `c("product_kernel", "askrff_kernel")`, with its `terms`.
#' @family kernels
#' @examples
#' dog <- gaussian_kernel(1) - gaussian_kernel(10)
#' dog
#' x <- matrix(rnorm(20), 10)
#' all.equal(kernel_matrix(dog, x), kernel_matrix(delta_gaussian_kernel(), x))
#' spectral_measure(dog, d = 2)
#' spectral_measure(dog, d = 2, split = "jordan")
#' k <- 0.5 * matern_kernel(1, 1.5) * shift_gaussian_kernel(1, 0.1)
#' spectral_measure(k, d = 2)
#' @name kernel-arithmetic
#' @export
Ops.askrff_kernel <- function(e1, e2) {
  generic <- .Generic
  if (nargs() == 1L) {
    if (generic == "-") return(combine_kernels(list(e1), -1))
    if (generic == "+") return(e1)
    fail("Kernels take unary `-` and `+` only, not `%s`.", generic)
  }
  is_kernel <- c(inherits(e1, "askrff_kernel"), inherits(e2, "askrff_kernel"))
  if (generic %in% c("+", "-") && all(is_kernel)) {
    return(combine_kernels(list(e1, e2), c(1, if (generic == "-") -1 else 1)))
  }
  if (generic == "*" && all(is_kernel)) return(multiply_kernels(list(e1, e2)))
  if (generic == "*" && xor(is_kernel[1L], is_kernel[2L])) {
    a <- if (is_kernel[1L]) e2 else e1
    return(combine_kernels(list(if (is_kernel[1L]) e1 else e2), check_factor(a)))
  }
  if (generic == "/" && is_kernel[1L] && !is_kernel[2L]) return(combine_kernels(list(e1), 1 / check_factor(e2)))
  fail("Kernels combine by `k1 + k2`, `k1 - k2`, `a * k`, `k / a` and `k1 * k2`; `%s` of %s and %s is not one of these.",
       generic, if (is_kernel[1L]) "a kernel" else class(e1)[1L], if (is_kernel[2L]) "a kernel" else class(e2)[1L])
}

# Functions of a kernel other than the arithmetic above (abs(k), sum(k),
# k %*% k, exp(k)) are not kernels askrff can sample; each is refused by name
# instead of by R's message about lists.
#' @export
Math.askrff_kernel <- function(x, ...) refuse_kernel_function(.Generic)

#' @export
Summary.askrff_kernel <- function(..., na.rm = FALSE) refuse_kernel_function(.Generic)

refuse_kernel_function <- function(generic) {
  fail("`%s()` of a kernel is not defined: kernels combine by `k1 + k2`, `k1 - k2`, `a * k`, `k / a` and `k1 * k2` only.",
       generic)
}

# `%*%` is generic (the matrixOps group) from R 4.3 on; registered by register_kernel_generics() from .onLoad().
matrixOps_kernel <- function(x, y) refuse_kernel_function(.Generic)

# With a kernel and an object of another class that has Ops methods (a
# factor, a Date), R's S3 dispatch finds two methods; from R 4.3,
# chooseOpsMethod() lets it pick this one, so the error is askrff's.
# Registered by register_kernel_generics() where R has that generic.
chooseOpsMethod_kernel <- function(x, y, mx, my, cl, reverse) TRUE

register_kernel_generics <- function(pkgname) {
  if (exists("chooseOpsMethod", envir = baseenv(), mode = "function")) {
    registerS3method("chooseOpsMethod", "askrff_kernel", chooseOpsMethod_kernel, envir = asNamespace(pkgname))
  }
  if (exists("matrixOps", envir = baseenv(), mode = "function")) {
    registerS3method("matrixOps", "askrff_kernel", matrixOps_kernel, envir = asNamespace(pkgname))
  }
}

check_factor <- function(a) {
  if (!is_single_number(a) || !is.finite(a) || a == 0) {
    fail("A kernel's factor must be a single finite nonzero number (0 * k has no spectral measure to sample).")
  }
  as.double(a)
}

# sum_i weights_i terms_i, with sums among the terms spliced in.
combine_kernels <- function(terms, weights, validated = FALSE) {
  if (!validated) terms <- validate_terms(terms)
  flat_terms <- list()
  flat_weights <- numeric()
  for (i in seq_along(terms)) {
    # an expression with settings of its own stays one term, to keep them
    if (terms[[i]]$name == "sum" && is.null(terms[[i]]$defaults)) {
      flat_terms <- c(flat_terms, terms[[i]]$terms)
      flat_weights <- c(flat_weights, weights[i] * terms[[i]]$params$weights)
    } else {
      flat_terms <- c(flat_terms, list(terms[[i]]))
      flat_weights <- c(flat_weights, weights[i])
    }
  }
  expression_kernel("sum", flat_terms, list(weights = flat_weights))
}

multiply_kernels <- function(terms, validated = FALSE) {
  if (!validated) terms <- validate_terms(terms)
  flat <- do.call(c, lapply(terms, function(k) if (k$name == "product" && is.null(k$defaults)) k$terms else list(k)))
  expression_kernel("product", flat, list())
}

validate_terms <- function(terms, arg = "terms", depth = 0L) {
  # a loop rather than lapply(): each level of a nested expression costs C
  # stack, and 32 levels must fit with room for the error's handlers
  out <- vector("list", length(terms))
  for (i in seq_along(terms)) out[[i]] <- validate_kernel(terms[[i]], sprintf("%s[[%d]]", arg, i), depth + 1L)
  out
}

# The expression, checked by the core: kernels of kinds that cannot be
# combined are refused here, with the core's reason.
expression_kernel <- function(name, terms, params) {
  if (length(terms) > 64L) fail("A kernel expression may have at most 64 terms; it would have %d.", length(terms))
  kernel <- new_kernel(name, params, name, "")
  kernel$terms <- terms
  check_weight_scale(weight_scale(kernel), "weights")
  tryCatch(kernel_traits(kernel), askrff_error = function(e) {
    fail("These kernels cannot be combined: %s", conditionMessage(e))
  })
  kernel$label <- expression_label(kernel)
  kernel$formula <- expression_formula(kernel)
  kernel
}

# How much the weights of a kernel and of its terms can scale its values:
# the sum of the weights' magnitudes in a sum (or a Delta-Gaussian), the
# product of the factors' scales in a product.
weight_scale <- function(kernel) {
  if (kernel$name == "product") return(prod(vapply(kernel$terms, weight_scale, 1)))
  own <- if (is.null(kernel$params$weights)) 1 else abs(kernel$params$weights)
  if (kernel$name == "sum") sum(own * vapply(kernel$terms, weight_scale, 1)) else sum(own)
}

# Kernel values, masses and the squares a study or a ridge fit sums must
# stay finite.
check_weight_scale <- function(scale, name) {
  if (!(scale <= 1e150)) {
    fail("`%s` would scale the kernel by %s; at most 1e150 keeps its values, masses and their squares finite.", name,
         format(scale, digits = 3))
  }
}

expression_label <- function(kernel) {
  labels <- vapply(kernel$terms, function(k) {
    text <- kernel_label(k)
    if (k$name %in% c("sum", "product")) sprintf("(%s)", text) else text
  }, "")
  if (kernel$name == "product") return(paste(labels, collapse = " x "))
  w <- kernel$params$weights
  factor <- ifelse(abs(w) == 1, "", paste(format(abs(w), digits = 4), "x "))
  signs <- ifelse(w < 0, "- ", "+ ")
  text <- paste0(signs, factor, labels, collapse = " ")
  sub("^\\+ ", "", text)
}

expression_formula <- function(kernel) {
  n <- length(kernel$terms)
  if (kernel$name == "product") return(paste0("k", seq_len(n), "(x, y)", collapse = " * "))
  w <- kernel$params$weights
  parts <- paste0(ifelse(w < 0, "- ", "+ "), ifelse(abs(w) == 1, "", paste(format(abs(w), digits = 4), "")),
                  "k", seq_len(n), "(x, y)")
  sub("^\\+ ", "", paste(parts, collapse = " "))
}

# An expression read back from a user: its terms validated one by one (at
# most 32 levels deep), then the expression made again from them.
validate_expression <- function(kernel, arg, depth) {
  if (depth > 32L) fail("`%s` nests kernel expressions more than 32 deep.", arg)
  terms <- kernel$terms
  if (!is.list(terms) || is.object(terms) || length(terms) < 1L || length(terms) > 64L) {
    fail("`%s` must be a list of 1 to 64 kernel objects.", field(arg, "terms"))
  }
  terms <- validate_terms(terms, field(arg, "terms"), depth)
  if (kernel$name == "product") {
    if (length(kernel$params) != 0L) fail("`%s` of a product kernel must be empty.", field(arg, "params"))
    return(multiply_kernels(terms, validated = TRUE))
  }
  weights <- kernel$params$weights
  if (length(kernel$params) != 1L || !is.numeric(weights) || is.object(weights) || length(weights) != length(terms) ||
      anyNA(weights) || any(!is.finite(weights)) || any(weights == 0)) {
    fail("`%s` must hold `weights`: one finite nonzero number per term.", field(arg, "params"))
  }
  combine_kernels(terms, as.double(weights), validated = TRUE)
}

# Gram matrices of expressions holding a kernel R evaluates, from their
# terms', combined as the core combines the others' (kernel_expressions.cpp).
#' @export
gram_matrix.sum_kernel <- function(kernel, x, y, n_threads) {
  if (gram_in_core(kernel)) return(NextMethod())
  grams <- lapply(kernel$terms, gram_matrix, x = x, y = y, n_threads = n_threads)
  Reduce(`+`, Map(`*`, kernel$params$weights, grams))
}

#' @export
gram_matrix.product_kernel <- function(kernel, x, y, n_threads) {
  if (gram_in_core(kernel)) return(NextMethod())
  Reduce(`*`, lapply(kernel$terms, gram_matrix, x = x, y = y, n_threads = n_threads))
}

# An expression as the core reads it in dimension d: every term with its own
# settings (with_settings(), else the defaults) and what R computes for it,
# and for split = "jordan" the combined density's table.
#' @export
kernel_with_settings.sum_kernel <- function(kernel, settings, d) {
  kernel$settings <- settings
  kernel$terms <- lapply(seq_along(kernel$terms), function(i) {
    term <- kernel$terms[[i]]
    tryCatch(kernel_with_settings(term, resolve_kernel_settings(term, list()), d), askrff_error = function(e) {
      message <- conditionMessage(e)
      hint <- if (grepl("with_settings()", message, fixed = TRUE)) "" else " A term takes settings of its own through with_settings()."
      fail("Term k%d: %s%s", i, message, hint)
    })
  })
  if (identical(settings$split, "jordan")) {
    kernel <- with_radial_table(kernel, radial_table(kernel, d, settings$accuracy, kernel_at_zero(kernel, d)))
  }
  kernel
}

#' @export
kernel_with_settings.product_kernel <- kernel_with_settings.sum_kernel
