# Fuzzing every exported function: each case must end in a result free of NaN
# and Inf, or in an error of class askrff_error whose message names the
# argument or field at fault. A warning, a NaN, any other error, or an error
# that names nothing is a failure; a crash or a hang ends the suite. Objects
# (kernels, measures, maps, packed bits) are corrupted field by field, since
# users save, edit and share them as plain lists.

# What one case did: "ok", "named" (askrff_error naming a target, or an
# askrff_warning naming one, whose result holds NA where it says), or the
# failure: "warning", "nonfinite", "foreign_error", "unnamed", "injected"
# (an R expression put in an object in place of a number was evaluated).
fuzz_outcome <- function(run, targets) {
  names_target <- function(message) {
    any(vapply(targets, grepl, logical(1), x = message, fixed = TRUE)) || grepl("of memory", message)
  }
  warned <- NULL
  options(askrff.injected = NULL)
  outcome <- withCallingHandlers(
    tryCatch({
      value <- run()
      if (has_nonfinite(value)) "nonfinite" else "ok"
    }, askrff_error = function(e) if (names_target(conditionMessage(e))) "named" else "unnamed",
    error = function(e) "foreign_error"),
    warning = function(w) {
      named <- inherits(w, "askrff_warning") && names_target(conditionMessage(w))
      warned <<- c(warned, if (named) "named" else "warning")
      invokeRestart("muffleWarning")
    })
  if (isTRUE(getOption("askrff.injected"))) return("injected")
  if (any(warned == "warning")) return("warning")
  if (length(warned) > 0L && outcome == "nonfinite") "named" else outcome
}

# Put in an object in place of a number: evaluating it sets the option.
injection <- quote({options(askrff.injected = TRUE); 1})

has_nonfinite <- function(value) {
  if (inherits(value, "rpf_packed")) return(FALSE)
  if (is.list(value)) return(any(vapply(value, has_nonfinite, logical(1))))
  is.numeric(value) && any(!is.finite(value))
}

# Runs the cases, records every outcome, and fails with the first few cases
# of each failing kind.
fuzz_check <- function(cases) {
  outcomes <- vapply(cases, function(case) {
    path <- tempfile(fileext = ".pdf")
    grDevices::pdf(path)
    on.exit({
      grDevices::dev.off()
      unlink(path)
    })
    fuzz_outcome(case$run, case$targets)
  }, "")
  bad <- !outcomes %in% c("ok", "named")
  detail <- paste(sprintf("%s: %s", outcomes[bad], vapply(cases[bad], `[[`, "", "label")), collapse = "\n")
  expect(!any(bad), sprintf("%d of %d fuzz cases failed:\n%s", sum(bad), length(cases), substr(detail, 1, 4000)))
  fuzz_record$outcomes <- c(fuzz_record$outcomes, outcomes)
  invisible(outcomes)
}
fuzz_record <- new.env()

case <- function(label, run, targets) list(label = label, run = run, targets = targets)

# The usual bad values of an argument.
bad_values <- list(
  `NULL` = NULL, `NA` = NA, `NaN` = NaN, `Inf` = Inf, `-Inf` = -Inf, zero = 0, negative = -1, huge = 1e300,
  fraction = 2.5, character = "a", factor = factor("a"), logical = TRUE, list = list(1), empty = numeric(0),
  pair = c(1, 2))

# The usual bad (and unusual but legal) data for a d-column argument.
bad_data <- function(d) {
  x <- matrix(seq_len(3 * d) / (3 * d), 3, d)
  list(zero_rows = x[0, , drop = FALSE], zero_cols = x[, 0, drop = FALSE], wide = cbind(x, 1),
       integer = matrix(seq_len(3 * d), 3, d), data_frame = as.data.frame(x),
       sparse = Matrix::Matrix(x, sparse = TRUE), character = matrix("a", 3, d), logical = x > 0.5,
       vector = x[1, ], na = replace(x, 2, NA), nan = replace(x, 2, NaN), inf = replace(x, 2, Inf),
       huge = x * 1e155, enormous = x * 1e300, tiny = x * 1e-300, list = list(x))
}

# A call of `fun` with `args`, one argument replaced by each bad value. Data
# that no longer match the other data set may be blamed on that one.
argument_cases <- function(name, fun, args, arg, values) {
  targets <- if (arg %in% c("x", "y")) intersect(c("x", "y"), names(args)) else arg
  lapply(names(values), function(value_name) {
    changed <- args
    if (is.null(values[[value_name]])) changed[arg] <- list(NULL) else changed[[arg]] <- values[[value_name]]
    case(sprintf("%s(%s = <%s>)", name, arg, value_name), function() do.call(fun, changed), targets)
  })
}

# Each field of an object removed, truncated, extended, NA-filled, retyped,
# and the object saved and reloaded after the edit.
corruptions <- list(
  removed = function(v) NULL,
  truncated = function(v) if (is.matrix(v)) v[, -1L, drop = FALSE] else if (is.data.frame(v)) v[-1L, , drop = FALSE] else utils::head(v, -1L),
  extended = function(v) if (is.matrix(v)) cbind(v, v[, 1L]) else if (is.data.frame(v)) rbind(v, v[1L, ]) else c(v, v[1L]),
  na_filled = function(v) {
    if (is.list(v) && !is.data.frame(v)) return(lapply(v, function(e) NA))
    if (is.raw(v)) return(structure(rep(NA, length(v)), dim = dim(v)))
    v[] <- NA
    v
  },
  retyped = function(v) if (is.data.frame(v)) as.list(v) else if (is.list(v)) unlist(v) else as.character(v),
  negated = function(v) if (is.numeric(v)) -v else v,
  zeroed = function(v) if (is.numeric(v)) v * 0 else v,
  enlarged = function(v) if (is.numeric(v)) v * 1e300 else v,
  expression = function(v) injection)

# Paths to the numeric leaves of an object's nested lists (a kernel's
# parameters inside a map inside a fit), at most `most` of them.
numeric_paths <- function(object, most = 12L, depth = 5L) {
  walk <- function(value, path) {
    if (length(path) > depth) return(list())
    if (is.numeric(value) && length(path) > 1L) return(list(path))
    if (!is.list(value) || is.data.frame(value) || is.function(value)) return(list())
    fields <- names(value)
    if (is.null(fields)) return(list())
    unlist(lapply(fields[fields != ""], function(f) walk(value[[f]], c(path, f))), recursive = FALSE)
  }
  paths <- walk(unclass(object), character())
  paths[unique(round(seq(1, length(paths), length.out = min(most, length(paths)))))]
}

# The object with an R expression in place of each nested number in turn.
nested_expressions <- function(object) {
  out <- list()
  for (path in numeric_paths(object)) {
    edited <- object
    edited[[path]] <- injection
    out[[sprintf("%s as an expression", paste(path, collapse = "$"))]] <- list(object = edited, field = path[length(path)])
  }
  out
}

# The object saved, three bytes of its serialization overwritten, and read
# back: what a damaged file or transfer gives. The bytes are taken among the
# stored values of its vectors (numbers, indices, names and strings): R's own
# reader can crash on damaged structure, which no package can guard against.
byte_corruptions <- function(object, n = 8L) {
  bytes <- serialize(object, NULL, xdr = TRUE)
  # a value's bytes that occur once in the stream are that value's, never a
  # length or a type code
  positions <- unique(unlist(lapply(stored_values(object), function(pattern) {
    at <- grepRaw(pattern, bytes, fixed = TRUE, all = TRUE)
    if (length(at) == 1L) at + seq_along(pattern) - 1L else integer()
  })))
  out <- list()
  if (length(positions) < 3L) return(out)
  for (i in seq_len(n)) {
    set.seed(i)
    damaged <- bytes
    at <- sort(positions[sample.int(length(positions), 3L)])
    damaged[at] <- as.raw(sample(0:255, 3L))
    read <- tryCatch(unserialize(damaged), error = function(e) NULL)
    if (!is.null(read)) out[[sprintf("bytes %s overwritten", paste(at, collapse = ", "))]] <- list(object = read, field = "`")
  }
  out
}

# The bytes of the vectors an object holds, as serialize() writes them.
stored_values <- function(value) {
  if (is.function(value) || is.environment(value) || is.language(value)) return(list())
  if (is.list(value)) return(unlist(lapply(unclass(value), stored_values), recursive = FALSE))
  if (length(value) == 0L) return(list())
  if (is.double(value)) return(list(writeBin(as.vector(value), raw(), endian = "big")))
  if (is.integer(value) || is.logical(value)) return(list(writeBin(as.integer(value), raw(), size = 4L, endian = "big")))
  if (is.character(value)) return(lapply(value[!is.na(value) & nzchar(value)], charToRaw))
  list()
}

corrupted_objects <- function(object, fields = names(unclass(object))) {
  out <- list()
  for (f in fields) {
    for (how in names(corruptions)) {
      value <- corruptions[[how]](object[[f]])
      # an edit R itself refuses (a data frame's column of another length) cannot reach a user's object
      edited <- tryCatch({
        edited <- object
        if (is.null(value)) edited[f] <- NULL else edited[[f]] <- value
        edited
      }, error = function(e) NULL)
      if (!is.null(edited)) out[[sprintf("%s %s", f, how)]] <- list(object = edited, field = f)
    }
  }
  path <- tempfile(fileext = ".rds")
  on.exit(unlink(path))
  for (label in utils::head(names(out), 8L)) {
    saveRDS(out[[label]]$object, path)
    out[[paste(label, "(reloaded)")]] <- list(object = readRDS(path), field = out[[label]]$field)
  }
  c(out, nested_expressions(object), byte_corruptions(object))
}

object_cases <- function(object, consumers, arg, extra_targets = character()) {
  edits <- corrupted_objects(object)
  unlist(lapply(names(edits), function(label) {
    lapply(names(consumers), function(consumer) {
      edit <- edits[[label]]
      case(sprintf("%s on %s with %s", consumer, arg, label), function() consumers[[consumer]](edit$object),
           c(edit$field, arg, extra_targets))
    })
  }), recursive = FALSE)
}

x3 <- fixture_points(5, 3, seed = 3)
sphere3 <- normalize_rows(x3)

# Operands of kernel arithmetic. Before R 4.3 (no chooseOpsMethod()), a
# kernel and a factor reach two Ops methods and R itself warns before
# choosing neither: askrff cannot intercept that, so a factor operand is
# tried only where R lets it.
bad_operands <- if (exists("chooseOpsMethod", envir = baseenv())) bad_values else {
  bad_values[names(bad_values) != "factor"]
}

test_that("kernel constructors end in a kernel or a named error for every bad value", {
  # every family of the core's registry, by its example (helper-kernel-examples.R)
  missing <- families_without_example()
  expect(length(missing) == 0L, sprintf("the fuzz suite has no constructor of the kernel families %s (add their examples to kernel_examples)",
                                        paste(missing, collapse = ", ")))
  # and a constructor of other objects than kernels
  constructors <- c(kernel_examples, list(rpf_quantizer = list(constructor = "rpf_quantizer", args = list(bits = 2))))
  cases <- unlist(lapply(constructors, function(spec) {
    name <- spec$constructor
    operator <- name %in% kernel_operators
    cases <- unlist(lapply(names(spec$args), function(arg) {
      argument_cases(name, name, spec$args, arg, if (operator) bad_operands else bad_values)
    }), recursive = FALSE)
    # an operator's refusal names the operation, or the factor (and the
    # weights it would give), rather than its operand e1 or e2
    if (!operator) return(cases)
    lapply(cases, function(x) {
      x$targets <- c(x$targets, name, "factor", "weights")
      x
    })
  }), recursive = FALSE)
  fuzz_check(cases)
})

