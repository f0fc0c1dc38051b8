# Threads and seeds, which every heavy or random call shares, and the
# kernel-specific settings of rff_map() and spectral_measure().

# NULL means getOption("askrff.threads"), else RcppParallel's default.
resolve_threads <- function(n_threads) {
  if (!is.null(n_threads)) return(check_count(n_threads, "n_threads", max = 1024))
  option <- getOption("askrff.threads")
  if (is.null(option)) return(as.integer(RcppParallel::defaultNumThreads()))
  check_count(option, "options(askrff.threads)", max = 1024)
}

# The core's 64-bit seed as two 32-bit words. NULL draws them from R's RNG, so
# set.seed() makes results reproducible; a number gives the same map always.
resolve_seed <- function(seed) {
  if (is.null(seed)) return(floor(stats::runif(2) * 2^32))
  if (!is_single_number(seed) || !is.finite(seed) || seed < 0 || seed > 2^53 || seed != round(seed)) {
    fail("`seed` must be NULL or a single whole number between 0 and 2^53.")
  }
  c(seed %/% 2^32, seed %% 2^32)
}

# A numeric setting of a kernel, such as the LP's `tolerance`: its default
# and the interval it must lie in (open at `upper` when `upper_open`).
numeric_setting <- function(default, lower, upper, upper_open = FALSE) {
  structure(list(default = default, lower = lower, upper = upper, upper_open = upper_open),
            class = "askrff_numeric_setting")
}

setting_default <- function(choices) {
  if (inherits(choices, "askrff_numeric_setting")) choices$default else choices[[1L]]
}

check_setting <- function(name, value, choices) {
  if (inherits(choices, "askrff_numeric_setting")) {
    above <- if (choices$upper_open) value < choices$upper else value <= choices$upper
    if (!is_single_number(value) || !is.finite(value) || value <= choices$lower || !above) {
      fail("`%s` must be a single number in (%s, %s%s.", name, format(choices$lower), format(choices$upper),
           if (choices$upper_open) ")" else "]")
    }
    return(as.double(value))
  }
  if (!is.character(value) || length(value) != 1L || !value %in% choices) {
    fail("`%s` must be one of %s.", name, paste0('"', choices, '"', collapse = ", "))
  }
  value
}

# `...` of rff_map(): each setting must be one the kernel declares, given by
# name, with a valid value. Returns every setting, defaults filled in. The
# LP settings of the sphere kernels apply only to their stationary route.
resolve_kernel_settings <- function(kernel, settings) {
  allowed <- kernel$setting_choices
  if (is.null(allowed)) allowed <- list()
  given <- names(settings)
  if (length(settings) > 0L && (is.null(given) || any(given == ""))) {
    fail("`...` takes named settings only, such as decomposition = \"phase\".")
  }
  unknown <- setdiff(given, names(allowed))
  if (length(unknown) > 0L) {
    takes <- if (length(allowed) == 0L) "takes none" else paste("takes", paste(names(allowed), collapse = ", "))
    fail("`...` has settings the %s does not take: %s (it %s).", kernel_label(kernel),
         paste(unknown, collapse = ", "), takes)
  }
  resolved <- lapply(allowed, setting_default)
  for (name in given) resolved[[name]] <- check_setting(name, settings[[name]], allowed[[name]])
  if (identical(resolved$route, "dot_product")) {
    stationary_only <- intersect(given, c("tolerance", "z_max"))
    if (length(stationary_only) > 0L) {
      fail("`%s` applies only to route = \"stationary\"; the default route \"dot_product\" is exact.",
           stationary_only[1L])
    }
    resolved$tolerance <- resolved$z_max <- NULL
  }
  resolved
}

# The kernel object as the C++ core reads it in dimension d, carrying the
# settings and, for a stationary route on the sphere, the atoms of its LP
# measure (with `lp` kept for printing).
kernel_with_settings <- function(kernel, settings, d) {
  kernel$settings <- settings
  if (!is.null(settings$tolerance)) {
    lp <- lp_radial_measure(kernel, d, settings$tolerance, settings$z_max)
    kernel$settings$atom_radius <- lp$radius
    kernel$settings$atom_weight <- lp$weight
    kernel$lp <- lp
  }
  kernel
}
