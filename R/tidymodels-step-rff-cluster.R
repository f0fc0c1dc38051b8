#' Kernel k-means clusters as a recipes step
#'
#' `step_rff_cluster()` creates a specification of a recipe step that adds
#' one factor column, each row's cluster under kernel k-means on the
#' selected numeric predictors: [rff_kmeans()] on their random features,
#' where `kernlab::kkmeans()` would need the n x n kernel matrix of the
#' training rows.
#'
#' `prep()` standardizes the selected columns of the training set if
#' `standardize = TRUE` (the default for a kernel given by name), draws the
#' map for them as [step_rff()] does (a kernel by name at `scale` times the
#' median distance between the rows; a kernel object at `scale` times its
#' own length scales) and fits [rff_kmeans()] with `num_clusters` centres
#' and `n_starts` k-means++ starts from the seed on the training rows with
#' no missing value in the selected columns. `bake()` gives the nearest
#' centre of any new row (levels `"1"` to `num_clusters`), a row with a
#' missing value in a selected column `NA`. The selected columns stay
#' unless `keep_original_cols = FALSE`.
#'
#' `tunable()` offers `num_clusters` (`dials::num_clusters()`), `scale`
#' ([rff_scale()]), `n_features` ([rff_num_features()]) and, for a kernel
#' given by name, `kernel` ([rff_kernel_family()]). `tidy()` gives one row
#' per cluster with its size and within-cluster sum of squares in feature
#' space (after prep; `NA` before), and the step's `id`.
#'
#' @inheritParams step_rff
#' @param num_clusters The number of clusters, at least 1 and fewer than
#'   the training rows.
#' @param n_starts The number of k-means++ starts, as in [rff_kmeans()].
#' @param prefix The name of the new factor column.
#' @param keep_original_cols Whether to keep the selected columns beside the
#'   clusters (by default, yes).
#' @param kmeans,columns Set by `prep()`: the fit of [rff_kmeans()] (with
#'   the standardization) and the selected columns.
#' @return The recipe with the step added: a `step_rff_cluster` object in
#'   its `steps`.
#' @family tidymodels
#' @examples
#' if (requireNamespace("recipes", quietly = TRUE)) {
#'   library(recipes)
#'   rec <- recipe(Species ~ ., data = iris) |>
#'     step_rff_cluster(all_numeric_predictors(), num_clusters = 3, n_features = 64, seed = 1)
#'   trained <- prep(rec, iris)
#'   table(bake(trained, new_data = NULL)$rff_cluster, iris$Species)
#'   tidy(trained, number = 1)
#' }
#' @export
step_rff_cluster <- function(recipe, ..., role = "predictor", trained = FALSE, num_clusters = 3L, kernel = "gaussian",
                             scale = 1, n_features = 256L, method = "iid", standardize = NULL, n_starts = 5L,
                             prefix = "rff_cluster", keep_original_cols = TRUE, seed = sample.int(10^5, 1),
                             kmeans = NULL, columns = NULL, skip = FALSE, id = NULL) {
  require_suggested(c("recipes", "rlang"), "step_rff_cluster()")
  # tune() placeholders are calls, checked once prep() sees their values
  if (!is.call(num_clusters)) check_count(num_clusters, "num_clusters", max = 1e5)
  check_count(n_starts, "n_starts", max = 1000)
  standardize <- check_step_map_settings(kernel, scale, n_features, method, standardize, keep_original_cols, prefix,
                                         seed)
  if (is.null(id)) id <- recipes::rand_id("rff_cluster")
  recipes::add_step(recipe, step_rff_cluster_new(
    terms = rlang::enquos(...), role = role, trained = trained, num_clusters = num_clusters, kernel = kernel,
    scale = scale, n_features = n_features, method = method, standardize = standardize, n_starts = n_starts,
    prefix = prefix, keep_original_cols = keep_original_cols, seed = seed, kmeans = kmeans, columns = columns,
    skip = skip, id = id
  ))
}

step_rff_cluster_new <- function(terms, role, trained, num_clusters, kernel, scale, n_features, method, standardize,
                                 n_starts, prefix, keep_original_cols, seed, kmeans, columns, skip, id) {
  recipes::step("rff_cluster", terms = terms, role = role, trained = trained, num_clusters = num_clusters,
                kernel = kernel, scale = scale, n_features = n_features, method = method, standardize = standardize,
                n_starts = n_starts, prefix = prefix, keep_original_cols = keep_original_cols, seed = seed,
                kmeans = kmeans, columns = columns, skip = skip, id = id)
}