test_that("every function taking data or settings ends in a result or a named error", {
  skip_on_cran()
  k <- gaussian_kernel(1)
  map <- rff_map(k, 3, 16, seed = 1)
  pmap <- rpf_map(k, 3, 16, seed = 1)
  packed <- rpf_pack(rpf_features(pmap, x3, "square"))
  calls <- list(
    kernel_matrix = list(fun = kernel_matrix, args = list(kernel = k, x = x3, y = x3, n_threads = 1)),
    spectral_measure = list(fun = spectral_measure, args = list(kernel = k, d = 3)),
    rff_map = list(fun = rff_map, args = list(kernel = k, d = 3, n_features = 8, method = "iid", allocation = "mass", seed = 1)),
    rff_features = list(fun = rff_features, args = list(map = map, x = x3, side = "left", n_threads = 1)),
    rff_kernel_matrix = list(fun = rff_kernel_matrix, args = list(map = map, x = x3, y = x3, n_threads = 1)),
    total_masses = list(fun = total_masses, args = list(map = map)),
    estimate_total_masses = list(fun = estimate_total_masses, args = list(map = map, x_subset = x3, n_threads = 1)),
    radial_density = list(fun = radial_density, args = list(kernel = k, d = 3, radius = c(0, 1))),
    normalize_rows = list(fun = normalize_rows, args = list(x = x3)),
    relative_error = list(fun = relative_error, args = list(K = diag(2), K_hat = diag(2))),
    rpf_map = list(fun = rpf_map, args = list(kernel = k, d = 3, n_features = 8, method = "iid", seed = 1)),
    rpf_features = list(fun = rpf_features, args = list(map = pmap, x = x3, fun = "square", n_threads = 1)),
    rpf_kernel_matrix = list(fun = rpf_kernel_matrix,
                             args = list(map = pmap, x = x3, y = x3, left = "square", right = "cos", n_threads = 1)),
    rpf_pack = list(fun = rpf_pack, args = list(features = rpf_features(pmap, x3, "square"), n_threads = 1)),
    rpf_coefficients = list(fun = rpf_coefficients, args = list(fun = "square", k = 1:3)),
    rpf_inner_product = list(fun = rpf_inner_product, args = list(left = "square", right = "cos")),
    predict = list(fun = getS3method("predict", "askrff_map"), args = list(object = map, newdata = x3, side = "left", n_threads = 1)),
    n_feature_columns = list(fun = n_feature_columns, args = list(map = map)),
    median_bandwidth = list(fun = median_bandwidth, args = list(x = x3, max_points = 3, seed = 1)))
  data_args <- c("x", "y", "x_subset", "K", "K_hat", "features", "newdata")
  cases <- unlist(lapply(names(calls), function(name) {
    spec <- calls[[name]]
    unlist(lapply(names(spec$args), function(arg) {
      values <- if (arg %in% data_args) c(bad_values, bad_data(3)) else bad_values
      argument_cases(name, spec$fun, spec$args, arg, values)
    }), recursive = FALSE)
  }), recursive = FALSE)
  # The settings of radial kernels and sums, and kernel arithmetic with bad operands.
  radial <- radial_kernel(function(r) exp(-r^2 / 2))
  dog <- gaussian_kernel(1) - gaussian_kernel(10)
  for (setting in list(list("accuracy", list(route = "density", accuracy = 1e-6)),
                       list("route", list(route = "lp", tolerance = 0.01, z_max = 4)),
                       list("z_max", list(route = "lp", tolerance = 0.01, z_max = 4)))) {
    cases <- c(cases, argument_cases("spectral_measure", spectral_measure, c(list(kernel = radial, d = 2), setting[[2]]),
                                     setting[[1]], bad_values))
  }
  cases <- c(cases, argument_cases("spectral_measure", spectral_measure, list(kernel = dog, d = 2, split = "jordan"),
                                   "split", bad_values))
  for (arg in c("kernel", "split")) {
    cases <- c(cases, argument_cases("with_settings", with_settings, list(kernel = dog, split = "jordan"), arg, bad_values))
  }
  arithmetic <- list(`+` = function(a) dog + a, `-` = function(a) a - dog, `*` = function(a) a * dog,
                     `/` = function(a) dog / a)
  for (op in names(arithmetic)) {
    cases <- c(cases, lapply(names(bad_operands), function(value) {
      case(sprintf("dog %s <%s>", op, value), function() arithmetic[[op]](bad_operands[[value]]), c("factor", op))
    }))
  }
  cases <- c(cases, argument_cases("rpf_kernel_matrix", rpf_kernel_matrix,
                                   list(map = pmap, x = packed, y = x3, left = "square", right = "cos"), "left",
                                   c(bad_values, list(cos = "cos", quantizer = rpf_quantizer(2)))))
  fuzz_check(cases)
  expect_error(rff_features(map, x3, n_threads = 1e9), "`n_threads` must be at most 1,024", class = "askrff_error")
  withr_option <- options(askrff.threads = 0)
  on.exit(options(withr_option))
  expect_error(rff_features(map, x3), "`options(askrff.threads)` must be", fixed = TRUE, class = "askrff_error")
})

test_that("corrupted kernels and measures end in a result or a named error", {
  skip_on_cran()
  kernels <- list(gaussian_kernel(1), laplace_kernel(2), delta_gaussian_kernel(), shift_gaussian_kernel(1, 0.3),
                  sinh_gaussian_kernel(1, 0.2), cosh_gaussian_kernel(1, 0.2), arccos_kernel(1), ntk_kernel(),
                  rpf_expected_kernel(laplace_kernel(1), "square", "square", tolerance = 1e-3),
                  matern_kernel(c(1, 2, 1), 0.7), generalized_gaussian_kernel(1, 0.7), gaussian_kernel(c(1, 2, 3)),
                  radial_kernel(function(r) exp(-r^2 / 2)), gaussian_kernel(1) - 2 * gaussian_kernel(3),
                  matern_kernel(1, 1.5) * shift_gaussian_kernel(1, 0.3),
                  with_settings(gaussian_kernel(1) - gaussian_kernel(3), split = "jordan", accuracy = 1e-4))
  consumers <- list(
    kernel_matrix = function(k) kernel_matrix(k, if (k$name %in% c("arccos", "ntk")) sphere3 else x3),
    rff_map = function(k) rff_map(k, 3, 4, seed = 1),
    spectral_measure = function(k) spectral_measure(k, 3),
    print = function(k) utils::capture.output(print(k)),
    radial_density = function(k) radial_density(k, 3, c(0.5, 1)))
  cases <- unlist(lapply(kernels, object_cases, consumers = consumers, arg = "kernel",
                         extra_targets = c("sigma", "shift", "beta", "weights", "sigmas", "order", "settings", "tolerance", "nu", "power",
                                           "fun", "terms", "defaults", "split", "accuracy")),
                  recursive = FALSE)
  measure <- spectral_measure(shift_gaussian_kernel(1, 0.3), 3)
  measure_consumers <- list(print = function(m) utils::capture.output(print(m)), plot = function(m) plot(m))
  cases <- c(cases, object_cases(measure, measure_consumers, "x", c("kernel", "parts", "sigma", "shift")))
  fuzz_check(cases)
})

test_that("corrupted maps of every kind end in a result or a named error", {
  skip_on_cran()
  # a map from every frequency source of the core's table, then maps of
  # other measures, some from the sources their laws take by other routes
  # (lifts, scale mixtures, products)
  maps <- c(lapply(askrff:::frequency_sources(), function(method) rff_map(gaussian_kernel(1), 3, 8, method, seed = 1)), list(
    rff_map(laplace_kernel(1), 3, 8, seed = 1),
    rff_map(shift_gaussian_kernel(1, 0.3), 3, 8, seed = 1),
    rff_map(cosh_gaussian_kernel(1, 0.2), 3, 8, decomposition = "phase", seed = 1),
    rff_map(delta_gaussian_kernel(), 3, 8, seed = 1),
    rff_map(arccos_kernel(0), 3, 8, seed = 1),
    rff_map(ntk_kernel(), 3, 8, seed = 1),
    rff_map(shift_gaussian_kernel(1, 0.3), 3, 8, method = "qmc", allocation = "equal", seed = 1),
    rff_map(matern_kernel(c(1, 2, 1), 1.2), 3, 8, method = "qmc", seed = 1),
    rff_map(radial_kernel(function(r) exp(-r^2 / 2) - exp(-r^2 / 8)), 3, 8, seed = 1),
    rff_map(radial_kernel(function(r) exp(-r)), 3, 8, route = "lp", tolerance = 0.02, z_max = 3, seed = 1),
    rff_map(gaussian_kernel(1) - gaussian_kernel(3), 3, 8, split = "jordan", seed = 1),
    rff_map(matern_kernel(1, 1.5) * shift_gaussian_kernel(1, 0.3), 3, 8, method = "qmc", seed = 1),
    rff_map(rational_quadratic_kernel(c(1, 2, 1), 2), 3, 8, method = "structured", seed = 1)))
  consumers <- list(
    rff_features = function(m) rff_features(m, if (m$parts$features[1] == "trig") x3 else sphere3, n_threads = 1),
    rff_kernel_matrix = function(m) rff_kernel_matrix(m, if (m$parts$features[1] == "trig") x3 else sphere3, n_threads = 1),
    total_masses = function(m) total_masses(m),
    print = function(m) utils::capture.output(print(m), print(summary(m))))
  cases <- unlist(lapply(maps, object_cases, consumers = consumers, arg = "map",
                         extra_targets = c("x$", "object$", "sigma", "shift", "beta", "weights", "part", "parts", "nu",
                                           "fun", "terms", "defaults", "split", "accuracy")),
                  recursive = FALSE)
  fuzz_check(cases)
})

test_that("corrupted random periodic maps and packed bits end in a result or a named error", {
  pmap <- rpf_map(delta_gaussian_kernel(c(1, 0.5), c(1, 2)), 3, 12, seed = 1)
  packed <- rpf_pack(rpf_features(pmap, x3, "square"))
  map_consumers <- list(
    rpf_features = function(m) rpf_features(m, x3, "square", n_threads = 1),
    rpf_kernel_matrix = function(m) rpf_kernel_matrix(m, x3, x3, n_threads = 1),
    print = function(m) utils::capture.output(print(m)))
  packed_consumers <- list(
    rpf_kernel_matrix = function(p) rpf_kernel_matrix(pmap, p, x3, n_threads = 1),
    both_packed = function(p) rpf_kernel_matrix(pmap, p, p, right = "square", n_threads = 1),
    as_matrix = function(p) as.matrix(p),
    print = function(p) utils::capture.output(print(p)))
  quantizer_consumers <- list(
    rpf_features = function(q) rpf_features(pmap, x3, q, n_threads = 1),
    print = function(q) utils::capture.output(print(q)))
  fuzz_check(c(object_cases(pmap, map_consumers, "map", c("x$", "kernel", "weights", "sigmas")),
               object_cases(packed, packed_consumers, "x", c("y$", "p$", "bits", "n_features")),
               object_cases(rpf_quantizer(3), quantizer_consumers, "fun", c("x$", "name"))))
})

test_that("the memory errors, hangs and NaNs the first campaign found are gone", {
  map <- rff_map(gaussian_kernel(1), 3, 20, seed = 1)
  pmap <- rpf_map(gaussian_kernel(1), 3, 20, seed = 1)
  packed <- rpf_pack(rpf_features(pmap, x3, "square"))
  edit <- function(object, field, value) {
    object[[field]] <- value
    object
  }
  cases <- list(
    case("omega with an extra column", function() rff_features(edit(map, "omega", cbind(map$omega, 1)), x3), "map$omega"),
    case("part index 0", function() rff_features(edit(map, "part", replace(map$part, 1, 0L)), x3), "map$part"),
    case("part truncated", function() rff_features(edit(map, "part", map$part[1:10]), x3), "map$part"),
    case("phase truncated", function() rff_features(edit(map, "phase", map$phase[1:10]), x3), "map$phase"),
    case("d edited", function() rff_features(edit(map, "d", 2L), x3[, 1:2]), "map$"),
    case("n_features 0", function() rff_features(edit(map, "n_features", 0), x3), "map$n_features"),
    case("n_features 1000", function() rff_features(edit(map, "n_features", 1000), x3), "map$omega"),
    case("negative mass", function() rff_features(edit(map, "parts", transform(map$parts, mass = -1)), x3), "mass"),
    case("NA coefficient", function() rff_features(edit(map, "parts", transform(map$parts, coefficient = NA)), x3), "coefficient"),
    case("NA omega", function() rff_features(edit(map, "omega", replace(map$omega, 1, NA)), x3), "map$omega"),
    case("short dither", function() rpf_features(edit(pmap, "dither", pmap$dither[1:3]), x3), "map$dither"),
    case("extra omega rows", function() rpf_features(edit(pmap, "omega", rbind(pmap$omega, 1)), x3), "map$omega"),
    case("packed with fewer rows", function() rpf_kernel_matrix(pmap, edit(packed, "bits", packed$bits[1, , drop = FALSE]), x3), "x$bits"),
    case("packed with fewer points", function() as.matrix(edit(packed, "bits", packed$bits[, 0, drop = FALSE])), "x$bits"),
    case("numeric packed bits", function() as.matrix(edit(packed, "bits", matrix(1, 3, 5))), "x$bits"),
    case("short sigmas", function() kernel_matrix(edit(delta_gaussian_kernel(), "params", list(weights = c(1, -1), sigmas = 1)), x3), "sigmas"),
    case("quantizer with 99 bits", function() rpf_features(pmap, x3, edit(rpf_quantizer(2), "name", "99-bit quantizer")), "fun$name"),
    case("huge shift ratio", function() rff_map(shift_gaussian_kernel(1e300, 0.3), 3, 4, seed = 1), "sigma"),
    case("NA shift", function() spectral_measure(edit(shift_gaussian_kernel(1, 0.3), "params", list(sigma = 1, shift = NA)), 3), "shift"),
    case("shifted data far apart", function() kernel_matrix(shift_gaussian_kernel(1, 0.3), x3 * 1e155), "x"),
    case("tiny z_max", function() rff_map(arccos_kernel(0), 3, 4, route = "stationary", z_max = 1e-300, seed = 1), "z_max"),
    case("masses of badly scaled data", function() estimate_total_masses(rff_map(shift_gaussian_kernel(1, 0.3), 3, 64, seed = 1), x3 * 1e155), "x_subset"),
    case("huge shift", function() rff_map(shift_gaussian_kernel(1, 1e300), 3, 4, seed = 1), "shift"))
  fuzz_check(cases)
})


