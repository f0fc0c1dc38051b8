# Validators of askrff's objects. Kernels, measures, maps and packed features
# are plain lists that users save, load, share and edit, so every function
# that receives one checks it here, against every invariant the C++ core
# relies on, before any .Call. Each error names the object and field and says
# how to get a valid object.

# The layout of the objects this version makes. An object with another
# version, or none (made before versions were stored, or edited), is refused.
# Format 2: maps carry their `allocation`, each part's `share` and (random
# periodic maps) their `method`. Format 3: periodic functions are known by
# `name` (with `binary`), and an expected periodic kernel names its two in
# `settings$left` and `settings$right`.
format_version <- 3L

check_object <- function(object, arg, class, remake) {
  if (!is.list(object) || !inherits(object, class)) {
    fail("`%s` must be %s.", arg, remake)
  }
  version <- object$format_version
  if (is.null(version)) {
    fail("`%s` has no `format_version`: it was made by an earlier askrff, or edited. Make it again: %s.", arg, remake)
  }
  if (!is_single_number(version) || version != format_version) {
    fail("`%s` has `format_version` %s, but this version of askrff reads format %d. Make it again: %s.",
         arg, format(version)[1L], format_version, remake)
  }
  invisible(object)
}

# A field of an object: `map$omega`, say.
field <- function(arg, name) sprintf("%s$%s", arg, name)

