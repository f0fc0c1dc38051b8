# Conformance of every kind of map in the registry (R/map-kinds.R): the
# tests take the kinds from the registry, so a new kind is tested without
# being named here.

registry <- askrff:::map_kind_registry

# A map of each kind from its registry example, and data it takes.
example_map <- function(kind) do.call(kind, registry[[kind]]$example(), quote = TRUE)
example_data <- function(kind, map, n = 6) {
  x <- fixture_points(n, map$d, seed = 2)
  if (registry[[kind]]$sphere) normalize_rows(x) else x
}

test_that("the core reads every kind of the registry, and no other", {
  expect_setequal(names(registry), askrff:::.cpp_map_kinds())
})

test_that("every kind has its constructor and the methods the family needs", {
  required <- c("validate_fields", "map_columns", "map_memory", "print", "study_gram")
  for (kind in names(registry)) {
    expect_true(exists(kind, envir = asNamespace("askrff"), inherits = FALSE) && kind %in% getNamespaceExports("askrff"),
                info = sprintf("the kind %s has no exported constructor %s()", kind, kind))
    missing <- required[!vapply(required, function(generic) {
      !is.null(utils::getS3method(generic, kind, optional = TRUE, envir = asNamespace("askrff")))
    }, TRUE)]
    expect(length(missing) == 0L, sprintf("the kind %s lacks the methods %s", kind, paste0(missing, "()", collapse = ", ")))
    expect_true(is.list(registry[[kind]]$arguments) || is.null(registry[[kind]]$arguments), info = kind)
    expect_true(is.function(registry[[kind]]$example), info = kind)
  }
})

test_that("every kind's maps print, give features of their columns, and survive saving", {
  for (kind in names(registry)) {
    map <- example_map(kind)
    expect_s3_class(map, c(kind, "askrff_map"), exact = TRUE)
    expect_output(print(map), info = kind)
    x <- example_data(kind, map)
    features <- predict(map, x)
    expect_identical(ncol(features), as.integer(n_feature_columns(map)[[1L]]), info = kind)
    expect_true(all(is.finite(features)), info = kind)
    saved <- tempfile(fileext = ".rds")
    saveRDS(map, saved)
    expect_identical(predict(readRDS(saved), x), features, info = kind)
  }
})

test_that("approximation_study() compares every kind by its type", {
  for (kind in names(registry)) {
    map <- example_map(kind)
    x <- example_data(kind, map)
    type <- askrff:::study_type(kind)
    methods <- stats::setNames(list(list(type = type)), type)
    study <- approximation_study(map$kernel, x, n_features = 4, methods = methods, trials = 2, metrics = "frobenius",
                                 seed = 1)
    expect_identical(as.character(unique(study$method)), type, info = kind)
    expect_true(all(is.finite(study$frobenius)), info = kind)
  }
})