test_that("ridge fits, their arguments and the basis term end in a result or a named error", {
  skip_on_cran()
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  y <- x3[, 1] + x3[, 2]^2
  fit <- rff_ridge(x3, y, map, lambda = 0.5)
  calls <- list(
    rff_ridge = list(fun = rff_ridge, args = list(x = x3, y = y, map = map, lambda = 0.5, weights = rep(1, 5),
                                                  standardize = FALSE, scale = NULL, ard = FALSE, fun = NULL, n_threads = 1)),
    rff_ridge_kernel = list(fun = function(kernel, n_features, method, seed, standardize) {
      rff_ridge(x3, y, kernel = kernel, n_features = n_features, method = method, seed = seed, standardize = standardize,
                lambda = 0.5)
    }, args = list(kernel = gaussian_kernel(1), n_features = 4, method = "iid", seed = 1, standardize = TRUE)),
    predict = list(fun = getS3method("predict", "askrff_ridge"),
                   args = list(object = fit, newdata = x3, type = "response", n_threads = 1)),
    predict_interval = list(fun = getS3method("predict", "askrff_ridge"),
                            args = list(object = fit, newdata = x3, se.fit = TRUE, interval = "prediction",
                                        level = 0.9)),
    simulate = list(fun = getS3method("simulate", "askrff_ridge"),
                    args = list(object = fit, nsim = 2, seed = 1, newdata = x3, noise = TRUE, n_threads = 1)),
    rff_effects = list(fun = rff_effects, args = list(fit = fit, newdata = x3, variables = 1:2, type = "difference",
                                                      prediction = "link", se = TRUE, vcov = "sampling",
                                                      level = 0.9, offset = NULL, n_threads = 1)),
    set_coef = list(fun = askrff:::set_coef.askrff_ridge, args = list(model = fit, coefs = rep(0.1, 17))),
    get_predict = list(fun = askrff:::get_predict.askrff_ridge, args = list(model = fit, newdata = x3)),
    rff_basis = list(fun = function(kernel, n_features, method, seed, standardize, map) {
      rff_basis(x3[, 1], x3[, 2], kernel = kernel, n_features = n_features, method = method, seed = seed,
                standardize = standardize, map = map)
    }, args = list(kernel = gaussian_kernel(1), n_features = 4, method = "iid", seed = 1, standardize = TRUE, map = NULL)))
  # predict() gives NA for a row with a missing value, by design: such
  # data are checked below for exactly that
  cases <- unlist(lapply(names(calls), function(name) {
    spec <- calls[[name]]
    unlist(lapply(names(spec$args), function(arg) {
      values <- if (arg %in% c("x", "y", "newdata")) c(bad_values, bad_data(3)) else bad_values
      if (arg == "tau") {
        values <- c(values, list(one = 1, duplicated = c(0.5, 0.2, 0.5), matrix = matrix(c(0.2, 0.5)),
                                 outside = c(0.5, 1.5), tiny = 1e-300))
      }
      if (arg == "newdata") values <- values[setdiff(names(values), c("na", "nan"))]
      argument_cases(name, spec$fun, spec$args, arg, values)
    }), recursive = FALSE)
  }), recursive = FALSE)
  cases <- c(cases, lapply(c("na", "nan"), function(value) {
    case(sprintf("predict(newdata = <%s>) is NA in that row only", value), function() {
      got <- predict(fit, bad_data(3)[[value]], interval = "prediction")
      if (!all(is.na(got[2, ])) || anyNA(got[-2, ])) stop("NA in the wrong rows")
      got[-2, ]
    }, "newdata")
  }))
  cases <- c(cases, lapply(names(bad_values), function(value) {
    case(sprintf("rff_basis(<%s>)", value), function() rff_basis(bad_values[[value]], kernel = gaussian_kernel(1), n_features = 4),
         c("...", "Variable 1"))
  }))
  consumers <- list(print = function(f) utils::capture.output(print(f)), coef = function(f) coef(f),
                    predict = function(f) predict(f, x3), plot = function(f) plot(f), fitted = function(f) fitted(f),
                    residuals = function(f) residuals(f),
                    interval = function(f) predict(f, x3, interval = "confidence"),
                    simulate = function(f) simulate(f, nsim = 2, seed = 1, newdata = x3),
                    effects = function(f) summary(rff_effects(f, x3)),
                    vcov = function(f) askrff:::get_vcov.askrff_ridge(f))
  fields <- c("coefficients", "intercept", "path", "lambda", "response", "map", "rss", "fitted", "residuals", "n", "fun",
              "posterior", "scaling", "weights")
  cases <- c(cases, object_cases(fit, consumers, "fit", fields))
  scaled <- rff_ridge(x3, y, map, lambda = 0.5, standardize = TRUE, weights = c(1, 2, 1, 2, 0.5))
  cases <- c(cases, object_cases(scaled, consumers, "fit", fields))
  fuzz_check(cases)
})

test_that("formula fits, their arguments and their saved designs end in a result or a named error", {
  skip_on_cran()
  frame <- data.frame(y = x3[, 1] + x3[, 2]^2, a = x3[, 1], b = x3[, 2], g = factor(c("u", "v", "u", "w", "v")),
                      w = c(1, 2, 1, 1, 2))
  formula_fit <- function(formula, data, kernel, n_features, map, subset, weights, na.action, contrasts, standardize,
                          lambda, method, seed, n_threads) {
    args <- list(formula = formula, data = data, kernel = kernel, n_features = n_features, map = map, subset = subset,
                 weights = weights, na.action = na.action, contrasts = contrasts, standardize = standardize,
                 lambda = lambda, method = method, seed = seed, n_threads = n_threads)
    do.call(rff_ridge, Filter(Negate(is.null), args))
  }
  args <- list(formula = y ~ a + b + g, data = frame, kernel = gaussian_kernel(1), n_features = 4, map = NULL,
               subset = rep(TRUE, 5), weights = frame$w, na.action = stats::na.omit, contrasts = NULL,
               standardize = TRUE, lambda = 0.5, method = "iid", seed = 1, n_threads = 1)
  bad_frames <- list(empty = frame[0, ], no_response = frame[, -1], factor_response = transform(frame, y = g),
                     character_predictor = transform(frame, a = letters[1:5]), all_na = transform(frame, a = NA_real_),
                     list = as.list(frame), matrix = as.matrix(frame))
  cases <- unlist(lapply(setdiff(names(args), "formula"), function(arg) {
    values <- if (arg == "data") c(bad_values, bad_frames) else bad_values
    argument_cases("rff_ridge.formula", formula_fit, args, arg, values)
  }), recursive = FALSE)
  formulas <- list(no_response = ~ a, constant = y ~ 1, unknown = y ~ nothing, expression = y ~ log(a),
                   interaction = y ~ a * g, dot = y ~ ., string = "y ~ a", number = 3)
  cases <- c(cases, lapply(names(formulas), function(name) {
    case(sprintf("rff_ridge(<%s formula>)", name),
         function() rff_ridge(formulas[[name]], frame, kernel = gaussian_kernel(1), n_features = 4, lambda = 0.5),
         c("formula", "predictor", "response", "data"))
  }))
  fit <- rff_ridge(y ~ a + g, frame, kernel = gaussian_kernel(1), n_features = 4, seed = 1, lambda = 0.5,
                   na.action = stats::na.exclude)
  # rows with a missing predictor predict NA, by design
  new_frames <- c(bad_frames[names(bad_frames) != "all_na"],
                  list(new_level = transform(frame, g = factor(c("u", "z", "u", "w", "v"))), vector = frame$a))
  cases <- c(cases, lapply(names(new_frames), function(name) {
    case(sprintf("predict(formula fit, <%s>)", name), function() predict(fit, new_frames[[name]], interval = "prediction"),
         "newdata")
  }), list(case("predict(formula fit, <all_na>) is NA", function() {
    if (!all(is.na(predict(fit, bad_frames$all_na, interval = "prediction")))) stop("a prediction without data")
    0
  }, "newdata")))
  consumers <- list(print = function(f) utils::capture.output(print(f)), predict = function(f) predict(f, frame),
                    fitted = function(f) fitted(f), interval = function(f) predict(f, frame, se.fit = TRUE),
                    effects = function(f) summary(rff_effects(f, frame)))
  cases <- c(cases, object_cases(fit, consumers, "fit", c("design", "terms", "xlevels", "posterior", "map", "scaling")))
  fuzz_check(cases)
})

# Every function that takes a map made in R, on data `x` it can take.
map_consumers <- function(x) {
  list(rff_features = function(m) rff_features(m, x, "right", n_threads = 1),
       rff_kernel_matrix = function(m) rff_kernel_matrix(m, x, n_threads = 1),
       predict = function(m) predict(m, x),
       n_feature_columns = function(m) n_feature_columns(m),
       rff_ridge = function(m) rff_ridge(x, x[, 1], m, lambda = 1),
       print = function(m) utils::capture.output(print(m)))
}

test_that("Nyström maps, their landmarks and studies end in a result or a named error", {
  skip_on_cran()
  landmarks <- x3[1:3, ]
  kernels <- list(gaussian_kernel(1), gaussian_kernel(0.5) - 0.5 * gaussian_kernel(2), shift_gaussian_kernel(1, 0.3))
  maps <- lapply(kernels, nystrom_map, landmarks = landmarks)
  cases <- unlist(lapply(maps, object_cases, consumers = map_consumers(x3), arg = "map",
                         extra_targets = c("x$", "object$", "sigma", "shift", "terms")), recursive = FALSE)
  calls <- list(
    nystrom_map = list(fun = nystrom_map, args = list(kernel = kernels[[2]], landmarks = landmarks, rank = 2,
                                                     tolerance = 1e-8, n_threads = 1)),
    nystrom_landmarks = list(fun = nystrom_landmarks, args = list(x = x3, n = 2, method = "kmeans++", seed = 1)),
    approximation_study = list(fun = approximation_study,
                               args = list(kernel = kernels[[1]], x = x3, y = x3, n_features = 2, methods = "iid",
                                           trials = 2, metrics = "frobenius", seed = 1, per_pair = TRUE,
                                           n_threads = 1)))
  cases <- c(cases, unlist(lapply(names(calls), function(name) {
    spec <- calls[[name]]
    unlist(lapply(names(spec$args), function(arg) {
      values <- if (arg %in% c("x", "y", "landmarks")) c(bad_values, bad_data(3)) else bad_values
      argument_cases(name, spec$fun, spec$args, arg, values)
    }), recursive = FALSE)
  }), recursive = FALSE))
  # a custom method's draw and gram returning anything at all
  custom_study <- function(draw, gram = NULL) {
    approximation_study(kernels[[1]], x3, n_features = 2, trials = 2, metrics = "frobenius", seed = 1,
                        methods = list(mine = list(type = "custom", draw = draw, gram = gram)))
  }
  cases <- c(cases, unlist(lapply(names(bad_values), function(value) {
    list(case(sprintf("custom draw returning <%s>", value), function() custom_study(function(n, s) bad_values[[value]]),
              "methods"),
         case(sprintf("custom gram returning <%s>", value),
              function() custom_study(function(n, s) rff_map(kernels[[1]], 3, n, seed = s),
                                      function(map, x, y) bad_values[[value]]), "methods"),
         case(sprintf("custom draw = <%s>", value), function() custom_study(bad_values[[value]]), "methods"))
  }), recursive = FALSE))
  study <- approximation_study(kernels[[1]], x3, n_features = 2, trials = 2, metrics = "frobenius", seed = 1)
  study_consumers <- list(print = function(s) utils::capture.output(print(s)),
                          summary = function(s) utils::capture.output(print(summary(s))), plot = function(s) plot(s))
  cases <- c(cases, object_cases(study, study_consumers, "x", c("object", "method", "n_features", "trial", "frobenius")))
  fuzz_check(cases)
})

test_that("every kind of map in the registry: bad constructor arguments and edited maps end in a result or a named error", {
  skip_on_cran()
  registry <- askrff:::map_kind_registry
  cases <- unlist(lapply(names(registry), function(kind) {
    entry <- registry[[kind]]
    args <- entry$example()
    constructor <- getExportedValue("askrff", kind)
    arguments <- unlist(lapply(names(args), function(arg) {
      values <- if (arg %in% c("x", "landmarks")) c(bad_values, bad_data(3)) else bad_values
      argument_cases(kind, constructor, args, arg, values)
    }), recursive = FALSE)
    map <- do.call(constructor, args, quote = TRUE)
    # the consumers that reach every path of a map (validation, the core's
    # reader, printing); the kinds' own blocks try the rest
    consumers <- map_consumers(if (entry$sphere) sphere3 else x3)[c("rff_kernel_matrix", "predict", "print")]
    c(arguments, object_cases(map, consumers, "map",
                              c("x$", "object$", "kernel", "sigma", "terms", "weights", "a", "p", "landmarks")))
  }), recursive = FALSE)
  fuzz_check(cases)
})

