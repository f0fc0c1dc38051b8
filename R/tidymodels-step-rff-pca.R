#' Kernel principal components as a recipes step
#'
#' `step_rff_pca()` creates a specification of a recipe step that replaces
#' the selected numeric predictors (or adds to them, with
#' `keep_original_cols = TRUE`) by their top `num_comp` kernel principal
#' components: the scores of [rff_pca()], which `recipes::step_kpca()`
#' computes from the n x n kernel matrix of the training rows (kernlab's
#' `kpca()`) and this step from a pass over them and a D x D
#' eigendecomposition.
#'
#' `prep()` standardizes the selected columns of the training set if
#' `standardize = TRUE` (the default for a kernel given by name), draws the
#' map for them as [step_rff()] does (a kernel by name at `scale` times the
#' median distance between the rows; a kernel object at `scale` times its
#' own length scales) and fits [rff_pca()] on the training rows with no
#' missing value in the selected columns. `bake()` gives the scores of any
#' new data, a row with a missing value in a selected column a row of `NA`.
#'
#' `tunable()` offers `num_comp` (`dials::num_comp()`), `scale`
#' ([rff_scale()]), `n_features` ([rff_num_features()]) and, for a kernel
#' given by name, `kernel` ([rff_kernel_family()]). `tidy()` gives one row
#' per component with its variance and its percent of the features' total
#' variance (after prep; `NA` before), and the step's `id`.
#'
#' @inheritParams step_rff
#' @param num_comp The number of components kept, at most the map's feature
#'   columns.
#' @param prefix The prefix of the new columns' names (`"KPC"`: `KPC1`,
#'   `KPC2`, ...).
#' @param pca,columns Set by `prep()`: the fit of [rff_pca()] (with the
#'   standardization) and the selected columns.
#' @return The recipe with the step added: a `step_rff_pca` object in its
#'   `steps`.
#' @family tidymodels
#' @examples
#' if (requireNamespace("recipes", quietly = TRUE)) {
#'   library(recipes)
#'   rec <- recipe(mpg ~ ., data = mtcars) |>
#'     step_rff_pca(all_numeric_predictors(), num_comp = 3, n_features = 64, seed = 1)
#'   trained <- prep(rec, mtcars)
#'   head(bake(trained, new_data = NULL))
#'   tidy(trained, number = 1)
#' }
#' @export
step_rff_pca <- function(recipe, ..., role = "predictor", trained = FALSE, num_comp = 5L, kernel = "gaussian",
                         scale = 1, n_features = 256L, method = "iid", standardize = NULL, prefix = "KPC",
                         keep_original_cols = FALSE, seed = sample.int(10^5, 1), pca = NULL, columns = NULL,
                         skip = FALSE, id = NULL) {
  require_suggested(c("recipes", "rlang"), "step_rff_pca()")
  # tune() placeholders are calls, checked once prep() sees their values
  if (!is.call(num_comp)) check_count(num_comp, "num_comp")
  standardize <- check_step_map_settings(kernel, scale, n_features, method, standardize, keep_original_cols, prefix,
                                         seed)
  if (is.null(id)) id <- recipes::rand_id("rff_pca")
  recipes::add_step(recipe, step_rff_pca_new(
    terms = rlang::enquos(...), role = role, trained = trained, num_comp = num_comp, kernel = kernel, scale = scale,
    n_features = n_features, method = method, standardize = standardize, prefix = prefix,
    keep_original_cols = keep_original_cols, seed = seed, pca = pca, columns = columns, skip = skip, id = id
  ))
}

step_rff_pca_new <- function(terms, role, trained, num_comp, kernel, scale, n_features, method, standardize, prefix,
                             keep_original_cols, seed, pca, columns, skip, id) {
  recipes::step("rff_pca", terms = terms, role = role, trained = trained, num_comp = num_comp, kernel = kernel,
                scale = scale, n_features = n_features, method = method, standardize = standardize, prefix = prefix,
                keep_original_cols = keep_original_cols, seed = seed, pca = pca, columns = columns, skip = skip,
                id = id)
}

