# What a scale search (R/model-selection.R) asks of a map of random
# Fourier features: its frequencies rescaled, and a smaller map of the same
# design.

# A kernel's measure rescaled to k(x / s, y / s) has frequencies omega / s
# with the same masses, and the same left phases (functions of omega's
# product with the data).
#' @export
rescale_map.rff_map <- function(map, kernel, scales) {
  map$kernel <- kernel
  map$omega <- map$omega / scales
  validate_map(map)
}

#' @export
thin_map.rff_map <- function(map, n_features) {
  if (map$n_features <= n_features) return(map)
  design <- do.call(map_design, c(list(map$kernel, map$d, map$method), map$settings, list(allocation = map$allocation)))
  draw_map(design, as.integer(n_features), map$seed)
}