test_that("Random Maclaurin and Tensor Sketch maps of a signed expansion end in a result or a named error", {
  skip_on_cran()
  kernel <- 2 * poly_sphere_kernel(2, 2) - poly_sphere_kernel(3, 1)
  maps <- list(maclaurin_map(kernel, d = 3, n_features = 6, seed = 1),
               tensor_sketch_map(kernel, d = 3, n_features = 6, seed = 1))
  cases <- unlist(lapply(maps, object_cases, consumers = map_consumers(sphere3), arg = "map",
                         extra_targets = c("x$", "object$", "terms", "weights", "a", "p")), recursive = FALSE)
  calls <- list(
    maclaurin_map = list(fun = maclaurin_map, args = list(kernel = kernel, d = 3, n_features = 6, seed = 1)),
    tensor_sketch_map = list(fun = tensor_sketch_map, args = list(kernel = kernel, d = 3, n_features = 6, seed = 1)))
  cases <- c(cases, unlist(lapply(names(calls), function(name) {
    spec <- calls[[name]]
    unlist(lapply(names(spec$args), function(arg) argument_cases(name, spec$fun, spec$args, arg, bad_values)),
           recursive = FALSE)
  }), recursive = FALSE))
  fuzz_check(cases)
})

test_that("the second campaign's crashes, injections, overflows and late refusals are gone", {
  x <- fixture_points(20, 3)
  fit <- rff_ridge(x, x[, 1], rff_map(gaussian_kernel(1), 3, 8, seed = 1), lambda = 0.1)
  injected_fit <- fit
  injected_fit$map$kernel$params$sigma <- injection
  sphere <- normalize_rows(x[1:3, ])
  rm <- maclaurin_map(poly_sphere_kernel(2, 1), 3, 8, seed = 1)
  ts <- tensor_sketch_map(poly_sphere_kernel(2, 1), 3, 8, seed = 1)
  cases <- list(
    case("24 Delta-Gaussian factors", function() spectral_measure(Reduce(`*`, rep(list(delta_gaussian_kernel()), 24)), 3),
         "kernel"),
    case("12 Sinh-Gaussian factors", function() rff_map(Reduce(`*`, rep(list(sinh_gaussian_kernel(1, 0.3)), 12)), 3, 8),
         "kernel"),
    case("32 Sinh-Gaussian factors' features", function() {
      rff_features(rff_map(Reduce(`*`, rep(list(sinh_gaussian_kernel(1, 0.3)), 32)), 3, 8, seed = 1), x)
    }, "kernel"),
    case("an expression as a fit's sigma, printed", function() utils::capture.output(print(injected_fit)), "sigma"),
    case("an expression as a fit's sigma, predicted", function() predict(injected_fit, x), "sigma"),
    case("an expression as a fit's sigma, plotted", function() plot(injected_fit), "sigma"),
    case("an expression as a fit's sigma, fitted", function() fitted(injected_fit), "sigma"),
    case("structured map of 1e9 frequencies", function() rff_map(gaussian_kernel(1), 3, 1e9, method = "structured"),
         "frequency matrix"),
    case("Random Maclaurin map of 1e9 columns", function() maclaurin_map(poly_sphere_kernel(2, 1), 3, 1e9), "map"),
    case("Random Maclaurin map in d = 1e9", function() maclaurin_map(poly_sphere_kernel(2, 1), 1e9, 8), "map"),
    case("Tensor Sketch map in d = 1e9", function() tensor_sketch_map(poly_sphere_kernel(2, 1), 1e9, 8), "count sketches"),
    case("abs() of a kernel", function() abs(gaussian_kernel(1)), "abs()"),
    case("sum() of a kernel", function() sum(gaussian_kernel(1)), "sum()"),
    case("plot(fit, log = \"y\")", function() plot(fit, log = "y"), "..."),
    case("plot(fit, xlim = c(-1, 1))", function() plot(fit, xlim = c(-1, 1)), "..."),
    case("a study whose Nyström landmarks exceed the points at its largest size", function() {
      approximation_study(gaussian_kernel(1), x[1:6, ], n_features = c(3, 8), methods = c("iid", "nystrom"), trials = 2,
                          seed = 1)
    }, "methods$nystrom"),
    case("a shift map whose real_neg part has no frequency, plotted",
         function() plot(rff_map(shift_gaussian_kernel(2, 0.5), 4, 32, seed = 1)), "x"),
    case("responses of 1e160", function() rff_ridge(x, x[, 1] * 1e160, fit$map), "y"),
    case("a response of 1e308", function() rff_ridge(x, replace(x[, 1], 1, 1e308), fit$map), "y"),
    case("coefficients of 1e308", function() {
      edited <- fit
      edited$coefficients[] <- 1e308
      predict(edited, x)
    }, "coefficients"))
  # a plot with graphical arguments and one of a part without frequencies
  # succeed; every other case refuses, or (the study) warns of its NA rows
  succeeding <- c("plot(fit, log = \"y\")", "a shift map whose real_neg part has no frequency, plotted")
  threads_cases <- unlist(lapply(list(0, -1, NA, 2.5, "2", 1e9), function(threads) {
    list(case(sprintf("Random Maclaurin features with n_threads = %s", format(threads)),
              function() rff_features(rm, sphere, n_threads = threads), "n_threads"),
         case(sprintf("Tensor Sketch Gram matrix with n_threads = %s", format(threads)),
              function() rff_kernel_matrix(ts, sphere, n_threads = threads), "n_threads"),
         case(sprintf("Random Maclaurin ridge with n_threads = %s", format(threads)),
              function() rff_ridge(sphere, sphere[, 1], rm, lambda = 1, n_threads = threads), "n_threads"),
         case(sprintf("Tensor Sketch features with options(askrff.threads = %s)", format(threads)), function() {
           old <- options(askrff.threads = threads)
           on.exit(options(old))
           rff_features(ts, sphere)
         }, "askrff.threads"))
  }), recursive = FALSE)
  cases <- c(cases, threads_cases)
  outcomes <- fuzz_check(cases)
  labels <- vapply(cases, `[[`, "", "label")
  expect_identical(labels[outcomes != "named"], succeeding)
})

test_that("the third campaign's classes end in a fit or a named error: scaled weights, extreme scales, duplicated penalties, edited terms", {
  skip_on_cran()
  x <- fixture_points(40, 3)
  y <- x[, 1] + x[, 2]^2
  frame <- data.frame(y = y, a = x[, 1], b = x[, 2], g = factor(rep(c("u", "v"), 20)))
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  w <- seq(0.2, 2, length.out = 40)
  weights <- list(`w * 1e300` = w * 1e300, `w * 1e-300` = w * 1e-300, `1e-300 and 1e300` = rep(c(1e-300, 1e300), 20),
                  `one positive` = replace(numeric(40), 3, 1e-300))
  cases <- unlist(lapply(names(weights), function(name) list(
    case(sprintf("rff_ridge(weights = <%s>)", name), function() rff_ridge(x, y, map, weights = weights[[name]]), "weights"),
    case(sprintf("rff_glm(weights = <%s>)", name), function() rff_glm(x, y > 1, map, weights = weights[[name]]), "weights"))),
    recursive = FALSE)
  scales <- list(`1e-8 and 1e8` = c(1e-8, 1e8), `1e-300 and 1` = c(1e-300, 1), `1e300` = 1e300,
                 `ARD 1e-8 to 1e8` = matrix(c(1e-8, 1, 1e8), 1))
  cases <- c(cases, unlist(lapply(names(scales), function(name) {
    ard <- is.matrix(scales[[name]])
    list(case(sprintf("rff_ridge(scale = <%s>)", name), function() {
      rff_ridge(x, y, kernel = gaussian_kernel(1), n_features = 8, scale = scales[[name]], ard = ard, seed = 1)
    }, "scale"),
    case(sprintf("rff_glm(scale = <%s>)", name), function() {
      rff_glm(x, y > 1, kernel = gaussian_kernel(1), n_features = 8, scale = scales[[name]], ard = ard, seed = 1)
    }, "scale"),
    case(sprintf("rff_glm(scale = <%s>, scale_by = \"cv\")", name), function() {
      rff_glm(x, y > 1, kernel = gaussian_kernel(1), n_features = 8, scale = scales[[name]], ard = ard, seed = 1,
              scale_by = "cv")
    }, "scale"))
  }), recursive = FALSE))
  cases <- c(cases, list(
    case("rff_ridge(lambda = c(1, 1))", function() rff_ridge(x, y, map, lambda = c(1, 1)), "lambda"),
    case("rff_glm(lambda = c(0.5, 2, 0.5))", function() rff_glm(x, y > 1, map, lambda = c(0.5, 2, 0.5)), "lambda")))
  # a saved formula fit whose terms were edited: model.frame() evaluates
  # them in new data, as predict.lm() does, and a failure names `newdata`
  ridge <- rff_ridge(y ~ a + g, frame, n_features = 8, seed = 1)
  glm <- rff_glm(g ~ a + b, frame, n_features = 8, seed = 1)
  edits <- list(
    `terms of another formula` = function(fit) {
      fit$design$terms <- stats::terms(y ~ nonexistent)
      fit
    },
    `predvars naming a missing variable` = function(fit) {
      attr(fit$design$terms, "predvars") <- quote(list(nonexistent, g))
      fit
    },
    `terms as a string` = function(fit) {
      fit$design$terms <- "y ~ a"
      fit
    },
    `terms in an empty environment` = function(fit) {
      environment(fit$design$terms) <- emptyenv()
      fit
    },
    `a number as the response` = function(fit) {
      fit$design$response <- 42
      fit
    })
  for (name in names(edits)) {
    edited_ridge <- edits[[name]](ridge)
    edited_glm <- edits[[name]](glm)
    cases <- c(cases, list(
      case(sprintf("predict(ridge with %s)", name), function() predict(edited_ridge, frame), c("newdata", "design")),
      case(sprintf("augment(ridge with %s)", name), function() generics::augment(edited_ridge, newdata = frame),
           c("newdata", "design")),
      case(sprintf("predict(glm with %s)", name), function() predict(edited_glm, frame), c("newdata", "design")),
      case(sprintf("augment(glm with %s)", name), function() generics::augment(edited_glm, data = frame),
           c("data", "design"))))
  }
  fuzz_check(cases)
})

test_that("chunk sources, progress and future plans end in a fit or a named error", {
  skip_on_cran()
  map <- rff_map(rational_quadratic_kernel(c(1, 2, 1), 2), 3, 8, seed = 1)
  chunk <- function(rows) list(x = x3[rows, , drop = FALSE], y = x3[rows, 1])
  good <- list(chunk(1:3), chunk(4:5))
  fit_chunks <- function(source) rff_ridge(source, map = map, lambda = 1)
  cases <- list()
  for (value in names(c(bad_values, bad_data(3)))) {
    bad <- c(bad_values, bad_data(3))[[value]]
    cases <- c(cases, list(
      case(sprintf("chunk 2 replaced by <%s>", value), function() fit_chunks(list(good[[1]], bad)), "chunk 2"),
      case(sprintf("chunk 2's x replaced by <%s>", value), function() {
        fit_chunks(list(good[[1]], list(x = bad, y = good[[2]]$y)))
      }, "chunk 2"),
      case(sprintf("chunk 2's y replaced by <%s>", value), function() {
        fit_chunks(list(good[[1]], list(x = good[[2]]$x, y = bad)))
      }, "chunk 2"),
      case(sprintf("a reader returning <%s> second", value), function() {
        i <- 0L
        fit_chunks(function() {
          i <<- i + 1L
          if (i == 1L) good[[1]] else if (i == 2L) bad else NULL
        })
      }, c("chunk 2", "x")),
      case(sprintf("the source <%s>", value), function() fit_chunks(bad), "x")))
  }
  cases <- c(cases, list(
    case("a reader that fails", function() fit_chunks(function() stop("disk on fire")), "chunk 1"),
    case("chunks under progressr", function() progressr::with_progress(fit_chunks(good), handlers = progressr::handler_void()),
         "x"),
    case("a bad chunk under progressr", function() {
      progressr::with_progress(fit_chunks(list(good[[1]], list(x = "a", y = 1))), handlers = progressr::handler_void())
    }, "chunk 2")))
  # a worker's failure comes back as the package's error, named by its chunk
  if (requireNamespace("future", quietly = TRUE) && !nzchar(Sys.getenv("ASKRFF_SANITIZE"))) {
    old_plan <- future::plan(future::multisession, workers = 2)
    on.exit(future::plan(old_plan), add = TRUE)
    cases <- c(cases, list(
      case("chunks on two workers", function() fit_chunks(good), "x"),
      case("an overflowing chunk on two workers", function() {
        fit_chunks(list(good[[1]], list(x = good[[2]]$x, y = good[[2]]$y * 1e200)))
      }, "chunk 2")))
  }
  fuzz_check(cases)
})

test_that("the campaign is as large as it claims", {
  skip_on_cran()  # the long campaigns above are skipped there
  counts <- table(fuzz_record$outcomes)
  message("fuzz cases: ", paste(names(counts), counts, sep = " = ", collapse = ", "))
  expect_gt(length(fuzz_record$outcomes), 20000)
})

