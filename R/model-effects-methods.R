# The methods of rff_effects()'s results: the average effects (summary(),
# and tidy() as broom gives a model's terms), and a plot of the pointwise
# effects against each variable.

#' @rdname rff_effects
#' @param object The result of `rff_effects()`.
#' @export
summary.askrff_effects <- function(object, ...) {
  check_no_dots(...)
  average <- effects_average(object, "object")
  spread <- t(vapply(average$term, function(term) {
    stats::quantile(object$estimate[object$term == term], c(0, 0.25, 0.5, 0.75, 1), na.rm = TRUE, names = FALSE)
  }, numeric(5)))
  colnames(spread) <- c("min", "q25", "median", "q75", "max")
  out <- cbind(average, spread)
  rownames(out) <- NULL
  structure(out, class = c("summary.askrff_effects", "data.frame"), level = attr(object, "level"))
}

#' @export
print.summary.askrff_effects <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("Average marginal effects (derivatives), %g %% intervals:\n", 100 * attr(x, "level")))
  print(as.data.frame(unclass(x)), digits = digits, row.names = FALSE)
  invisible(x)
}

# The averages, checked: a result is a data frame a user may edit.
effects_average <- function(object, arg) {
  average <- attr(object, "average")
  if (!inherits(object, "askrff_effects") || !is.data.frame(average) ||
      !all(c("term", "estimate", "std.error", "conf.low", "conf.high") %in% names(average)) ||
      !all(c("term", "value", "estimate", "conf.low", "conf.high") %in% names(object))) {
    fail("`%s` must be a result of rff_effects().", arg, class = "invalid_object")
  }
  average
}

#' @rdname rff_effects
#' @param x The result of `rff_effects()`.
#' @param conf.int Whether to give the averages' confidence intervals.
#' @exportS3Method generics::tidy
tidy.askrff_effects <- function(x, conf.int = TRUE, ...) {
  check_no_dots(...)
  check_flag(conf.int, "conf.int")
  require_suggested("tibble", "`tidy()` of marginal effects")
  average <- effects_average(x, "x")
  df <- attr(x, "df")
  if (!is_single_number(df) || !(df > 0)) fail("`x` must be a result of rff_effects().", class = "invalid_object")
  statistic <- average$estimate / average$std.error
  out <- tibble::tibble(term = average$term, estimate = average$estimate, std.error = average$std.error,
                        statistic = statistic, p.value = 2 * stats::pt(-abs(statistic), df))
  if (conf.int) {
    out$conf.low <- average$conf.low
    out$conf.high <- average$conf.high
  }
  out
}

#' @rdname rff_effects
#' @export
plot.askrff_effects <- function(x, variables = NULL, ...) {
  check_no_dots(...)
  average <- effects_average(x, "x")
  terms <- if (is.null(variables)) average$term else variables
  if (!is.character(terms) || length(terms) < 1L || !all(terms %in% average$term)) {
    fail("`variables` must name variables of the effects (%s).", paste(average$term, collapse = ", "))
  }
  old <- graphics::par(mfrow = grDevices::n2mfrow(length(terms)), mar = c(4, 4, 2, 1))
  on.exit(graphics::par(old))
  for (term in terms) {
    rows <- x[x$term == term & !is.na(x$estimate), , drop = FALSE]
    rows <- rows[order(rows$value), , drop = FALSE]
    graphics::plot(rows$value, rows$estimate, type = "n", xlab = term, ylab = sprintf("d fit / d %s", term),
                   ylim = range(c(rows$conf.low, rows$conf.high, 0), finite = TRUE), main = term)
    graphics::segments(rows$value, rows$conf.low, rows$value, rows$conf.high, col = "grey70")
    graphics::points(rows$value, rows$estimate, pch = 20, cex = 0.6)
    graphics::abline(h = c(0, average$estimate[average$term == term]), lty = c(3, 2))
  }
  invisible(x)
}
