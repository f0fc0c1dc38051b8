# Checks of rff_ridge() fits, which are plain lists that users save, edit
# and share: every method validates its fit first.

validate_ridge <- function(fit, arg) as_condition_class("invalid_object", {
  if (!is.list(fit) || !inherits(fit, "askrff_ridge")) fail("`%s` must be a fit of rff_ridge().", arg)
  model <- validate_fit_map(fit, arg)
  response <- fit$response
  if (!is.list(response) || !is.character(response$kind) || length(response$kind) != 1L ||
      !response$kind %in% c("numeric", "matrix", "factor") || !is.character(response$names) ||
      length(response$names) < 1L || anyNA(response$names) ||
      (response$kind == "numeric" && length(response$names) != 1L) ||
      (response$kind == "factor" && (length(response$names) < 2L || anyDuplicated(response$names) > 0L))) {
    fail("`%s` must describe the response kind and names as rff_ridge() does (a factor's levels: two or more, distinct).",
         field(arg, "response"))
  }
  b <- fit$coefficients
  if (!is_matrix(b) || !is.double(b) || nrow(b) != model$columns || ncol(b) != length(response$names) ||
      any(!is.finite(b))) {
    fail("`%s` must be a finite matrix with one row per feature column (%d) and one column per response (%d).",
         field(arg, "coefficients"), model$columns, length(response$names))
  }
  b0 <- fit$intercept
  if (!is.double(b0) || length(b0) != ncol(b) || any(!is.finite(b0))) {
    fail("`%s` must hold one finite number per response.", field(arg, "intercept"))
  }
  path <- fit$path
  if (!is.data.frame(path) || !all(c("lambda", "df", "gcv", "evidence") %in% names(path)) || nrow(path) < 1L ||
      !is.double(path$lambda) || any(!is.finite(path$lambda)) || any(path$lambda <= 0) || !is.double(path$gcv) ||
      anyNA(path$gcv) || any(path$gcv < 0) || !is.double(path$df) || any(!is.finite(path$df)) ||
      !is.double(path$evidence) || anyNA(path$evidence) || any(path$evidence == Inf)) {
    fail("`%s` must be a data frame of positive `lambda`, finite `df`, nonnegative `gcv` and `evidence` below infinity, as rff_ridge() makes.",
         field(arg, "path"))
  }
  if (!is.character(fit$criterion) || length(fit$criterion) != 1L || !fit$criterion %in% c("gcv", "evidence", "loo")) {
    fail("`%s` must be \"gcv\", \"evidence\" or \"loo\".", field(arg, "criterion"))
  }
  if (!is.null(path$loo) && (!is.double(path$loo) || any(!is.finite(path$loo)) || any(path$loo < 0))) {
    fail("`%s` must be finite nonnegative leave-one-out errors, as rff_ridge() makes.", field(arg, "path$loo"))
  }
  validate_ridge_lambda(fit, path, response, arg)
  if (!is_single_number(fit$n) || !is.finite(fit$n) || fit$n < 2 || fit$n != round(fit$n)) {
    fail("`%s` must be the number of rows fitted, at least 2.", field(arg, "n"))
  }
  if (!is.double(fit$rss) || length(fit$rss) != ncol(b) || any(!is.finite(fit$rss)) || any(fit$rss < 0)) {
    fail("`%s` must hold one finite nonnegative residual sum of squares per response.", field(arg, "rss"))
  }
  w <- fit$weights
  if (!is.null(w) && (!is.double(w) || !is.null(dim(w)) || any(!is.finite(w)) || any(w < 0) || sum(w > 0) != fit$n)) {
    fail("`%s` must be NULL or the finite nonnegative weights of the rows fitted, n = %s of them positive.",
         field(arg, "weights"), format_count(fit$n))
  }
  rows <- if (is.null(w)) fit$n else length(w)
  for (name in c("fitted", "residuals")) {
    value <- fit[[name]]
    if (!is.null(value) && (!is_matrix(value) || !is.double(value) || nrow(value) != rows || ncol(value) != ncol(b) ||
                            any(!is.finite(value)))) {
      fail("`%s` must be NULL (streamed data) or a finite matrix of %s rows (one per row fitted) and one column per response.",
           field(arg, name), format_count(rows))
    }
  }
  offsets <- fit$offset_values
  if (!is.null(offsets) && (!is.double(offsets) || !is.null(dim(offsets)) || length(offsets) != rows ||
                            any(!is.finite(offsets)))) {
    fail("`%s` must be NULL or the finite offsets of the %s rows fitted.", field(arg, "offset_values"), format_count(rows))
  }
  if (!is.null(fit$scaling)) fit$scaling <- validate_fit_scaling(fit$scaling, model$d, arg)
  validate_posterior(fit$posterior, model$columns, field(arg, "posterior"))
  if (!is.null(fit$selection)) fit$selection <- validate_selection(fit$selection, fit, model$map, field(arg, "selection"))
  if (!is.null(fit$log_weight) && (!is_single_number(fit$log_weight) || !is.finite(fit$log_weight))) {
    fail("`%s` must be the finite sum of the logarithms of the positive weights.", field(arg, "log_weight"))
  }
  if (!is.null(fit$design) || !is.null(fit$call)) validate_design(fit$design, field(arg, "design"))
  validate_offset_flag(fit$offset, field(arg, "offset"))
  fit$fun <- model$fun
  fit$map <- model$map
  fit
})