test_that("the selection's criterion, scales and ARD, and fits that record a search, end in a result or a named error", {
  skip_on_cran()
  y <- x3[, 1] + x3[, 2]^2
  args <- list(x = x3, y = y, kernel = gaussian_kernel(1), n_features = 4, seed = 1, criterion = "evidence",
               scale = c(0.5, 2), ard = FALSE, n_threads = 1)
  cases <- unlist(lapply(c("criterion", "scale", "ard"), function(arg) {
    argument_cases("rff_ridge", rff_ridge, args, arg, bad_values)
  }), recursive = FALSE)
  optimizing <- modifyList(args, list(scale = "optimize", ard = TRUE, criterion = "gcv"))
  cases <- c(cases, argument_cases("rff_ridge", rff_ridge, optimizing, "ard", bad_values),
             argument_cases("rff_ridge", rff_ridge, optimizing, "scale", list(matrix = matrix(1, 2, 2), wide = matrix(1, 1, 4))),
             list(case("a scale search with a sphere kernel", function() {
               rff_ridge(sphere3, y, kernel = arccos_kernel(1), n_features = 4, scale = 2)
             }, "scale"), case("ARD with the Laplace kernel", function() {
               rff_ridge(x3, y, kernel = laplace_kernel(1), n_features = 4, scale = "optimize", ard = TRUE)
             }, "ard")))
  fit <- do.call(rff_ridge, optimizing)
  consumers <- list(print = function(f) utils::capture.output(print(f)), coef = function(f) coef(f),
                    predict = function(f) predict(f, x3), plot = function(f) plot(f), fitted = function(f) fitted(f))
  cases <- c(cases, object_cases(fit, consumers, "fit", c("selection", "criterion", "path", "lambda", "map")))
  edited <- fit
  cases <- c(cases, unlist(lapply(names(fit$selection), function(field) {
    lapply(names(corruptions), function(how) {
      edited$selection[field] <- list(corruptions[[how]](fit$selection[[field]]))
      case(sprintf("print on fit with selection$%s %s", field, how), function() utils::capture.output(print(edited)),
           c("selection", field))
    })
  }), recursive = FALSE))
  fuzz_check(cases)
})

test_that("fits with one lambda per response, shared_lambda and their fields end in a result or a named error", {
  skip_on_cran()
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  y <- cbind(a = x3[, 1] + x3[, 2]^2, b = x3[, 3])
  # given penalties keep every criterion of the path finite on five rows
  args <- list(x = x3, y = y, map = map, lambda = c(0.1, 1), criterion = "evidence", shared_lambda = FALSE,
               n_threads = 1)
  frame <- data.frame(a = y[, 1], b = y[, 2], u = x3[, 1], v = x3[, 2], w = x3[, 3])
  formula_args <- list(formula = cbind(a, b) ~ u + v + w, data = frame, map = map, lambda = c(0.1, 1),
                       criterion = "loo", shared_lambda = NULL)
  cases <- c(argument_cases("rff_ridge", rff_ridge, args, "shared_lambda", bad_values),
             argument_cases("rff_ridge", rff_ridge, args, "y", bad_data(2)),
             argument_cases("rff_ridge.formula", rff_ridge, formula_args, "shared_lambda", bad_values),
             list(case("rff_ridge(<factor>, shared_lambda = FALSE)", function() {
               rff_ridge(x3, factor(c("u", "v", "u", "v", "v")), map, shared_lambda = FALSE)
             }, "shared_lambda")))
  fit <- do.call(rff_ridge, args)
  search <- rff_ridge(x3, y, kernel = gaussian_kernel(1), n_features = 4, seed = 1, scale = c(0.5, 2), lambda = c(0.1, 1),
                      criterion = "gcv")
  consumers <- list(print = function(f) utils::capture.output(print(f)), coef = function(f) coef(f),
                    predict = function(f) predict(f, x3), plot = function(f) plot(f), fitted = function(f) fitted(f),
                    residuals = function(f) residuals(f),
                    interval = function(f) predict(f, x3, interval = "prediction", se.fit = TRUE),
                    summary = function(f) utils::capture.output(print(summary(f))))
  if (requireNamespace("generics", quietly = TRUE) && requireNamespace("tibble", quietly = TRUE)) {
    consumers <- c(consumers, list(tidy = function(f) generics::tidy(f, conf.int = TRUE),
                                   glance = function(f) generics::glance(f),
                                   augment = function(f) generics::augment(f, newdata = x3, interval = "confidence",
                                                                           se_fit = TRUE)))
  }
  fields <- c("coefficients", "intercept", "path", "lambda", "response", "map", "rss", "fitted", "residuals", "n",
              "posterior", "criterion", "selection")
  cases <- c(cases, object_cases(fit, consumers, "fit", fields), object_cases(search, consumers, "fit", fields))
  # the path's `response` column and the selection's row of lambdas edited
  responses <- list(unknown = c("a", "z"), missing = c("a", NA), one = c("a", "a"), factor = factor(c("a", "b")),
                    number = c(1, 2))
  cases <- c(cases, unlist(lapply(names(responses), function(name) {
    edited <- fit
    edited$path$response <- rep_len(responses[[name]], nrow(fit$path))
    lapply(names(consumers), function(consumer) {
      case(sprintf("%s on fit with path$response <%s>", consumer, name), function() consumers[[consumer]](edited),
           c("path$response", "fit"))
    })
  }), recursive = FALSE))
  lambdas <- list(column = search$selection$lambda[, 1L], wide = cbind(search$selection$lambda, 1),
                  other = search$selection$lambda * 2, na = search$selection$lambda * NA)
  cases <- c(cases, lapply(names(lambdas), function(name) {
    edited <- search
    edited$selection$lambda <- lambdas[[name]]
    case(sprintf("print on fit with selection$lambda <%s>", name), function() utils::capture.output(print(edited)),
         c("selection", "lambda"))
  }))
  fuzz_check(cases)
})

test_that("penalized GLM fits, their arguments and edited fits end in a result or a named error", {
  skip_on_cran()
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  y <- c(0, 1, 0, 1, 1)
  fit <- rff_glm(x3, y, map, lambda = c(1, 0.1), nfolds = 2)
  surv5 <- survival::Surv(c(1, 2, 3, 4, 5), c(1, 0, 1, 1, 0))
  cox <- rff_glm(x3, surv5, map, lambda = 1)
  frame <- data.frame(y = factor(c("a", "b", "a", "b", "b")), u = x3[, 1], v = x3[, 2], g = factor(c("p", "q", "p", "q", "p")))
  calls <- list(
    rff_glm = list(fun = rff_glm, args = list(x = x3, y = y, map = map, family = "binomial", tau = NULL, epsilon = NULL,
                                             lambda = 1, nfolds = 2,
                                             weights = NULL, kernel = NULL, n_features = NULL, method = "iid", seed = 1,
                                             standardize = FALSE, scale = NULL, ard = FALSE, scale_by = "evidence",
                                             fun = NULL, n_threads = 1,
                                             offset = NULL, probability = FALSE, ties = NULL)),
    rff_glm_formula = list(fun = getS3method("rff_glm", "formula"),
                           args = list(formula = y ~ u + v + g, data = frame, family = "binomial", tau = NULL,
                                       epsilon = NULL,
                                       kernel = gaussian_kernel(1), n_features = 4, map = NULL, weights = rep(1, 5),
                                       contrasts = NULL, standardize = TRUE, lambda = 1, nfolds = 2, scale = NULL,
                                       ard = FALSE, scale_by = "cv", method = "iid", seed = 1, fun = NULL,
                                       n_threads = 1, offset = rep(0.5, 5), probability = FALSE, ties = NULL)),
    predict = list(fun = getS3method("predict", "askrff_glm"),
                   args = list(object = fit, newdata = x3, type = "response", n_threads = 1)),
    # the levels of quantiles: any order, no duplicates, strictly within (0, 1)
    rff_glm_quantile = list(fun = rff_glm, args = list(x = x3, y = x3[, 1], map = map, family = "quantile",
                                                       tau = c(0.9, 0.1), lambda = 1)),
    # support vector regression's tube: one finite nonnegative number
    rff_glm_svr = list(fun = rff_glm, args = list(x = x3, y = x3[, 1], map = map, family = "epsilon_insensitive",
                                                  epsilon = 0.2, lambda = 1)),
    # survival times and their ties; the survival curve's times
    rff_glm_cox = list(fun = rff_glm, args = list(x = x3, y = surv5, map = map, family = "cox", ties = "breslow",
                                                  lambda = 1)),
    predict_cox = list(fun = getS3method("predict", "askrff_glm"),
                       args = list(object = cox, newdata = x3, type = "survival", times = c(0.5, 2.5), n_threads = 1)),
    rff_effects_glm = list(fun = rff_effects, args = list(fit = fit, newdata = x3, variables = 1:2, type = "derivative",
                                                          prediction = "response", se = TRUE, vcov = "posterior",
                                                          level = 0.9, offset = NULL, n_threads = 1)),
    get_predict_glm = list(fun = askrff:::get_predict.askrff_glm, args = list(model = fit, newdata = x3, type = "link")))
  # every argument of the fitting methods is fuzzed (subset and na.action by the formula tests)
  for (method in c("default", "formula")) {
    given <- names(calls[[if (method == "default") "rff_glm" else "rff_glm_formula"]]$args)
    missing <- setdiff(names(formals(getS3method("rff_glm", method))), c(given, "...", "subset", "na.action"))
    expect(length(missing) == 0L, sprintf("the fuzz suite does not fuzz rff_glm.%s()'s %s", method,
                                          paste(missing, collapse = ", ")))
  }
  cases <- unlist(lapply(names(calls), function(name) {
    spec <- calls[[name]]
    unlist(lapply(names(spec$args), function(arg) {
      values <- if (arg %in% c("x", "y", "newdata")) c(bad_values, bad_data(3)) else bad_values
      if (arg == "tau") {
        values <- c(values, list(one = 1, duplicated = c(0.5, 0.2, 0.5), matrix = matrix(c(0.2, 0.5)),
                                 outside = c(0.5, 1.5), tiny = 1e-300))
      }
      # a row of newdata with a missing value predicts NA, as predict.lm() does
      if (arg == "newdata") values[c("na", "nan")] <- NULL
      argument_cases(name, spec$fun, spec$args, arg, values)
    }), recursive = FALSE)
  }), recursive = FALSE)
  # data without the formula's variables leave the model frame unbuilt, which the error says naming `formula`
  cases <- lapply(cases, function(x) {
    if (startsWith(x$label, "rff_glm_formula(data =")) x$targets <- c(x$targets, "formula")
    x
  })
  # every family of the core's table: a response it refuses, and the
  # cross-validated path of one it takes, by the kind of response it takes
  responses <- list(two_classes = list(refused = factor(c("a", "b", "c", "a", "b")), taken = y),
                    classes = list(refused = c(0.5, 1, 2, 0, 1), taken = factor(c("a", "b", "c", "a", "b"))),
                    counts = list(refused = c(-1, 2, 0, 1, 3), taken = c(0, 2, 1, 1, 3)),
                    one_vs_rest = list(refused = c(0.5, 1, 2, 0, 1), taken = factor(c("a", "b", "c", "a", "b"))),
                    values = list(refused = factor(c("a", "b", "c", "a", "b")), taken = c(0.3, -1.2, 2, 0.7, 1.1)),
                    real = list(refused = factor(c("a", "b", "c", "a", "b")), taken = c(0.3, -1.2, 2, 0.7, 1.1)),
                    survival = list(refused = c(0.5, 1, 2, 0, 1), taken = surv5))
  for (traits in askrff:::model_families()) {
    response <- responses[[traits$response]]
    expect_false(is.null(response), info = sprintf("the fuzz suite has no responses of the kind \"%s\"", traits$response))
    cases <- c(cases, local({
      family <- traits$name
      refused <- response$refused
      taken <- response$taken
      list(case(sprintf("rff_glm(family = \"%s\") with a response it refuses", family),
                function() rff_glm(x3, refused, map, family = family, lambda = 1), "y"),
           case(sprintf("rff_glm(family = \"%s\") choosing lambda", family),
                function() rff_glm(x3, taken, map, family = family, nfolds = 2), "lambda"))
    }))
  }
  consumers <- list(print = function(f) utils::capture.output(print(f)), coef = function(f) coef(f),
                    predict = function(f) predict(f, x3, type = "response"),
                    classes = function(f) predict(f, x3, type = "class"), plot = function(f) plot(f),
                    fitted = function(f) fitted(f), effects = function(f) summary(rff_effects(f, x3)),
                    vcov = function(f) askrff:::get_vcov.askrff_glm(f))
  fields <- c("coefficients", "intercept", "path", "lambda", "response", "map", "family", "deviance", "n", "weight",
              "nfolds", "fun", "linear_predictors", "fold_seed", "passes", "likelihood")
  cases <- c(cases, object_cases(fit, consumers, "fit", fields))
  # a machine with Platt's sigmoids (on twenty rows, so that every fold's
  # refit sees both classes)
  svm <- rff_glm(rbind(x3, x3 + 0.1, x3 - 0.1, x3 + 0.2), rep(y, 4), map, family = "squared_hinge", lambda = 1,
                 nfolds = 2, seed = 1, probability = TRUE)
  cases <- c(cases, object_cases(svm, consumers, "fit", "platt"))
  # a fit of levels and of a loss with kinks: its `tau` and `smoothing`
  quantiles <- rff_glm(x3, c(0.3, -1.2, 2, 0.7, 1.1), map, family = "quantile", tau = c(0.25, 0.75), lambda = 1)
  consumers$classes <- NULL
  cases <- c(cases, object_cases(quantiles, consumers, "fit", c(fields, "tau", "smoothing")))
  # support vector regression's fit: its tube `epsilon`
  svr <- rff_glm(x3, c(0.3, -1.2, 2, 0.7, 1.1), map, family = "epsilon_insensitive", epsilon = 0.2, lambda = 1)
  cases <- c(cases, object_cases(svr, consumers, "fit", c(fields, "epsilon", "smoothing")))
  # a Cox fit: its ties, baseline hazard and concordance, and its survival curves
  consumers$survival <- function(f) predict(f, x3, type = "survival", times = c(0.5, 2.5))
  cases <- c(cases, object_cases(cox, consumers, "fit", c(fields, "ties", "baseline", "concordance")))
  # the rows of the preconditioners' Hessians, an option read at each fit
  rows_values <- c(bad_values[names(bad_values) != "NULL"], list(injection = injection))
  cases <- c(cases, lapply(names(rows_values), function(value_name) {
    case(sprintf("rff_glm() with options(askrff.hessian_rows = <%s>)", value_name), function() {
      old <- options(askrff.hessian_rows = rows_values[[value_name]])
      on.exit(options(old))
      rff_glm(x3, y, map, lambda = 1)
    }, "options(askrff.hessian_rows)")
  }))
  # the rows of the penalty path's sample, an option read at each fit that
  # chooses lambda, and a fit whose path took a sample: its `path_rows`
  cases <- c(cases, lapply(names(rows_values), function(value_name) {
    case(sprintf("rff_glm() with options(askrff.path_rows = <%s>)", value_name), function() {
      old <- options(askrff.path_rows = rows_values[[value_name]])
      on.exit(options(old))
      rff_glm(x3, y, map, nfolds = 2)
    }, "options(askrff.path_rows)")
  }))
  old <- options(askrff.path_rows = 20)
  sampled <- rff_glm(do.call(rbind, lapply(1:10, function(k) x3 + k / 10)), rep(y, 10), map, nfolds = 2, seed = 1)
  options(old)
  expect_false(is.null(sampled$path_rows))
  cases <- c(cases, object_cases(sampled, consumers, "fit", "path_rows"))
  fuzz_check(cases)
})

