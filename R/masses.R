#' Total masses of a map's positive parts
#'
#' The masses the map's features are weighted with: `pos` for a positive
#' definite kernel.
#'
#' @param map A map from [rff_map()].
#' @return A named numeric vector, one entry per positive part.
#' @family maps
#' @examples
#' total_masses(rff_map(gaussian_kernel(1), d = 2, n_features = 10, seed = 1))
#' @export
total_masses <- function(map) {
  check_map(map)
  stats::setNames(map$parts$mass, map$parts$part)
}
