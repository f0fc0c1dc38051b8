# The registry of map kinds. A kind is the name of its constructor and of
# its class, c(kind, "askrff_map"). Its file (R/map-*.R) holds the
# constructor and the kind's methods: of the generics in R/map-family.R
# (validate_fields(), map_columns(), map_memory() and print() it must have;
# the others where the family's defaults do not fit) and of study_draw()
# (R/study-trials.R), through which approximation_study() compares it. Its
# entry here gives what the package asks of a kind by name:
# - `arguments`: what a method of approximation_study() of the kind takes
#   beyond the kernel, the data, the size and the seed, with their defaults
#   (NULL for rff_map, whose methods take those of map_design());
# - `example()`: the arguments of a small map of the kind, from which the
#   tests make one of every kind; `sphere` when its data must lie on the
#   unit sphere.
# The core reads every kind (`feature_map()` in src/adapters.h), and a test
# checks that it knows each one.
map_kind_registry <- list(
  rff_map = list(arguments = NULL, sphere = FALSE,
                 example = function() list(kernel = gaussian_kernel(1), d = 3, n_features = 8, seed = 1)),
  rpf_map = list(arguments = list(method = "iid", left = "square", right = "cos"), sphere = FALSE,
                 example = function() list(kernel = gaussian_kernel(1), d = 3, n_features = 8, seed = 1)),
  nystrom_map = list(arguments = list(landmarks = "uniform", rank = NULL, tolerance = 1e-8), sphere = FALSE,
                     example = function() {
                       list(kernel = gaussian_kernel(1), landmarks = matrix(c(0.1, -0.4, 0.9, 0.3, 0.2, -0.7, 1, 0, 0.5), 3))
                     }),
  maclaurin_map = list(arguments = list(), sphere = TRUE,
                       example = function() list(kernel = poly_sphere_kernel(3, 2), d = 3, n_features = 6, seed = 1)),
  tensor_sketch_map = list(arguments = list(), sphere = TRUE,
                           example = function() list(kernel = poly_sphere_kernel(3, 2), d = 3, n_features = 6, seed = 1)),
  fastfood_map = list(arguments = list(), sphere = FALSE,
                      example = function() list(kernel = gaussian_kernel(1), d = 3, n_features = 6, seed = 1))
)

map_kinds <- names(map_kind_registry)

# The class a kind's maps had when they were saved before the maps were one
# family, with the kind each is now (rpf_map's had its kind alone).
legacy_map_classes <- c(askrff_map = "rff_map", rpf_map = "rpf_map", askrff_nystrom = "nystrom_map",
                        askrff_maclaurin = "maclaurin_map", askrff_tensor_sketch = "tensor_sketch_map")

map_class <- function(kind) c(kind, "askrff_map")

# A map saved under its kind's earlier class, given the current one.
current_map_class <- function(map) {
  saved <- class(map)
  if (is.list(map) && length(saved) == 1L && saved %in% names(legacy_map_classes)) {
    class(map) <- map_class(legacy_map_classes[[saved]])
  }
  map
}

# The name of a kind's methods in approximation_study() ("nystrom" for
# nystrom_map), and back.
study_type <- function(kind) sub("_map$", "", kind)
type_kind <- function(type) paste0(type, "_map")