#' @exportS3Method recipes::prep
prep.step_rff_pca <- function(x, training, info = NULL, ...) {
  rows <- training_rows_of_step(x, training, info, "step_rff_pca()")
  pca <- NULL
  if (length(rows$columns) > 0L) {
    pca <- rff_pca(rows$x, map = rows$map, rank = check_count(x$num_comp, "num_comp"), standardize = FALSE)
    if (ncol(pca$rotation) < x$num_comp) {
      fail("`num_comp` is %d, but the map has %d feature columns: step_rff_pca() keeps at most that many components.",
           as.integer(x$num_comp), ncol(pca$rotation))
    }
    # the scores of new rows standardize them as the training rows were
    pca$scaling <- rows$scaling
    pca$x <- NULL
  }
  step_rff_pca_new(terms = x$terms, role = x$role, trained = TRUE, num_comp = x$num_comp, kernel = x$kernel,
                   scale = x$scale, n_features = x$n_features, method = x$method, standardize = x$standardize,
                   prefix = x$prefix, keep_original_cols = recipes::get_keep_original_cols(x), seed = x$seed,
                   pca = pca, columns = rows$columns, skip = x$skip, id = x$id)
}

#' @exportS3Method recipes::bake
bake.step_rff_pca <- function(object, new_data, ...) {
  if (length(object$columns) == 0L && is.null(object$pca)) return(new_data)
  trained <- trained_rff_pca_step(object)
  recipes::check_new_data(trained$columns, object, new_data)
  add_step_columns(new_data, stats::predict(trained$pca, as.matrix(new_data[, trained$columns])), object, trained)
}

# What bake() and tidy() read of a prepped step, checked: a recipe is saved
# and edited like any other object.
trained_rff_pca_step <- function(step) {
  columns <- check_step_columns(step$columns)
  pca <- validate_pca(step$pca, "step$pca")
  if (pca$map$d != length(columns)) {
    fail("`step$pca` is for %d columns, but `step$columns` names %d.", pca$map$d, length(columns))
  }
  list(columns = columns, pca = pca, prefix = check_string(step$prefix, "step$prefix"))
}

#' @export
print.step_rff_pca <- function(x, width = max(20, options()$width - 30), ...) {
  recipes::print_step(x$columns, x$terms, x$trained, "Kernel principal components of ", width)
  invisible(x)
}

#' @exportS3Method generics::tidy
tidy.step_rff_pca <- function(x, ...) {
  if (recipes::is_trained(x) && !(length(x$columns) == 0L && is.null(x$pca))) {
    pca <- trained_rff_pca_step(x)$pca
    kept <- seq_len(ncol(pca$rotation))
    # (named apart from the columns, which tibble() evaluates in turn)
    variances <- pca$sdev^2
    return(tibble::tibble(component = colnames(pca$rotation), variance = variances[kept],
                          percent_variance = 100 * variances[kept] / pca_total_variance(pca), id = x$id))
  }
  tibble::tibble(component = NA_character_, variance = NA_real_, percent_variance = NA_real_, id = x$id)
}

#' @exportS3Method generics::tunable
tunable.step_rff_pca <- function(x, ...) {
  tibble::tibble(
    name = c("num_comp", "scale", "n_features", "kernel"),
    call_info = list(list(pkg = "dials", fun = "num_comp", range = c(1L, 10L)),
                     list(pkg = "askrff", fun = "rff_scale"), list(pkg = "askrff", fun = "rff_num_features"),
                     list(pkg = "askrff", fun = "rff_kernel_family")),
    source = "recipe", component = "step_rff_pca", component_id = x$id
  )
}

#' @exportS3Method generics::required_pkgs
required_pkgs.step_rff_pca <- function(x, ...) "askrff"