test_that("offsets in arguments, formulas, chunks and predictions, and fits that carry one, end in a result or a named error", {
  skip_on_cran()
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  o <- c(0.1, -0.2, 0.3, 0, 0.5)
  responses <- list(two_classes = c(0, 1, 0, 1, 1), counts = c(0, 2, 1, 1, 3), classes = factor(c("a", "b", "c", "a", "b")),
                    values = c(0.3, -1.2, 2, 0.7, 1.1), real = c(0.3, -1.2, 2, 0.7, 1.1),
                    survival = survival::Surv(c(1, 2, 3, 4, 5), c(1, 0, 1, 1, 0)))
  responses$one_vs_rest <- responses$classes
  # beside the usual bad values, offsets of the wrong shape or with a bad
  # entry, and legal ones the intercept-only model cannot fit
  values <- c(bad_values, list(column = matrix(o), two_columns = cbind(o, o), three_columns = cbind(o, o, o),
                               short = o[-1], na_entry = replace(o, 2, NA), nan_entry = replace(o, 2, NaN),
                               inf_entry = replace(o, 2, Inf), above_limit = replace(o, 2, 1e101), all_large = rep(1e100, 5),
                               spread = c(0, 2000, 0, 2000, 0), strings = as.character(o), listed = as.list(o),
                               frame = data.frame(o = o), integers = 1:5))
  # A ridge fit is checked by its coefficients and predictions: an offset
  # so large that y - offset rounds to a constant leaves an exact fit, whose
  # log evidence is -Inf by design (as for a constant response)
  ridge_result <- function(fit) list(coef(fit), predict(fit, x3, offset = o))
  fits <- list(ridge = function(offset) ridge_result(rff_ridge(x3, x3[, 1], map, lambda = 0.5, offset = offset)),
               ridge_chunk = function(offset) {
                 chunks <- list(list(x = x3, y = x3[, 1], offset = o), list(x = x3, y = x3[, 1], offset = offset))
                 ridge_result(rff_ridge(chunks, map = map, lambda = 0.5))
               })
  # every family of the core's table, on a response of its kind
  for (traits in askrff:::model_families()) {
    fits[[traits$name]] <- local({
      family <- traits$name
      y <- responses[[traits$response]]
      function(offset) rff_glm(x3, y, map, family = family, lambda = 1, offset = offset)
    })
  }
  fits$glm_chunk <- function(offset) {
    rff_glm(list(list(x = x3, y = responses$counts, offset = o), list(x = x3, y = responses$counts, offset = offset)),
            map = map, family = "poisson", lambda = 1)
  }
  frame <- data.frame(y = responses$counts, u = x3[, 1], v = x3[, 2], w = x3[, 3], e = exp(o))
  fits$formula_argument <- function(offset) {
    rff_glm(y ~ u + v + w, frame, family = "poisson", map = map, lambda = 1, offset = offset)
  }
  # (a list of variables: a data frame cannot hold a column of another length)
  fits$formula_term <- function(offset) {
    fit <- rff_ridge(y ~ u + v + w + offset(o), c(as.list(frame), list(o = offset)), map = map, lambda = 0.5)
    list(coef(fit), fitted(fit))
  }
  cases <- unlist(lapply(names(fits), function(name) {
    lapply(names(values), function(value) {
      case(sprintf("%s with offset <%s>", name, value), function() fits[[name]](values[[value]]), c("offset", "chunk 2"))
    })
  }), recursive = FALSE)
  # predictions of fits that carry an offset: a bad offset for new rows, or
  # new rows whose own offset is bad (NA predicts NA, by design)
  ridge <- rff_ridge(x3, x3[, 1], map, lambda = 0.5, offset = o)
  multinomial <- rff_glm(x3, responses$classes, map, family = "multinomial", lambda = 1, offset = cbind(o, -o, 2 * o))
  term <- rff_glm(y ~ u + v + w + offset(log(e)), frame, family = "poisson", map = map, lambda = 1)
  argument <- rff_ridge(y ~ u + v + w, frame, map = map, lambda = 0.5, offset = log(e))
  predictions <- list(ridge = function(offset) predict(ridge, x3, offset = offset, interval = "prediction"),
                      multinomial = function(offset) predict(multinomial, x3, offset = offset, type = "response"),
                      formula = function(offset) predict(term, frame, offset = offset))
  cases <- c(cases, unlist(lapply(names(predictions), function(name) {
    lapply(setdiff(names(values), c("na_entry", "nan_entry")), function(value) {
      case(sprintf("predict(%s, offset = <%s>)", name, value), function() predictions[[name]](values[[value]]), "offset")
    })
  }), recursive = FALSE))
  new_frames <- list(no_exposure = frame[, 1:4], character = transform(frame, e = letters[1:5]),
                     infinite = transform(frame, e = c(1, Inf, 1, 1, 1)), zero = transform(frame, e = c(1, 0, 1, 1, 1)),
                     factor = transform(frame, e = factor(1:5)))
  cases <- c(cases, unlist(lapply(names(new_frames), function(name) {
    list(case(sprintf("predict(offset() term, <%s>)", name), function() predict(term, new_frames[[name]]),
              c("newdata", "offset")),
         case(sprintf("predict(offset argument, <%s>)", name), function() predict(argument, new_frames[[name]]),
              c("newdata", "offset")))
  }), recursive = FALSE))
  consumers <- list(print = function(f) utils::capture.output(print(f)), predict = function(f) predict(f, x3, offset = o),
                    fitted = function(f) fitted(f), residuals = function(f) residuals(f))
  cases <- c(cases, object_cases(ridge, consumers, "fit", "offset"))
  glm_consumers <- list(predict = function(f) predict(f, frame, type = "response"), fitted = function(f) fitted(f))
  cases <- c(cases, object_cases(term, glm_consumers, "fit", c("design", "offset")))
  fuzz_check(cases)
})

test_that("the tidymodels doorways, their settings and edited steps end in a result or a named error", {
  skip_on_cran()
  skip_if_not_installed("recipes")
  skip_if_not_installed("dials")
  skip_if_not_installed("survival")
  frame <- data.frame(y = x3[, 1], a = x3[, 2], b = x3[, 3])
  survival_frame <- data.frame(time = c(frame$y, 1:3), event = c(1, 0, 1, 1, 0, 1, 1, 0), a = c(x3[, 2], 1:3),
                               b = c(x3[, 3], 3:1))
  survival_fit <- rff_cox_train(survival::Surv(time, event) ~ a + b, survival_frame, penalty = 0.1, n_features = 4,
                                seed = 1)
  step_prep_bake <- function(kernel, scale, n_features, method, standardize, prefix, keep_original_cols, seed) {
    rec <- step_rff(recipes::recipe(y ~ ., data = frame), a, b, kernel = kernel, scale = scale,
                    n_features = n_features, method = method, standardize = standardize, prefix = prefix,
                    keep_original_cols = keep_original_cols, seed = seed)
    recipes::bake(recipes::prep(rec, frame), new_data = frame)
  }
  pca_prep_bake <- function(num_comp, kernel, scale, n_features, method, standardize, prefix, keep_original_cols,
                            seed) {
    rec <- step_rff_pca(recipes::recipe(y ~ ., data = frame), a, b, num_comp = num_comp, kernel = kernel,
                        scale = scale, n_features = n_features, method = method, standardize = standardize,
                        prefix = prefix, keep_original_cols = keep_original_cols, seed = seed)
    recipes::bake(recipes::prep(rec, frame), new_data = frame)
  }
  cluster_prep_bake <- function(num_clusters, kernel, scale, n_features, method, standardize, n_starts, prefix,
                                keep_original_cols, seed) {
    rec <- step_rff_cluster(recipes::recipe(y ~ ., data = frame), a, b, num_clusters = num_clusters, kernel = kernel,
                            scale = scale, n_features = n_features, method = method, standardize = standardize,
                            n_starts = n_starts, prefix = prefix, keep_original_cols = keep_original_cols, seed = seed)
    recipes::bake(recipes::prep(rec, frame), new_data = frame)
  }
  classes <- factor(c("a", "b", "a", "b", "b"))
  calls <- list(
    step_rff = list(fun = step_prep_bake,
                    args = list(kernel = "gaussian", scale = 1, n_features = 4, method = "iid", standardize = TRUE,
                                prefix = "z", keep_original_cols = FALSE, seed = 1)),
    step_rff_pca = list(fun = pca_prep_bake,
                        args = list(num_comp = 2, kernel = "gaussian", scale = 1, n_features = 4, method = "iid",
                                    standardize = TRUE, prefix = "z", keep_original_cols = FALSE, seed = 1)),
    step_rff_cluster = list(fun = cluster_prep_bake,
                            args = list(num_clusters = 2, kernel = "gaussian", scale = 1, n_features = 4,
                                        method = "iid", standardize = TRUE, n_starts = 2, prefix = "z",
                                        keep_original_cols = FALSE, seed = 1)),
    rff_train = list(fun = rff_train,
                     args = list(x = x3, y = x3[, 1], weights = NULL, penalty = 0.1, scale = 1, n_features = 4,
                                 kernel = "gaussian", method = "iid", standardize = FALSE, criterion = "loo",
                                 nfolds = 2, seed = 1, n_threads = 1, quantile_levels = NULL)),
    rff_train_quantiles = list(fun = rff_train,
                               args = list(x = x3, y = x3[, 1], penalty = 0.1, n_features = 4, nfolds = 2, seed = 1,
                                           quantile_levels = c(0.25, 0.75))),
    rff_train_classes = list(fun = rff_train,
                             args = list(x = x3, y = classes, weights = NULL, penalty = 1, scale = 1, n_features = 4,
                                         kernel = matern_kernel(1, 1.5), method = "iid", standardize = TRUE,
                                         criterion = "loo", nfolds = 2, seed = 1, n_threads = 1)),
    rff_svm_train = list(fun = rff_svm_train,
                         args = list(x = x3, y = classes, weights = NULL, cost = 1, rbf_sigma = 0.5, margin = NULL,
                                     n_features = 4, method = "iid", standardize = TRUE, nfolds = 2,
                                     probability = FALSE, seed = 1, n_threads = 1, loss = "hinge")),
    # regression: kernlab's epsilon, `margin`
    rff_svm_train_regression = list(fun = rff_svm_train,
                                    args = list(x = x3, y = x3[, 1], cost = 1, rbf_sigma = 0.5, margin = 0.1,
                                                n_features = 4, nfolds = 2, seed = 1, loss = "hinge")),
    rff_cox_train = list(fun = rff_cox_train,
                         args = list(formula = survival::Surv(time, event) ~ a + b, data = survival_frame,
                                     weights = NULL, penalty = 0.1, mixture = 0, ties = "breslow", kernel = "gaussian",
                                     n_features = 4, method = "iid", standardize = TRUE, nfolds = 2, seed = 1,
                                     n_threads = 1)),
    rff_cox_predict = list(fun = rff_cox_predict,
                           args = list(object = survival_fit, new_data = survival_frame, type = "survival",
                                       eval_time = c(0.5, 2))),
    rff_scale = list(fun = rff_scale, args = list(range = c(-1, 1), trans = NULL)),
    rff_num_features = list(fun = rff_num_features, args = list(range = c(2, 4), trans = NULL)),
    rff_kernel_family = list(fun = rff_kernel_family, args = list(values = "laplace")))
  # every argument of the doorways is fuzzed (step_rff()'s trained fields
  # as edits of a trained step below; its roles and ids are recipes')
  doorways <- list(step_rff = list(step_rff, c("recipe", "role", "trained", "skip", "id", "map", "scaling", "columns")),
                   step_rff_pca = list(step_rff_pca, c("recipe", "role", "trained", "skip", "id", "pca", "columns")),
                   step_rff_cluster = list(step_rff_cluster,
                                           c("recipe", "role", "trained", "skip", "id", "kmeans", "columns")),
                   rff_train = list(rff_train, character()), rff_svm_train = list(rff_svm_train, character()),
                   rff_cox_train = list(rff_cox_train, character()), rff_cox_predict = list(rff_cox_predict, character()))
  for (name in names(doorways)) {
    given <- c(names(calls[[name]]$args), doorways[[name]][[2]], "...")
    missing <- setdiff(names(formals(doorways[[name]][[1]])), given)
    expect(length(missing) == 0L, sprintf("the fuzz suite does not fuzz %s()'s %s", name, paste(missing, collapse = ", ")))
  }
  cases <- unlist(lapply(names(calls), function(name) {
    spec <- calls[[name]]
    unlist(lapply(names(spec$args), function(arg) {
      values <- if (arg %in% c("x", "y")) c(bad_values, bad_data(3)) else bad_values
      if (arg == "quantile_levels") values <- c(values, list(one = 1, duplicated = c(0.5, 0.2, 0.5)))
      argument_cases(name, spec$fun, spec$args, arg, values)
    }), recursive = FALSE)
  }), recursive = FALSE)
  # edits of a trained step's own fields (and what they hold: the others
  # are recipes'), through bake() and tidy()
  step_edit_cases <- function(name, step, fields, pattern) {
    trained <- recipes::prep(step, frame)
    consumers <- list(bake = function(edited_step) {
      edited <- trained
      edited$steps[[1]] <- edited_step
      recipes::bake(edited, new_data = frame)
    }, tidy = function(edited_step) generics::tidy(edited_step))
    edits <- corrupted_objects(trained$steps[[1]], fields = fields)
    own <- vapply(names(edits), function(label) edits[[label]]$field %in% fields || grepl(pattern, label), logical(1))
    edits <- edits[own]
    unlist(lapply(names(edits), function(label) {
      lapply(names(consumers), function(consumer) {
        case(sprintf("%s on a %s with %s", consumer, name, label),
             function() consumers[[consumer]](edits[[label]]$object), c(edits[[label]]$field, "step"))
      })
    }), recursive = FALSE)
  }
  rec <- recipes::recipe(y ~ ., data = frame)
  cases <- c(cases,
             step_edit_cases("step_rff", step_rff(rec, a, b, n_features = 4, standardize = TRUE, seed = 1),
                             c("map", "scaling", "columns", "prefix"), "^(map|scaling)\\$"),
             step_edit_cases("step_rff_pca", step_rff_pca(rec, a, b, num_comp = 2, n_features = 4, seed = 1),
                             c("pca", "columns", "prefix"), "^pca\\$"),
             step_edit_cases("step_rff_cluster", step_rff_cluster(rec, a, b, num_clusters = 2, n_features = 4, seed = 1),
                             c("kmeans", "columns", "prefix"), "^kmeans\\$"))
  fuzz_check(cases)
})