# A fit's lambda: one of its path's values, or with one per response (a
# path of each response's rows, led by its `response`), each one of its
# response's.
validate_ridge_lambda <- function(fit, path, response, arg) {
  names <- response$names
  per_response <- !is.null(path$response)
  if (per_response && (response$kind != "matrix" || !is.character(path$response) ||
                       !setequal(path$response, names))) {
    fail("`%s` must name the response of each row of the path, every column of a numeric matrix response, as rff_ridge() makes with one lambda per response.",
         field(arg, "path$response"))
  }
  lambda <- fit$lambda
  if (!per_response && (!is_single_number(lambda) || !is.finite(lambda) || !lambda %in% path$lambda)) {
    fail("`%s` must be one of the path's lambda values.", field(arg, "lambda"))
  }
  if (per_response && (!is.double(lambda) || !is.null(dim(lambda)) || length(lambda) != length(names) ||
                       !all(vapply(seq_along(names), function(j) lambda[j] %in% path$lambda[path$response == names[j]], TRUE)))) {
    fail("`%s` must hold one lambda per response (%d), each one of its rows of the path.", field(arg, "lambda"),
         length(names))
  }
  # a single given lambda has nothing to choose, so no leave-one-out pass
  if (fit$criterion == "loo" && is.null(path$loo) && nrow(path) > (if (per_response) length(names) else 1L)) {
    fail("`%s` must hold the leave-one-out errors `loo` of a fit whose criterion is \"loo\".", field(arg, "path"))
  }
}

validate_posterior <- function(posterior, columns, where) {
  if (!is.list(posterior) || !is_matrix(posterior$vectors) || !is.double(posterior$vectors) ||
      nrow(posterior$vectors) != columns || ncol(posterior$vectors) > columns || any(!is.finite(posterior$vectors)) ||
      !is.double(posterior$values) || length(posterior$values) != ncol(posterior$vectors) ||
      any(!is.finite(posterior$values)) || any(posterior$values < 0) ||
      !is.double(posterior$z_mean) || length(posterior$z_mean) != columns || any(!is.finite(posterior$z_mean)) ||
      !is_single_number(posterior$weight) || !is.finite(posterior$weight) || posterior$weight <= 0) {
    fail("`%s` must hold the eigenvectors (%d rows) and nonnegative eigenvalues of the fit, the features' finite `z_mean` and the positive sum of weights `weight`, as rff_ridge() makes.",
         where, columns)
  }
}