# Returns the kernel built afresh by its constructor, <name>_kernel(), from
# its name and parameters, with its settings from with_settings(), so nothing
# downstream reads a field the user may have edited. The families are those
# of the core's registry.
validate_kernel <- function(kernel, arg = "kernel", depth = 0L) {
  rebuilt <- rebuild_kernel(kernel, arg, depth)
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

# The columns of a measure's parts table, as the core returns them.
parts_columns <- list(part = is.character, mass = is.double, exact = is.logical, coefficient = is.double,
                      right_phase = is.double, phased = is.logical, orthogonal = is.logical,
                      density_variable = is.character, features = is.character)

validate_parts <- function(parts, arg) {
  # a damaged file can give a data frame columns shorter than its rows
  if (!is.data.frame(parts) || nrow(parts) < 1L || any(lengths(parts) != nrow(parts))) {
    fail("`%s` must be a data frame with one row per positive part.", arg)
  }
  for (column in names(parts_columns)) {
    value <- parts[[column]]
    if (is.null(value) || !parts_columns[[column]](value) || anyNA(value)) {
      fail("`%s` must be a column of %s values without NA.", field(arg, column),
           if (identical(parts_columns[[column]], is.double)) "numeric" else
             if (identical(parts_columns[[column]], is.logical)) "logical" else "character")
    }
  }
  if (any(!is.finite(parts$mass)) || any(parts$mass < 0)) {
    fail("`%s` must hold finite, nonnegative total masses.", field(arg, "mass"))
  }
  if (any(!is.finite(parts$coefficient)) || any(parts$coefficient == 0)) {
    fail("`%s` must hold finite, nonzero coefficients.", field(arg, "coefficient"))
  }
  if (any(!is.finite(parts$right_phase))) fail("`%s` must be finite.", field(arg, "right_phase"))
  if (!all(parts$density_variable %in% names(law_description))) {
    fail("`%s` must be one of %s.", field(arg, "density_variable"), paste(names(law_description), collapse = ", "))
  }
  if (!all(parts$features == parts$features[1L]) || !parts$features[1L] %in% c("trig", names(feature_description))) {
    fail("`%s` must name one feature kind (\"trig\", %s) for every part.", field(arg, "features"),
         paste0('"', names(feature_description), '"', collapse = ", "))
  }
  parts
}

# A map's kernel, dimension and settings; the kernel returned is rebuilt.
validate_map_kernel <- function(map, arg) {
  kernel <- check_has_measure(validate_kernel(map$kernel, field(arg, "kernel")))
  d <- check_count(map$d, field(arg, "d"))
  check_kernel_dimension(kernel, d)
  settings <- map$settings
  if (!is.list(settings) || is.object(settings)) fail("`%s` must be a list.", field(arg, "settings"))
  given <- names(settings)
  if (length(settings) > 0L && (is.null(given) || anyNA(given) || any(given == "") || anyDuplicated(given))) {
    fail("`%s` must name each setting once.", field(arg, "settings"))
  }
  resolved <- tryCatch(resolve_kernel_settings(kernel, settings), askrff_error = function(e) {
    fail("`%s` is not valid for its kernel: %s", field(arg, "settings"), conditionMessage(e))
  })
  if (!identical(resolved[names(settings)], settings) || !setequal(names(resolved), names(settings))) {
    fail("`%s` must hold every setting of the %s, with valid values; make the map again with rff_map().",
         field(arg, "settings"), kernel_label(kernel))
  }
  list(kernel = kernel, d = d, settings = settings)
}

# Frequencies: a finite numeric d x n matrix.
validate_frequencies <- function(omega, arg, d, n) {
  if (!is_matrix(omega) || !is.numeric(omega) || is.object(omega)) fail("`%s` must be a numeric matrix.", arg)
  if (nrow(omega) != d || ncol(omega) != n) {
    fail("`%s` must be %s x %s (d x frequencies), not %s x %s.", arg, format_count(d), format_count(n),
         format_count(nrow(omega)), format_count(ncol(omega)))
  }
  if (anyNA(omega) || any(!is.finite(omega))) fail("`%s` must hold finite values only.", arg)
  storage.mode(omega) <- "double"
  omega
}

check_seed_words <- function(seed, arg) {
  if (!is.null(seed) && (!is.numeric(seed) || length(seed) != 2L || anyNA(seed) || any(seed < 0) ||
                         any(seed >= 2^32) || any(seed != round(seed)))) {
    fail("`%s` must be NULL or two whole numbers in [0, 2^32).", arg)
  }
  invisible(seed)
}

#' @export
validate_fields.rff_map <- function(map, arg) {
  check_object(map, arg, "rff_map", "a map made by rff_map()")
  base <- validate_map_kernel(map, arg)
  check_source(map$method, field(arg, "method"))
  allocation <- map$allocation
  if (!is.character(allocation) || length(allocation) != 1L || is.na(allocation) || !allocation %in% c("mass", "equal")) {
    fail("`%s` must be \"mass\" or \"equal\".", field(arg, "allocation"))
  }
  n_features <- check_count(map$n_features, field(arg, "n_features"))
  parts <- validate_parts(map$parts, field(arg, "parts"))
  features <- kernel_traits(base$kernel, base$settings)$features
  if (parts$features[1L] != features) {
    fail("`%s` must be \"%s\" for the %s with these settings.", field(arg, "parts$features"),
         features, kernel_label(base$kernel))
  }
  n_parts <- nrow(parts)
  n <- n_features
  if (!is_matrix(map$omega) || ncol(map$omega) != n) {
    fail("`%s` must have n_features = %s columns; make the map again with rff_map().",
         field(arg, "omega"), format_count(n))
  }
  omega <- validate_frequencies(map$omega, field(arg, "omega"), base$d, n)
  part <- map$part
  if (!is.numeric(part) || is.object(part) || length(part) != n || anyNA(part) || any(part != round(part)) ||
      any(part < 1) || any(part > n_parts)) {
    fail("`%s` must give, for each of the %s frequencies, the index of its part (1 to %d).",
         field(arg, "part"), format_count(n), n_parts)
  }
  share <- parts$share
  if (!is.double(share) || anyNA(share) || any(!is.finite(share)) || any(share < 0) ||
      abs(sum(share) - 1) > 1e-9 || any(share[unique(part)] == 0)) {
    fail("`%s` must hold each part's share of the frequencies: nonnegative, summing to one, and positive for every part that has frequencies.",
         field(arg, "parts$share"))
  }
  phase <- map$phase
  if (!is.numeric(phase) || is.object(phase) || length(phase) != n || anyNA(phase) || any(!is.finite(phase))) {
    fail("`%s` must hold one finite left phase per frequency (%s).", field(arg, "phase"), format_count(n))
  }
  bias <- map$bias_bound
  if (!is.null(bias) && (!is_single_number(bias) || !is.finite(bias) || bias < 0)) {
    fail("`%s` must be NULL or a single finite nonnegative number.", field(arg, "bias_bound"))
  }
  check_seed_words(map$seed, field(arg, "seed"))
  map$kernel <- base$kernel
  map$d <- base$d
  map$n_features <- n_features
  map$omega <- omega
  map$part <- as.integer(part)
  map$phase <- as.double(phase)
  map
}

# A measure is what spectral_measure() returns for its kernel, dimension and
# settings; the parts must match that exactly.
validate_measure <- function(measure, arg = "x") {
  check_object(measure, arg, "askrff_measure", "a measure made by spectral_measure()")
  base <- validate_map_kernel(measure, arg)
  validate_parts(measure$parts, field(arg, "parts"))
  fresh <- do.call(spectral_measure, c(list(base$kernel, base$d), base$settings), quote = TRUE)
  if (!isTRUE(all.equal(fresh$parts, measure$parts, tolerance = 1e-12)) ||
      !isTRUE(all.equal(fresh$lp, measure$lp, tolerance = 1e-12)) ||
      !isTRUE(all.equal(fresh$numeric, measure$numeric, tolerance = 1e-12))) {
    fail("`%s` does not match the spectral measure of its kernel; make it again with spectral_measure().",
         field(arg, "parts"))
  }
  fresh
}

#' @export
validate_fields.rpf_map <- function(map, arg) {
  check_object(map, arg, "rpf_map", "a map made by rpf_map()")
  kernel <- check_periodic_kernel(validate_kernel(map$kernel, field(arg, "kernel")))
  d <- check_count(map$d, field(arg, "d"))
  m <- check_count(map$n_features, field(arg, "n_features"))
  mass <- map$mass
  if (!is_single_number(mass) || !isTRUE(all.equal(mass, periodic_kernel_mass(kernel), tolerance = 1e-12))) {
    fail("`%s` must be the total mass of the kernel's measure, %s.", field(arg, "mass"),
         format(periodic_kernel_mass(kernel)))
  }
  omega <- validate_frequencies(map$omega, field(arg, "omega"), d, m)
  dither <- map$dither
  if (!is.numeric(dither) || is.object(dither) || length(dither) != m || anyNA(dither) ||
      any(dither < 0) || any(dither >= 2 * pi)) {
    fail("`%s` must hold one value in [0, 2 pi) per frequency (%s).", field(arg, "dither"), format_count(m))
  }
  check_source(map$method, field(arg, "method"))
  check_seed_words(map$seed, field(arg, "seed"))
  map$kernel <- kernel
  map$d <- d
  map$n_features <- m
  map$mass <- as.double(mass)
  map$omega <- omega
  map$dither <- as.double(dither)
  map
}

validate_packed <- function(packed, arg) {
  check_object(packed, arg, "rpf_packed", "packed features made by rpf_pack()")
  m <- check_count(packed$n_features, field(arg, "n_features"))
  bits <- packed$bits
  if (!is_matrix(bits) || !is.raw(bits) || ncol(bits) < 1L) {
    fail("`%s` must be a raw matrix with one column of bytes per point.", field(arg, "bits"))
  }
  if (nrow(bits) != ceiling(m / 8)) {
    fail("`%s` must have ceiling(n_features / 8) = %d rows for %d features, not %d.", field(arg, "bits"),
         ceiling(m / 8), m, nrow(bits))
  }
  if (m %% 8L != 0L && any(as.integer(bits[nrow(bits), ]) %/% 2L^(m %% 8L) != 0L)) {
    fail("`%s` has bits set beyond feature %d in its last byte; they must be zero.", field(arg, "bits"), m)
  }
  names <- packed$names
  if (!is.null(names) && (!is.character(names) || length(names) != ncol(bits))) {
    fail("`%s` must be NULL or one name per point (%d).", field(arg, "names"), ncol(bits))
  }
  packed$n_features <- m
  packed
}

validate_periodic_function <- function(fun, arg) {
  check_object(fun, arg, "rpf_function", "\"cos\", \"square\" or a quantizer from rpf_quantizer()")
  if (!is.character(fun$name) || length(fun$name) != 1L || is.na(fun$name)) {
    fail("`%s` must be the name of a periodic function; make it again with rpf_quantizer().", field(arg, "name"))
  }
  tryCatch(periodic_function(fun$name), askrff_error = function(e) {
    fail("`%s` is not a periodic function askrff knows: %s", field(arg, "name"), conditionMessage(e))
  })
}