test_that("broom's tidy(), glance() and augment() of edited fits and bad arguments end in a result or a named error", {
  skip_on_cran()
  # R methods over the fits, whose C++ paths (predict(), fitted()) the
  # blocks above fuzz with the same edits: the sanitizers' slowest block
  skip_if(nzchar(Sys.getenv("ASKRFF_SANITIZE")), "R methods; their C++ paths are fuzzed above")
  skip_if_not_installed("generics")
  skip_if_not_installed("tibble")
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  y <- x3[, 1] + x3[, 2]^2
  ridge <- rff_ridge(x3, y, map, lambda = 0.5)
  glm <- rff_glm(x3, c(0, 1, 0, 1, 1), map, lambda = c(1, 0.1), nfolds = 2)
  frame <- data.frame(y = y, a = x3[, 1], b = x3[, 2], g = factor(c("u", "v", "u", "w", "v")),
                      event = factor(c("no", "yes", "no", "yes", "yes")))
  formula_ridge <- rff_ridge(y ~ a + g, frame, kernel = gaussian_kernel(1), n_features = 4, seed = 1, lambda = 0.5,
                             na.action = stats::na.exclude)
  formula_glm <- rff_glm(event ~ a + b, frame, family = "binomial", kernel = gaussian_kernel(1), n_features = 4,
                         seed = 1, lambda = 1)
  tidy <- function(...) generics::tidy(...)
  augment <- function(...) generics::augment(...)
  # `x` itself is fuzzed below as edited fits: a value of another class never
  # reaches these methods
  calls <- list(
    tidy = list(fun = tidy, args = list(x = ridge, conf.int = TRUE, conf.level = 0.9)),
    augment_data = list(fun = augment, args = list(x = ridge, data = x3, type.predict = "response",
                                                   interval = "prediction", conf.level = 0.9, se_fit = TRUE)),
    augment_newdata = list(fun = augment, args = list(x = ridge, newdata = x3, interval = "confidence", se_fit = FALSE)),
    augment_formula = list(fun = augment, args = list(x = formula_ridge, newdata = frame, se_fit = TRUE)),
    augment_glm = list(fun = augment, args = list(x = glm, newdata = x3, type.predict = "response")),
    augment_glm_formula = list(fun = augment, args = list(x = formula_glm, data = frame, type.predict = "class")))
  # rows with a missing predictor predict NA, by design: checked below
  cases <- unlist(lapply(names(calls), function(name) {
    spec <- calls[[name]]
    unlist(lapply(setdiff(names(spec$args), "x"), function(arg) {
      values <- if (arg %in% c("data", "newdata")) c(bad_values, bad_data(3)) else bad_values
      if (arg %in% c("data", "newdata")) values[c("na", "nan")] <- NULL
      argument_cases(name, spec$fun, spec$args, arg, values)
    }), recursive = FALSE)
  }), recursive = FALSE)
  bad_frames <- list(empty = frame[0, ], no_predictor = frame[, -2], new_level = transform(frame, g = letters[1:5]),
                     unknown_event = transform(frame, event = letters[1:5]), numeric_event = transform(frame, event = 2),
                     character_y = transform(frame, y = letters[1:5]), list = as.list(frame), matrix = as.matrix(frame))
  cases <- c(cases, unlist(lapply(names(bad_frames), function(name) {
    list(case(sprintf("augment(formula ridge, newdata = <%s>)", name),
              function() augment(formula_ridge, newdata = bad_frames[[name]], interval = "prediction"), "newdata"),
         case(sprintf("augment(formula glm, data = <%s>)", name),
              function() augment(formula_glm, data = bad_frames[[name]]), "data"))
  }), recursive = FALSE))
  cases <- c(cases, lapply(c("na", "nan"), function(value) {
    case(sprintf("augment(newdata = <%s>) is NA in that row only", value), function() {
      got <- augment(ridge, newdata = bad_data(3)[[value]], interval = "prediction", se_fit = TRUE)
      added <- as.matrix(got[c(".fitted", ".lower", ".upper", ".se.fit")])
      if (!all(is.na(added[2, ])) || anyNA(added[-2, ])) stop("NA in the wrong rows")
      added[-2, ]
    }, "newdata")
  }))
  consumers <- list(tidy = function(f) tidy(f, conf.int = TRUE), glance = function(f) generics::glance(f),
                    augment = function(f) augment(f), augment_newdata = function(f) augment(f, newdata = x3, se_fit = TRUE))
  cases <- c(cases, object_cases(ridge, consumers, "fit",
                                 c("coefficients", "intercept", "path", "lambda", "response", "map", "rss", "fitted",
                                   "residuals", "n", "fun", "posterior", "scaling", "weights", "criterion")))
  consumers$augment_newdata <- function(f) augment(f, newdata = frame, se_fit = TRUE)
  cases <- c(cases, object_cases(formula_ridge, consumers, "fit", c("design", "terms", "xlevels", "posterior", "map")))
  glm_consumers <- list(tidy = function(f) tidy(f), glance = function(f) generics::glance(f),
                        augment = function(f) augment(f, type.predict = "class"),
                        augment_newdata = function(f) augment(f, newdata = x3, type.predict = "response"))
  cases <- c(cases, object_cases(glm, glm_consumers, "fit",
                                 c("coefficients", "intercept", "path", "lambda", "response", "map", "family", "deviance",
                                   "null_deviance", "n", "weight", "nfolds", "fun", "linear_predictors")))
  glm_consumers$augment_newdata <- function(f) augment(f, newdata = frame, type.predict = "response")
  cases <- c(cases, object_cases(formula_glm, glm_consumers, "fit", c("design", "terms", "response", "map")))
  fuzz_check(cases)
})

test_that("askrff_cpu() and options(askrff.cpu) take a path or end in a named error, and leave the path as it was", {
  before <- askrff_cpu()
  on.exit(askrff_cpu(before$path))
  values <- c(bad_values, list(unknown = "sse4", two = c("avx2", "baseline"), missing = NA_character_))
  cases <- argument_cases("askrff_cpu", askrff_cpu, list(path = NULL), "path", values)
  # an expression as the option's value must be refused, never evaluated
  values <- c(values[names(values) != "NULL"], list(injection = injection))
  option_cases <- lapply(names(values), function(value_name) {
    case(sprintf("options(askrff.cpu = <%s>)", value_name), function() {
      old <- options(askrff.cpu = values[[value_name]])
      on.exit(options(old))
      askrff:::apply_cpu_option()
    }, "options(askrff.cpu)")
  })
  fuzz_check(c(cases, option_cases))
  expect_identical(askrff_cpu(), before)
})

test_that("the kernel tests, their arguments, chunks and pcalg's suffStat end in a result or a named error", {
  skip_on_cran()
  set.seed(11)
  a <- matrix(rnorm(60), 20)
  b <- rnorm(20)
  z <- rnorm(20)
  calls <- list(
    rff_independence_test = list(fun = rff_independence_test, args = list(x = a, y = b, kernel_x = "gaussian",
      kernel_y = gaussian_kernel(1), n_features = 4, method = "permutation", B = 9, seed = 1, standardize = TRUE,
      n_threads = 1)),
    joint = list(fun = rff_independence_test, args = list(x = list(a = a[, 1], b = b, z = z), y = NULL,
      kernel_x = list("gaussian", gaussian_kernel(1), "laplace"), n_features = 4, B = 9, seed = 1, standardize = NULL,
      n_threads = 1)),
    rff_two_sample_test = list(fun = rff_two_sample_test, args = list(x = a, y = a + 1, kernel = "gaussian",
      n_features = 4, method = "chi2_mixture", B = 9, seed = 1, standardize = TRUE, n_threads = 1)),
    rff_ci_test = list(fun = rff_ci_test, args = list(x = b, y = a, z = z, kernel_x = "gaussian", kernel_y = "laplace",
      kernel_z = gaussian_kernel(1), n_features = 2, n_features_z = 4, scale_z = "median", method = "gamma",
      seed = 1, standardize = NULL, n_threads = 1)),
    rff_ci_suff_stat = list(fun = rff_ci_suff_stat, args = list(data = cbind(a, b), n_features = 2,
      n_features_z = 4, scale_z = "median", method = "gamma", kernel_x = NULL, kernel_y = NULL, kernel_z = NULL, seed = 1,
      standardize = NULL, n_threads = 1)),
    rff_ci_test_pcalg = list(fun = rff_ci_test_pcalg, args = list(x = 1, y = 2, S = 3,
      suffStat = rff_ci_suff_stat(cbind(a, b), n_features = 2, n_features_z = 4, n_threads = 1))),
    rff_rdc = list(fun = rff_rdc, args = list(x = a, y = b, kernel_x = gaussian_kernel(1), kernel_y = NULL,
      n_features = 2, seed = 1, n_threads = 1)))
  data_args <- c("x", "y", "z", "data")
  cases <- unlist(lapply(names(calls), function(name) {
    spec <- calls[[name]]
    unlist(lapply(names(spec$args), function(arg) {
      values <- if (arg %in% data_args) c(bad_values, bad_data(NCOL(spec$args[[arg]]))) else bad_values
      argument_cases(name, spec$fun, spec$args, arg, values)
    }), recursive = FALSE)
  }), recursive = FALSE)
  suff <- calls$rff_ci_test_pcalg$args$suffStat
  consumers <- list(rff_ci_test_pcalg = function(edited) {
    rff_ci_test_pcalg(1, 2, 3, structure(edited, class = "rff_ci_suff_stat"))
  })
  cases <- c(cases, object_cases(unclass(suff), consumers, "suffStat",
                                 c("data", "kernel", "n_features", "scale_z", "method", "seed", "standardize",
                                   "n_threads", "x", "y", "z")))
  chunk_values <- list(empty = list(), bare = list(list(a)), no_y = list(list(x = a)), mismatched = list(list(x = a, y = b[1:5])),
                       wide_later = list(list(x = a, y = b), list(x = cbind(a, 1), y = b)),
                       failing = function() stop("disk gone"), nan = list(list(x = replace(a, 3, NaN), y = b)))
  for (value in names(chunk_values)) {
    cases <- c(cases, list(
      case(sprintf("rff_independence_test(<%s chunks>)", value),
           function() rff_independence_test(chunk_values[[value]], seed = 1, n_threads = 1), c("x", "y", "chunk")),
      case(sprintf("rff_two_sample_test(<%s chunks>)", value),
           function() rff_two_sample_test(chunk_values[[value]], seed = 1, n_threads = 1), c("x", "y", "chunk")),
      case(sprintf("rff_ci_test(<%s chunks>)", value),
           function() rff_ci_test(chunk_values[[value]], seed = 1, n_threads = 1), c("x", "y", "z", "chunk"))))
  }
  fuzz_check(cases)
})

