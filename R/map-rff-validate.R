# The check of a sampled map's fields: maps are plain lists that users save,
# edit and share, so every function that takes one validates it first.

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