#' @exportS3Method recipes::prep
prep.step_rff_cluster <- function(x, training, info = NULL, ...) {
  rows <- training_rows_of_step(x, training, info, "step_rff_cluster()")
  if (length(rows$columns) > 0L) {
    kept <- if (isTRUE(x$keep_original_cols)) names(training) else setdiff(names(training), rows$columns)
    check_cluster_column(check_string(x$prefix, "prefix"), kept)
  }
  fit <- NULL
  if (length(rows$columns) > 0L) {
    fit <- rff_kmeans(rows$x, check_count(x$num_clusters, "num_clusters", max = 1e5), map = rows$map,
                      n_starts = x$n_starts, seed = x$seed, standardize = FALSE)
    # new rows are standardized as the training rows were
    fit$scaling <- rows$scaling
    fit$cluster <- NULL
  }
  step_rff_cluster_new(terms = x$terms, role = x$role, trained = TRUE, num_clusters = x$num_clusters,
                       kernel = x$kernel, scale = x$scale, n_features = x$n_features, method = x$method,
                       standardize = x$standardize, n_starts = x$n_starts, prefix = x$prefix,
                       keep_original_cols = recipes::get_keep_original_cols(x), seed = x$seed, kmeans = fit,
                       columns = rows$columns, skip = x$skip, id = x$id)
}

#' @exportS3Method recipes::bake
bake.step_rff_cluster <- function(object, new_data, ...) {
  if (length(object$columns) == 0L && is.null(object$kmeans)) return(new_data)
  trained <- trained_rff_cluster_step(object)
  recipes::check_new_data(trained$columns, object, new_data)
  cluster <- stats::predict(trained$kmeans, as.matrix(new_data[, trained$columns]))
  new_data <- recipes::remove_original_cols(new_data, object, trained$columns)
  check_cluster_column(trained$prefix, names(new_data))
  new_data[[trained$prefix]] <- factor(unname(cluster), levels = seq_len(nrow(trained$kmeans$centers)))
  new_data
}

# The clusters' column must be new to the columns the data keep.
check_cluster_column <- function(prefix, kept) {
  if (prefix %in% kept) {
    fail("`prefix` (\"%s\") names a column the data already have: give the clusters' column another name.", prefix)
  }
}

# What bake() and tidy() read of a prepped step, checked: a recipe is saved
# and edited like any other object.
trained_rff_cluster_step <- function(step) {
  columns <- check_step_columns(step$columns)
  fit <- validate_kmeans(step$kmeans, "step$kmeans")
  if (fit$map$d != length(columns)) {
    fail("`step$kmeans` is for %d columns, but `step$columns` names %d.", fit$map$d, length(columns))
  }
  list(columns = columns, kmeans = fit, prefix = check_string(step$prefix, "step$prefix"))
}

#' @export
print.step_rff_cluster <- function(x, width = max(20, options()$width - 30), ...) {
  recipes::print_step(x$columns, x$terms, x$trained, "Kernel k-means clusters of ", width)
  invisible(x)
}

#' @exportS3Method generics::tidy
tidy.step_rff_cluster <- function(x, ...) {
  if (recipes::is_trained(x) && !(length(x$columns) == 0L && is.null(x$kmeans))) {
    fit <- trained_rff_cluster_step(x)$kmeans
    return(tibble::tibble(cluster = seq_len(nrow(fit$centers)), size = as.integer(fit$size),
                          withinss = fit$withinss, id = x$id))
  }
  tibble::tibble(cluster = NA_integer_, size = NA_integer_, withinss = NA_real_, id = x$id)
}

#' @exportS3Method generics::tunable
tunable.step_rff_cluster <- function(x, ...) {
  tibble::tibble(
    name = c("num_clusters", "scale", "n_features", "kernel"),
    call_info = list(list(pkg = "dials", fun = "num_clusters", range = c(1L, 10L)),
                     list(pkg = "askrff", fun = "rff_scale"), list(pkg = "askrff", fun = "rff_num_features"),
                     list(pkg = "askrff", fun = "rff_kernel_family")),
    source = "recipe", component = "step_rff_cluster", component_id = x$id
  )
}

#' @exportS3Method generics::required_pkgs
required_pkgs.step_rff_cluster <- function(x, ...) "askrff"