test_that("kernel principal components, their arguments, chunks and edited fits end in a result or a named error", {
  skip_on_cran()
  map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  fit <- rff_pca(x3, map = map, rank = 2)
  calls <- list(
    rff_pca = list(fun = rff_pca, args = list(x = x3, map = map, rank = 2, center = TRUE, weights = NULL,
                                              solver = "auto", standardize = FALSE, fun = NULL, n_threads = 1)),
    rff_pca_randomized = list(fun = rff_pca, args = list(x = x3, map = map, rank = 2, solver = "randomized",
                                                         seed = 1, weights = NULL)),
    rff_pca_kernel = list(fun = function(kernel, n_features, method, seed, standardize) {
      rff_pca(x3, kernel = kernel, n_features = n_features, method = method, seed = seed, standardize = standardize)
    }, args = list(kernel = gaussian_kernel(1), n_features = 4, method = "iid", seed = 1, standardize = TRUE)),
    predict = list(fun = getS3method("predict", "askrff_pca"), args = list(object = fit, newdata = x3, n_threads = 1)))
  cases <- unlist(lapply(names(calls), function(name) {
    spec <- calls[[name]]
    unlist(lapply(names(spec$args), function(arg) {
      values <- if (arg %in% c("x", "newdata")) c(bad_values, bad_data(3)) else bad_values
      # predict() scores a row with a missing value NA, by design
      if (arg == "newdata") values <- values[setdiff(names(values), c("na", "nan"))]
      argument_cases(name, spec$fun, spec$args, arg, values)
    }), recursive = FALSE)
  }), recursive = FALSE)
  chunk_values <- list(empty = list(), bare = list(list(x3)), no_x = list(list(w = 1)),
                       wide_later = list(list(x = x3), list(x = cbind(x3, 1))),
                       bad_weights = list(list(x = x3, w = rep(-1, 5))), failing = function() stop("disk gone"),
                       nan = list(list(x = replace(x3, 3, NaN))))
  cases <- c(cases, lapply(names(chunk_values), function(value) {
    case(sprintf("rff_pca(<%s chunks>)", value), function() rff_pca(chunk_values[[value]], map = map, n_threads = 1),
         c("x", "chunk", "w"))
  }))
  consumers <- list(print = function(f) utils::capture.output(print(f)), predict = function(f) predict(f, x3),
                    scores = function(f) predict(f), summary = function(f) summary(f), plot = function(f) plot(f))
  fields <- c("sdev", "rotation", "center", "x", "map", "fun", "scaling", "n", "weight", "total_variance")
  cases <- c(cases, object_cases(fit, consumers, "fit", fields))
  cases <- c(cases, object_cases(rff_pca(x3, map = map, rank = 2, solver = "randomized", seed = 1), consumers, "fit",
                                 fields))
  scaled <- rff_pca(x3, kernel = "gaussian", n_features = 4, seed = 1)
  cases <- c(cases, object_cases(scaled, consumers, "fit", fields))
  fuzz_check(cases)
})

test_that("kernel k-means, its arguments, chunks and edited fits end in a result or a named error", {
  skip_on_cran()
  km_map <- rff_map(gaussian_kernel(1), 3, 8, seed = 1)
  km_fit <- rff_kmeans(x3, 2, map = km_map, seed = 1)
  km_calls <- list(
    rff_kmeans = list(fun = rff_kmeans, args = list(x = x3, centers = 2, map = km_map, n_starts = 2, iter_max = 10,
                                                    tol = 0, weights = NULL, seed = 1, standardize = FALSE, fun = NULL,
                                                    n_threads = 1)),
    rff_kmeans_points = list(fun = rff_kmeans, args = list(x = x3, centers = x3[1:2, ], map = km_map)),
    rff_kmeans_kernel = list(fun = function(kernel, n_features, method, seed, standardize) {
      rff_kmeans(x3, 2, kernel = kernel, n_features = n_features, method = method, seed = seed, standardize = standardize)
    }, args = list(kernel = gaussian_kernel(1), n_features = 4, method = "iid", seed = 1, standardize = TRUE)),
    predict = list(fun = getS3method("predict", "askrff_kmeans"), args = list(object = km_fit, newdata = x3, n_threads = 1)),
    fitted = list(fun = getS3method("fitted", "askrff_kmeans"), args = list(object = km_fit, method = "classes")))
  km_cases <- unlist(lapply(names(km_calls), function(name) {
    spec <- km_calls[[name]]
    unlist(lapply(names(spec$args), function(arg) {
      values <- if (arg %in% c("x", "newdata", "centers")) c(bad_values, bad_data(3)) else bad_values
      # predict() gives a row with a missing value no cluster, by design
      if (arg == "newdata") values <- values[setdiff(names(values), c("na", "nan"))]
      argument_cases(name, spec$fun, spec$args, arg, values)
    }), recursive = FALSE)
  }), recursive = FALSE)
  km_chunks <- list(empty = list(), bare = list(list(x3)), no_x = list(list(w = 1)),
                    wide_later = list(list(x = x3), list(x = cbind(x3, 1))),
                    bad_weights = list(list(x = x3, w = rep(-1, 5))), failing = function() stop("disk gone"),
                    nan = list(list(x = replace(x3, 3, NaN))))
  km_cases <- c(km_cases, lapply(names(km_chunks), function(value) {
    case(sprintf("rff_kmeans(<%s chunks>)", value),
         function() rff_kmeans(km_chunks[[value]], 2, map = km_map, n_threads = 1), c("x", "chunk", "w"))
  }))
  km_consumers <- list(print = function(f) utils::capture.output(print(f)), predict = function(f) predict(f, x3),
                       clusters = function(f) predict(f), fitted = function(f) fitted(f))
  km_fields <- c("cluster", "centers", "totss", "withinss", "tot.withinss", "betweenss", "size", "iter", "converged",
                 "map", "fun", "scaling", "n")
  km_cases <- c(km_cases, object_cases(km_fit, km_consumers, "fit", km_fields))
  km_scaled <- rff_kmeans(x3, 2, kernel = "gaussian", n_features = 4, seed = 1)
  km_cases <- c(km_cases, object_cases(km_scaled, km_consumers, "fit", km_fields))
  fuzz_check(km_cases)
})

test_that("kernel canonical correlations, their arguments, chunks and edited fits end in a result or a named error", {
  skip_on_cran()
  set.seed(3)
  cx <- matrix(rnorm(30), 10)
  cy <- cbind(cx[, 1]^2, rnorm(10))
  map_x <- rff_map(gaussian_kernel(1), 3, 2, seed = 1)
  map_y <- rff_map(gaussian_kernel(1), 2, 2, seed = 2)
  cca <- rff_cca(cx, cy, kernel_x = map_x, kernel_y = map_y, rank = 2)
  calls <- list(
    rff_cca = list(fun = rff_cca, args = list(x = cx, y = cy, kernel_x = map_x, kernel_y = "gaussian", n_features = 2,
                                              rank = 2, lambda = 0.1, seed = 1, standardize = NULL, n_threads = 1)),
    predict = list(fun = getS3method("predict", "askrff_cca"),
                   args = list(object = cca, newdata = list(x = cx, y = cy), n_threads = 1)),
    predict_x = list(fun = function(x) predict(cca, list(x = x)), args = list(x = cx)))
  cases <- unlist(lapply(names(calls), function(name) {
    spec <- calls[[name]]
    unlist(lapply(names(spec$args), function(arg) {
      values <- if (arg %in% c("x", "y")) c(bad_values, bad_data(NCOL(spec$args[[arg]]))) else bad_values
      # predict() gives a row with a missing value NA variates, by design
      if (name == "predict_x") values <- values[setdiff(names(values), c("na", "nan", "NA", "NaN"))]
      argument_cases(name, spec$fun, spec$args, arg, values)
    }), recursive = FALSE)
  }), recursive = FALSE)
  chunk_values <- list(empty = list(), bare = list(list(cx)), no_y = list(list(x = cx)),
                       mismatched = list(list(x = cx, y = cy[1:5, ])),
                       wide_later = list(list(x = cx, y = cy), list(x = cbind(cx, 1), y = cy)),
                       failing = function() stop("disk gone"), nan = list(list(x = replace(cx, 3, NaN), y = cy)))
  cases <- c(cases, lapply(names(chunk_values), function(value) {
    case(sprintf("rff_cca(<%s chunks>)", value),
         function() rff_cca(chunk_values[[value]], kernel_x = map_x, kernel_y = map_y, n_threads = 1), c("x", "y", "chunk"))
  }))
  consumers <- list(print = function(f) utils::capture.output(print(f)),
                    predict = function(f) predict(f, list(x = cx, y = cy)), variates = function(f) predict(f))
  fields <- c("cor", "xcoef", "ycoef", "xcenter", "ycenter", "variates", "map_x", "map_y", "scaling_x", "scaling_y",
              "columns_x", "columns_y", "xlevels", "n", "lambda")
  cases <- c(cases, object_cases(cca, consumers, "fit", fields))
  scaled <- rff_cca(cx, cy, n_features = 2, seed = 1)
  cases <- c(cases, object_cases(scaled, consumers, "fit", fields))
  fuzz_check(cases)
})

test_that("spectral clustering, its arguments and edited fits end in a result or a named error", {
  skip_on_cran()
  set.seed(4)
  sx <- matrix(rnorm(40), 20)
  sp_map <- rff_map(gaussian_kernel(2), 2, 8, seed = 1)
  sp_fit <- rff_spectral(sx, 2, map = sp_map, seed = 1)
  calls <- list(
    rff_spectral = list(fun = rff_spectral, args = list(x = sx, centers = 2, map = sp_map, n_starts = 2, iter_max = 10,
                                                        seed = 1, standardize = FALSE, fun = NULL, n_threads = 1)),
    rff_spectral_kernel = list(fun = function(kernel, n_features, method, seed, standardize) {
      rff_spectral(sx, 2, kernel = kernel, n_features = n_features, method = method, seed = seed, standardize = standardize)
    }, args = list(kernel = gaussian_kernel(1), n_features = 6, method = "nystrom", seed = 1, standardize = TRUE)),
    predict = list(fun = getS3method("predict", "askrff_spectral"),
                   args = list(object = sp_fit, newdata = sx, n_threads = 1)))
  cases <- unlist(lapply(names(calls), function(name) {
    spec <- calls[[name]]
    unlist(lapply(names(spec$args), function(arg) {
      values <- if (arg %in% c("x", "newdata")) c(bad_values, bad_data(2)) else bad_values
      # predict() gives a row with a missing value no cluster, by design
      if (arg == "newdata") values <- values[setdiff(names(values), c("na", "nan"))]
      argument_cases(name, spec$fun, spec$args, arg, values)
    }), recursive = FALSE)
  }), recursive = FALSE)
  consumers <- list(print = function(f) utils::capture.output(print(f)), predict = function(f) predict(f, sx),
                    clusters = function(f) predict(f), fitted = function(f) fitted(f))
  fields <- c("cluster", "centers", "totss", "withinss", "tot.withinss", "betweenss", "size", "iter", "embedding",
              "eigenvalues", "projection", "degree_sum", "map", "fun", "scaling", "n")
  cases <- c(cases, object_cases(sp_fit, consumers, "fit", fields))
  cases <- c(cases, object_cases(rff_spectral(sx, 2, n_features = 6, seed = 1), consumers, "fit", fields))
  fuzz_check(cases)
})
