# print, summary and plot of approximation_study() results.

# A study is a data frame users may edit; the methods need its columns.
validate_study <- function(study, arg) as_condition_class("invalid_object", {
  if (!is.data.frame(study) || !inherits(study, "askrff_study")) fail("`%s` must be a result of approximation_study().", arg)
  metrics <- intersect(study_metrics, names(study))
  if (!all(c("method", "n_features", "trial") %in% names(study)) || length(metrics) == 0L || nrow(study) < 1L) {
    fail("`%s` must have the columns `method`, `n_features`, `trial` and at least one of %s.", arg,
         paste0("`", study_metrics, "`", collapse = ", "))
  }
  method <- study$method
  if (!(is.character(method) || is.factor(method)) || anyNA(method) || length(method) != nrow(study)) {
    fail("`%s$method` must name each row's method.", arg)
  }
  error <- study$error
  if (!is.null(error) && (!is.character(error) || length(error) != nrow(study))) {
    fail("`%s$error` must be NA or the message of a failed draw, one per row.", arg)
  }
  failed <- if (is.null(error)) logical(nrow(study)) else !is.na(error)
  for (name in intersect(c("n_features", "trial", "n_columns", metrics, "seconds"), names(study))) {
    # a failed draw's numbers are NA, its size and trial are not
    value <- study[[name]]
    kept <- if (name %in% c("n_features", "trial")) value else value[!failed]
    if (!is.numeric(value) || anyNA(kept) || any(!is.finite(kept)) || any(kept < 0) ||
        (name %in% c("n_features", "trial") && any(value < 1))) {
      fail("`%s$%s` must hold finite nonnegative numbers (at least 1 for `n_features` and `trial`), NA only where `error` says a draw failed.",
           arg, name)
    }
  }
  study$method <- factor(study$method, levels = unique(as.character(study$method)))
  measured <- study[!failed, , drop = FALSE]
  list(study = study, measured = measured, metrics = metrics)
})

# The rows of a validated study whose draws succeeded; none is an error.
measured_rows <- function(checked) {
  if (nrow(checked$measured) == 0L) fail("Every draw of the study failed; its `error` column says why.")
  checked$measured
}

# The fitted slope of log(error) against log(n_features) of each method.
study_slopes <- function(study, metric) {
  vapply(split(study, study$method), function(rows) {
    keep <- rows[[metric]] > 0
    if (length(unique(rows$n_features[keep])) < 2L) return(NA_real_)
    unname(stats::coef(stats::lm(log(rows[[metric]][keep]) ~ log(rows$n_features[keep])))[2L])
  }, double(1))
}

#' @export
summary.askrff_study <- function(object, ...) {
  checked <- validate_study(object, "object")
  study <- measured_rows(checked)
  groups <- split(study, list(study$method, study$n_features), drop = TRUE, lex.order = TRUE)
  table <- do.call(rbind, lapply(groups, function(rows) {
    out <- data.frame(method = rows$method[1L], n_features = rows$n_features[1L], trials = nrow(rows))
    for (metric in checked$metrics) {
      out[[metric]] <- mean(rows[[metric]])
      out[[paste0(metric, "_sd")]] <- if (nrow(rows) > 1L) stats::sd(rows[[metric]]) else NA_real_
    }
    if (!is.null(rows$seconds)) out$seconds <- mean(rows$seconds)
    out
  }))
  rownames(table) <- NULL
  pairs <- attr(object, "pairs")
  if (is.data.frame(pairs) && all(c("method", "n_features") %in% names(pairs))) {
    pairs$trials <- NULL
    table <- merge(table, pairs, by = c("method", "n_features"), sort = FALSE)
    table <- table[order(table$method, table$n_features), ]
    rownames(table) <- NULL
  }
  structure(list(table = table, slopes = study_slopes(study, checked$metrics[1L]), metric = checked$metrics[1L],
                 kernel = attr(object, "kernel"), points = attr(object, "points")),
            class = "summary.askrff_study")
}

#' @export
print.summary.askrff_study <- function(x, ...) {
  cat("<askrff approximation study>", if (is.character(x$kernel)) x$kernel else "", "\n")
  print(x$table, digits = 3, row.names = FALSE)
  slopes <- x$slopes[!is.na(x$slopes)]
  if (length(slopes) > 0L) {
    cat(sprintf("\nslope of log %s against log n_features: %s\n", x$metric,
                paste(sprintf("%s %.2f", names(slopes), slopes), collapse = ", ")))
  }
  invisible(x)
}

#' @export
print.askrff_study <- function(x, ...) {
  checked <- validate_study(x, "x")
  study <- checked$study
  points <- attr(x, "points")
  cat(sprintf("<askrff approximation study> %s%s\n", if (is.character(attr(x, "kernel"))) attr(x, "kernel") else "",
              if (length(points) == 2L) sprintf(", %d x %d points", points[1L], points[2L]) else ""))
  cat(sprintf("  methods: %s; n_features: %s; %d trials\n", paste(levels(study$method), collapse = ", "),
              paste(sort(unique(study$n_features)), collapse = ", "), length(unique(study$trial))))
  rows <- as.data.frame(study)
  if (all(is.na(rows$error))) rows$error <- NULL else rows$error <- ifelse(is.na(rows$error), "", "failed, see `error`")
  print(utils::head(rows, 6L), digits = 3, row.names = FALSE)
  if (nrow(rows) > 6L) cat(sprintf("  ... %d more rows\n", nrow(rows) - 6L))
  cat("summary() gives means, spreads, bias and variance; plot() the error against n_features\n")
  invisible(x)
}

