# Maps whose features R makes instead of the core: Nyström maps
# (R/nystrom.R) and the maps of dot-product kernels (R/dot-product-maps.R).
# Every function that takes a map asks here, rather than testing classes,
# for what such a map must give: its validator, its number of feature
# columns, the working memory its features need per row, and one side's
# features of checked data.

r_map_protocols <- function() {
  list(
    askrff_nystrom = list(validate = validate_nystrom, maker = "nystrom_map()", side = nystrom_side,
                          columns = function(map) map$rank, working = function(map) nrow(map$landmarks)),
    askrff_maclaurin = list(validate = validate_maclaurin, maker = "maclaurin_map()", side = maclaurin_side,
                            columns = function(map) map$n_features, working = function(map) sum(map$degree)),
    # the count sketches and their transforms, complex, two at a time
    askrff_tensor_sketch = list(validate = validate_tensor_sketch, maker = "tensor_sketch_map()",
                                side = tensor_sketch_side, columns = function(map) map$n_features,
                                working = function(map) 8 * map$n_features)
  )
}

# The protocol of a map whose features R makes, or NULL for a map of the core.
r_map_protocol <- function(map) {
  protocols <- r_map_protocols()
  for (class in names(protocols)) if (inherits(map, class)) return(protocols[[class]])
  NULL
}

# The data a map made in R can take: its dimension, and the sphere for
# kernels on it.
r_map_data <- function(map, x, name) {
  x <- check_data(x, name, map$d)
  check_on_sphere(map$kernel, x, name)
  x
}

# One side's features of a validated map for checked data. Finite fields of
# an edited map can still overflow here or in the squares a ridge fit sums.
r_map_side <- function(map, protocol, x, side, n_threads) {
  z <- protocol$side(map, x, side, n_threads)
  if (!all(abs(z) <= 1e150)) {
    fail("The features of `map` overflow (beyond 1e150); make the map again with %s.", protocol$maker)
  }
  z
}

# rff_features() and rff_kernel_matrix() of a map made in R.
r_map_features <- function(map, protocol, x, side, n_threads) {
  # resolved first: a map whose features ignore threads must still refuse a bad count
  n_threads <- resolve_threads(n_threads)
  map <- protocol$validate(map)
  x <- r_map_data(map, x, "x")
  side <- check_choice(side, c("left", "right"), "side")
  check_output_size(nrow(x), protocol$columns(map) + protocol$working(map), "the feature matrix")
  r_map_side(map, protocol, x, side, n_threads)
}

r_map_gram <- function(map, protocol, x, y, n_threads) {
  map <- protocol$validate(map)
  x <- r_map_data(map, x, "x")
  y <- r_map_data(map, y, "y")
  n_threads <- resolve_threads(n_threads)
  check_output_size(nrow(x), nrow(y), "the approximate kernel matrix",
                    extra = 16 * (as.double(nrow(x)) + nrow(y)) * (protocol$columns(map) + protocol$working(map)))
  set_point_names(tcrossprod(r_map_side(map, protocol, x, "left", n_threads),
                             r_map_side(map, protocol, y, "right", n_threads)), x, y)
}

# predict() of a map made in R: its features, the object named as such.
predict_r_map <- function(object, newdata, side, n_threads) {
  protocol <- r_map_protocol(object)
  object <- protocol$validate(object, "object")
  r_map_features(object, protocol, r_map_data(object, newdata, "newdata"), side, n_threads)
}

#' @rdname predict.askrff_map
#' @export
predict.askrff_nystrom <- function(object, newdata, side = c("left", "right"), n_threads = NULL, ...) {
  predict_r_map(object, newdata, side, n_threads)
}

#' @rdname predict.askrff_map
#' @export
predict.askrff_maclaurin <- function(object, newdata, side = c("left", "right"), n_threads = NULL, ...) {
  predict_r_map(object, newdata, side, n_threads)
}

#' @rdname predict.askrff_map
#' @export
predict.askrff_tensor_sketch <- function(object, newdata, side = c("left", "right"), n_threads = NULL, ...) {
  predict_r_map(object, newdata, side, n_threads)
}
