# The methods of rff_pca()'s fits: the scores of new rows, a summary print,
# prcomp's summary of the total variance, the scree and score plots, and
# the checks of a fit a user may have saved and edited.

#' @rdname rff_pca
#' @export
predict.askrff_pca <- function(object, newdata, n_threads = NULL, ...) {
  check_no_dots(...)
  object <- validate_pca(object, "object")
  if (missing(newdata) || is.null(newdata)) {
    if (is.null(object$x)) fail("The fit of chunks keeps no scores: give `newdata`.")
    return(object$x)
  }
  rows <- unsupervised_newdata(object, newdata)
  scores <- matrix(NA_real_, length(rows$complete), ncol(object$rotation),
                   dimnames = list(rows$names, colnames(object$rotation)))
  if (any(rows$complete)) scores[rows$complete, ] <- pca_scores(object, rows$x, resolve_threads(n_threads))
  scores
}

#' @export
print.askrff_pca <- function(x, ...) {
  x <- validate_pca(x, "x")
  components <- ncol(x$rotation)
  share <- x$sdev^2 / pca_total_variance(x)
  cat(sprintf("Kernel principal components of %s rows on %d feature columns of the %s\n", format_count(x$n),
              nrow(x$rotation), kernel_label(x$map$kernel)))
  cat(sprintf("%d component%s kept, explaining %.1f %% of the features' variance\n", components,
              if (components == 1L) "" else "s", 100 * sum(share[seq_len(components)])))
  shown <- seq_len(min(components, 8L))
  cat("Standard deviations:\n")
  print(stats::setNames(signif(x$sdev[shown], 4), colnames(x$rotation)[shown]))
  invisible(x)
}

#' @rdname rff_pca
#' @export
summary.askrff_pca <- function(object, ...) {
  # prcomp's summary, of a fit checked first; the randomized solver's
  # shares are of the total variance, beyond the components kept
  object <- validate_pca(object, "object")
  if (is.null(object$total_variance)) return(NextMethod())
  share <- object$sdev^2 / object$total_variance
  object$importance <- rbind("Standard deviation" = object$sdev, "Proportion of Variance" = round(share, 5),
                             "Cumulative Proportion" = round(cumsum(share), 5))
  colnames(object$importance) <- colnames(object$rotation)
  class(object) <- "summary.prcomp"
  object
}

# The features' total variance: the sum of all the components' variances.
pca_total_variance <- function(fit) if (is.null(fit$total_variance)) sum(fit$sdev^2) else fit$total_variance

#' @rdname rff_pca
#' @export
plot.askrff_pca <- function(x, y, ...) {
  x <- validate_pca(x, "x")
  scores <- !is.null(x$x) && ncol(x$rotation) >= 2L
  old <- graphics::par(mfrow = c(1L, if (scores) 2L else 1L))
  on.exit(graphics::par(old))
  shown <- seq_len(min(length(x$sdev), 10L))
  graphics::barplot(x$sdev[shown]^2, names.arg = paste0("PC", shown), las = 2, ylab = "variance",
                    main = "Variance of the components")
  if (scores) {
    graphics::plot(x$x[, 1L], x$x[, 2L], xlab = "PC1", ylab = "PC2", pch = 20, col = grDevices::adjustcolor(1, 0.5),
                   main = "Scores of the rows fitted")
  }
  invisible(x)
}

# A fit of rff_pca() as a saved and perhaps edited list may hold it: its map
# valid, its rotation finite with one row per feature column, its centre
# FALSE or one finite number per column, its scaling one of the map's
# columns, its standard deviations finite and nonnegative.
validate_pca <- function(fit, arg) as_condition_class("invalid_object", {
  if (!is.list(fit) || !inherits(fit, "askrff_pca")) fail("`%s` must be a fit of rff_pca().", arg)
  model <- validate_fit_map(fit, arg)
  r <- fit$rotation
  if (!is_matrix(r) || !is.double(r) || nrow(r) != model$columns || ncol(r) < 1L || any(!is.finite(r))) {
    fail("`%s` must be a finite matrix with one row per feature column (%d) and at least one column.",
         field(arg, "rotation"), model$columns)
  }
  if (!isFALSE(fit$center) && (!is.double(fit$center) || length(fit$center) != model$columns ||
                                 any(!is.finite(fit$center)))) {
    fail("`%s` must be FALSE or one finite number per feature column (%d).", field(arg, "center"), model$columns)
  }
  s <- fit$sdev
  total <- fit$total_variance
  if (!is.null(total) && (!is_single_number(total) || !is.finite(total) || !(total > 0))) {
    fail("`%s` must be NULL or a positive finite number.", field(arg, "total_variance"))
  }
  # (their squares, the variances, finite too); the randomized solver's
  # for the components kept, within the total variance
  if (is.null(total)) {
    if (!is.double(s) || length(s) != model$columns || any(!is.finite(s^2)) || any(s < 0) || !(sum(s^2) > 0)) {
      fail("`%s` must be one finite nonnegative number per feature column (%d), not all 0.", field(arg, "sdev"),
           model$columns)
    }
  } else if (!is.double(s) || length(s) != ncol(r) || any(!is.finite(s^2)) || any(s < 0) || sum(s^2) > total * (1 + 1e-8)) {
    fail("`%s` must be one finite nonnegative number per component (%d) whose squares sum to at most `total_variance`.",
         field(arg, "sdev"), ncol(r))
  }
  if (!is.null(fit$x) && (!is_matrix(fit$x) || !is.double(fit$x) || ncol(fit$x) != ncol(r) || any(!is.finite(fit$x)))) {
    fail("`%s` must be NULL or a finite matrix of scores with one column per component (%d).", field(arg, "x"), ncol(r))
  }
  if (!is_single_number(fit$n) || !is.finite(fit$n) || fit$n < 2) {
    fail("`%s` must be the number of rows fitted, at least 2.", field(arg, "n"))
  }
  if (!is_single_number(fit$weight) || !is.finite(fit$weight) || !(fit$weight > 0)) {
    fail("`%s` must be the rows' total weight, a positive finite number.", field(arg, "weight"))
  }
  if (!is.null(fit$scaling)) fit$scaling <- validate_fit_scaling(fit$scaling, model$d, arg)
  fit$map <- model$map
  fit$fun <- model$fun
  fit
})
