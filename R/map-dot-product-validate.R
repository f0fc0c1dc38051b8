# The checks of Random Maclaurin and Tensor Sketch maps' fields: maps are
# plain lists that users save, edit and share, so every function that
# takes one validates it first.

#' @export
validate_fields.maclaurin_map <- function(map, arg) {
  check_object(map, arg, "maclaurin_map", "a map made by maclaurin_map()")
  base <- validate_dot_product_base(map, arg)
  D <- base$n_features
  degree <- map$degree
  if (!is.numeric(degree) || is.object(degree) || length(degree) != D || anyNA(degree) || any(degree < 0) ||
      any(degree > 1e5) || any(degree != round(degree))) {
    fail("`%s` must hold one whole degree from 0 to 100,000 per feature column (%d).", field(arg, "degree"), D)
  }
  if (!is.double(map$weight) || is.object(map$weight) || length(map$weight) != D || any(!is.finite(map$weight)) ||
      any(map$weight < 0)) {
    fail("`%s` must hold one finite weight of at least 0 per feature column (%d).", field(arg, "weight"), D)
  }
  if (!is.numeric(map$sign) || is.object(map$sign) || length(map$sign) != D || anyNA(map$sign) ||
      !all(map$sign %in% c(-1, 1))) {
    fail("`%s` must hold one sign, -1 or 1, per feature column (%d).", field(arg, "sign"), D)
  }
  check_signs_matrix(map$rademacher, base$d, sum(degree), field(arg, "rademacher"))
  base$degree <- as.integer(degree)
  base$sign <- as.double(map$sign)
  base
}

#' @export
validate_fields.tensor_sketch_map <- function(map, arg) {
  check_object(map, arg, "tensor_sketch_map", "a map made by tensor_sketch_map()")
  base <- validate_dot_product_base(map, arg)
  constant <- map$constant
  if (!is_single_number(constant) || !is.finite(constant)) fail("`%s` must be a single finite number.", field(arg, "constant"))
  blocks <- map$blocks
  if (!is.list(blocks) || is.object(blocks)) fail("`%s` must be a list of sketch blocks.", field(arg, "blocks"))
  base$blocks <- lapply(seq_along(blocks), function(b) {
    where <- sprintf("%s[[%d]]", field(arg, "blocks"), b)
    block <- blocks[[b]]
    if (!is.list(block) || is.object(block)) fail("`%s` must be a list with a degree, coefficient, columns, hash and sign.", where)
    degree <- check_count(block$degree, field(where, "degree"), max = 1e5)
    columns <- check_count(block$columns, field(where, "columns"), max = base$n_features)
    if (!is_single_number(block$coefficient) || !is.finite(block$coefficient) || block$coefficient == 0) {
      fail("`%s` must be a single finite nonzero number.", field(where, "coefficient"))
    }
    hash <- block$hash
    if (!is.numeric(hash) || !is_matrix(hash) || is.object(hash) || !identical(dim(hash), c(base$d, degree)) ||
        anyNA(hash) || any(hash != round(hash)) || any(hash < 1) || any(hash > columns)) {
      fail("`%s` must be a %d x %d matrix of whole numbers from 1 to `columns` (%d).", field(where, "hash"), base$d,
           degree, columns)
    }
    check_signs_matrix(block$sign, base$d, degree, field(where, "sign"))
    storage.mode(hash) <- "integer"
    list(degree = degree, coefficient = as.double(block$coefficient), columns = columns, hash = hash,
         sign = block$sign)
  })
  used <- sum(vapply(base$blocks, `[[`, 1L, "columns")) + (constant != 0)
  if (used != base$n_features) {
    fail("`%s` has %d feature columns in its constant and blocks, not `n_features` = %d; make the map again with tensor_sketch_map().",
         arg, used, base$n_features)
  }
  base$constant <- as.double(constant)
  base
}

# The fields both maps share, checked: the kernel (a dot-product kernel), d
# and n_features.
validate_dot_product_base <- function(map, arg) {
  kernel <- validate_kernel(map$kernel, field(arg, "kernel"))
  dot_product_series(kernel, field(arg, "kernel"))
  d <- check_count(map$d, field(arg, "d"))
  check_kernel_dimension(kernel, d)
  map$kernel <- kernel
  map$d <- d
  map$n_features <- check_count(map$n_features, field(arg, "n_features"))
  map
}

check_signs_matrix <- function(x, rows, cols, name) {
  if (!is.numeric(x) || !is_matrix(x) || is.object(x) || !identical(dim(x), as.integer(c(rows, cols))) ||
      anyNA(x) || !all(x %in% c(-1, 1))) {
    fail("`%s` must be a %d x %s matrix of signs, -1 or 1.", name, rows, format_count(cols))
  }
}
