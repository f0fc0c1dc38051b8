# Threads and seeds, which every heavy or random call shares, and the
# kernel-specific settings of rff_map() and spectral_measure().

# NULL means getOption("askrff.threads"), else RcppParallel's default.
resolve_threads <- function(n_threads) {
  if (is.null(n_threads)) {
    n_threads <- getOption("askrff.threads", RcppParallel::defaultNumThreads())
  }
  check_count(n_threads, "n_threads", max = 1024)
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

# `...` of rff_map(): each setting must be one the kernel declares, given by
# name, as one of its choices. Returns every setting, defaults filled in.
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
  resolved <- lapply(allowed, `[`, 1L)
  for (name in given) {
    value <- settings[[name]]
    if (!is.character(value) || length(value) != 1L || !value %in% allowed[[name]]) {
      fail("`%s` must be one of %s.", name, paste0('"', allowed[[name]], '"', collapse = ", "))
    }
    resolved[[name]] <- value
  }
  resolved
}

# The kernel object as the C++ core reads it, carrying the settings.
kernel_with_settings <- function(kernel, settings) {
  kernel$settings <- settings
  kernel
}