#' Plot an approximation study
#'
#' The error against the number of features on log-log axes, one line per
#' method through its mean over trials, with each trial's value as a point
#' and the legend giving the fitted slope (-1/2 is the Monte Carlo rate).
#' With `metric = "variance"`, the variance of one entry of \eqn{\hat K}
#' across trials (the mean over pairs), one line per method, and dashed
#' beside it the closed form where [approximation_study()] has one: theory
#' beside experiment.
#'
#' @param x A result of [approximation_study()].
#' @param metric The error to plot: `"frobenius"`, `"spectral"` or
#'   `"max_abs"`, among those the study computed, or `"variance"`.
#' @param ... Passed to [graphics::plot()], such as `main`, `ylim` or
#'   `xlab` (whose default is `"n_features"`).
#' @return `x`, invisibly.
#' @family experiments
#' @export
plot.askrff_study <- function(x, metric = NULL, ...) {
  checked <- validate_study(x, "x")
  metric <- if (is.null(metric)) checked$metrics[1L] else check_choice(metric, c(checked$metrics, "variance"), "metric")
  if (metric == "variance") return(invisible(plot_study_variance(x, ...)))
  study <- measured_rows(checked)
  study <- study[study[[metric]] > 0, , drop = FALSE]
  if (nrow(study) == 0L) fail("The study's `%s` errors are all zero, so there is nothing to draw on log axes.", metric)
  methods <- levels(droplevels(study$method))
  colours <- study_colours(methods)
  label <- switch(metric, frobenius = "relative Frobenius error", spectral = "relative spectral error",
                  max_abs = "largest absolute error")
  # the axis labels are defaults that `...` may replace
  draw_with_defaults(graphics::plot, list(x = study$n_features, y = study[[metric]], log = "xy", type = "n",
                                          xlab = "n_features", ylab = label), list(...))
  slopes <- study_slopes(study, metric)
  for (i in seq_along(methods)) {
    rows <- study[study$method == methods[i], ]
    graphics::points(rows$n_features, rows[[metric]], col = grDevices::adjustcolor(colours[i], 0.4), pch = 16, cex = 0.6)
    means <- tapply(rows[[metric]], rows$n_features, mean)
    graphics::lines(as.numeric(names(means)), means, col = colours[i], lwd = 2, type = "b", pch = 19)
  }
  legend <- ifelse(is.na(slopes[methods]), methods, sprintf("%s (slope %.2f)", methods, slopes[methods]))
  graphics::legend("bottomleft", legend = legend, col = colours, lwd = 2, pch = 19, bty = "n")
  invisible(x)
}

study_colours <- function(methods) grDevices::hcl.colors(max(length(methods), 2L), "Dark 3")[seq_along(methods)]

# The measured variance per method and size from the study's "pairs"
# attribute, solid, and its closed form, dashed.
plot_study_variance <- function(x, ...) {
  pairs <- attr(x, "pairs")
  columns <- c("method", "n_features", "variance", "theory_variance")
  if (!is.data.frame(pairs) || !all(columns %in% names(pairs)) || !is.numeric(pairs$n_features) ||
      !is.numeric(pairs$variance) || !is.numeric(pairs$theory_variance)) {
    fail("`x` must keep the attribute \"pairs\" of approximation_study(), with the columns %s.",
         paste0("`", columns, "`", collapse = ", "))
  }
  shown <- is.finite(pairs$variance) & pairs$variance > 0 & pairs$n_features > 0
  if (!any(shown)) fail("The study's variances are all zero or missing (one trial?), so there is nothing to draw on log axes.")
  pairs <- pairs[shown, , drop = FALSE]
  methods <- unique(as.character(pairs$method))
  colours <- study_colours(methods)
  theory <- is.finite(pairs$theory_variance) & pairs$theory_variance > 0
  values <- c(pairs$variance, pairs$theory_variance[theory])
  draw_with_defaults(graphics::plot, list(x = range(pairs$n_features), y = range(values), log = "xy", type = "n",
                                          xlab = "n_features", ylab = "variance of one entry (mean over pairs)"), list(...))
  for (i in seq_along(methods)) {
    rows <- pairs[pairs$method == methods[i], , drop = FALSE]
    rows <- rows[order(rows$n_features), , drop = FALSE]
    graphics::lines(rows$n_features, rows$variance, col = colours[i], lwd = 2, type = "b", pch = 19)
    known <- is.finite(rows$theory_variance) & rows$theory_variance > 0
    if (any(known)) graphics::lines(rows$n_features[known], rows$theory_variance[known], col = colours[i], lwd = 2, lty = 2)
  }
  named <- vapply(methods, function(m) any(theory & pairs$method == m), logical(1))
  graphics::legend("topright", legend = c(methods, "closed form"[any(named)]),
                   col = c(colours, "grey30"[any(named)]), lwd = 2, lty = c(rep(1, length(methods)), 2[any(named)]),
                   pch = c(rep(19, length(methods)), NA[any(named)]), bty = "n")
  x
}