# The record of a scale search: its candidates' scales (one row each), the
# lambda and the criterion's value each got, and the chosen one, whose
# rescaled kernel is the fit's.
validate_selection <- function(selection, fit, map, where) {
  if (!is.list(selection) || !identical(selection$criterion, fit$criterion) ||
      !is.character(selection$method) || length(selection$method) != 1L || !selection$method %in% c("grid", "optimize")) {
    fail("`%s` must record the fit's criterion and the method, \"grid\" or \"optimize\", as rff_ridge() makes.", where)
  }
  kernel <- validate_kernel(selection$kernel, field(where, "kernel"))
  scales <- selection$scales
  tried <- if (is_matrix(scales)) nrow(scales) else 0L
  # one lambda per candidate, or a row each of one per response
  lambda <- selection$lambda
  lambdas <- if (is_matrix(lambda)) ncol(lambda) else if (is.null(dim(lambda))) 1L else 0L
  if (tried < 1L || !is.double(scales) || !ncol(scales) %in% c(1L, map$d) || any(!is.finite(scales)) || any(scales <= 0) ||
      !is.double(lambda) || NROW(lambda) != tried || !lambdas %in% c(1L, length(fit$lambda)) ||
      any(!is.finite(lambda)) || any(lambda <= 0) || !is.double(selection$value) || length(selection$value) != tried ||
      anyNA(selection$value) || !is_single_number(selection$chosen) || !selection$chosen %in% seq_len(tried)) {
    fail("`%s` must hold positive finite `scales` (one row per candidate, one column or one per coordinate), each candidate's positive `lambda` (one, or a row of one per response) and `value`, and the `chosen` row, as rff_ridge() makes.",
         where)
  }
  chosen <- tryCatch(scale_kernel(kernel, scales[selection$chosen, ], map$d), askrff_error = function(e) {
    fail("`%s` must hold scales the kernel takes: %s", where, conditionMessage(e))
  })
  # a search on fewer rows records each candidate's (one number in fits made
  # before the refinement took more rows), and every candidate's
  # frequencies; their lambdas are that problem's
  whole <- function(v) is.numeric(v) && !anyNA(v) && all(is.finite(v) & v >= 1 & v == round(v))
  if (!is.null(selection$rows) && !(whole(selection$rows) && length(selection$rows) %in% c(1L, tried)) ||
      !is.null(selection$frequencies) && !(whole(selection$frequencies) && length(selection$frequencies) == tried)) {
    fail("`%s` must record each candidate's `rows` and `frequencies` as positive whole numbers, as rff_ridge() makes.",
         where)
  }
  # a surrogate's lambdas are another model's
  if (!is.null(selection$surrogate) && !identical(selection$surrogate, "ridge")) {
    fail("`%s` must be NULL or \"ridge\", the model whose criterion chose the scales, as rff_glm() makes.",
         field(where, "surrogate"))
  }
  reduced <- !is.null(selection$rows) || !identical(selection$frequencies[selection$chosen], n_frequencies(map)) ||
    !is.null(selection$surrogate)
  chosen_lambda <- if (is_matrix(lambda)) lambda[selection$chosen, ] else lambda[selection$chosen]
  if (!isTRUE(all.equal(chosen, map$kernel)) || (!reduced && any(chosen_lambda != fit$lambda))) {
    fail("`%s` must agree with the fit: the chosen row's scales give the map's kernel and its lambda is the fit's.", where)
  }
  selection$kernel <- kernel
  selection$chosen <- as.integer(selection$chosen)
  selection
}

validate_design <- function(design, where) {
  if (!is.list(design) || !inherits(design$terms, "terms") || !is.list(design$xlevels) ||
      !(is.null(design$contrasts) || is.list(design$contrasts))) {
    fail("`%s` must hold the `terms`, `xlevels` and `contrasts` of a formula fit, as rff_ridge() makes.", where)
  }
  if (!is.null(design$response) && !is.symbol(design$response) && !is.call(design$response)) {
    fail("`%s` must be the response's expression (a name or a call), as the formula gives it.", field(where, "response"))
  }
  offset <- design$offset
  if (!is.null(offset) && !is.symbol(offset) && !is.call(offset) && !(is.numeric(offset) && !is.object(offset))) {
    fail("`%s` must be NULL or the `offset` argument's expression (a name, a call or numbers), as the call gives it.",
         field(where, "offset"))
  }
}

# Whether a fit's rows carried an offset: NULL (a fit made before offsets
# were kept: none), TRUE or FALSE.
validate_offset_flag <- function(offset, where) {
  if (!is.null(offset) && !isTRUE(offset) && !isFALSE(offset)) {
    fail("`%s` must be TRUE or FALSE: whether the rows fitted carried an offset.", where)
  }
}
