# The methods of rff_effects()'s results: the average effects (summary(),
# and tidy() as broom gives a model's terms), and a plot of the pointwise
# effects against each variable.

#' @rdname rff_effects
#' @param object The result of `rff_effects()`.
#' @export
summary.askrff_effects <- function(object, ...) {
  check_no_dots(...)
  average <- effects_average(object, "object")
  spread <- t(vapply(seq_len(nrow(average)), function(k) {
    chosen <- object$term == average$term[[k]] & object$contrast == average$contrast[[k]]
    stats::quantile(object$estimate[chosen], c(0, 0.25, 0.5, 0.75, 1), na.rm = TRUE, names = FALSE)
  }, numeric(5)))
  colnames(spread) <- c("min", "q25", "median", "q75", "max")
  out <- cbind(average, spread)
  rownames(out) <- NULL
  structure(out, class = c("summary.askrff_effects", "data.frame"), level = attr(object, "level"))
}

#' @export
print.summary.askrff_effects <- function(x, digits = max(3L, getOption("digits") - 3L), ...) {
  cat(sprintf("Average marginal effects, %g %% intervals:\n", 100 * attr(x, "level")))
  print(as.data.frame(unclass(x)), digits = digits, row.names = FALSE)
  invisible(x)
}

# The averages, checked: a result is a data frame a user may edit.
effects_average <- function(object, arg) {
  average <- attr(object, "average")
  if (!inherits(object, "askrff_effects") || !is.data.frame(average) ||
      !all(c("term", "contrast", "estimate", "std.error", "conf.low", "conf.high") %in% names(average)) ||
      !all(c("term", "contrast", "value", "estimate", "conf.low", "conf.high") %in% names(object))) {
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
  # t statistics on a ridge fit's residual degrees of freedom, z for a GLM's
  statistic <- average$estimate / average$std.error
  out <- tibble::tibble(term = average$term, contrast = average$contrast, estimate = average$estimate,
                        std.error = average$std.error,
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
    if (nrow(rows) == 0L) {
      graphics::plot.new()
      graphics::title(main = term, sub = "no complete rows")
      next
    }
    if (all(is.na(rows$value))) {
      effects_by_contrast(rows, average[average$term == term, , drop = FALSE], term)
      next
    }
    rows <- rows[order(rows$value), , drop = FALSE]
    graphics::plot(rows$value, rows$estimate, type = "n", xlab = term, ylab = sprintf("effect of %s (%s)", term, rows$contrast[1L]),
                   ylim = range(c(rows$conf.low, rows$conf.high, 0), finite = TRUE), main = term)
    graphics::segments(rows$value, rows$conf.low, rows$value, rows$conf.high, col = "grey70")
    graphics::points(rows$value, rows$estimate, pch = 20, cex = 0.6)
    graphics::abline(h = c(0, average$estimate[average$term == term]), lty = c(3, 2))
  }
  invisible(x)
}

# A factor's pointwise differences, a column of points per contrast with
# its average and the average's interval.
effects_by_contrast <- function(rows, average, term) {
  contrasts <- average$contrast
  at <- match(rows$contrast, contrasts)
  graphics::plot(jitter(at, amount = 0.15), rows$estimate, xlim = c(0.5, length(contrasts) + 0.5), xaxt = "n",
                 pch = 20, cex = 0.6, col = "grey50", xlab = term, ylab = sprintf("effect of %s", term), main = term,
                 ylim = range(c(rows$estimate, average$conf.low, average$conf.high, 0), finite = TRUE))
  graphics::axis(1L, at = seq_along(contrasts), labels = contrasts)
  graphics::segments(seq_along(contrasts), average$conf.low, seq_along(contrasts), average$conf.high, lwd = 2)
  graphics::points(seq_along(contrasts), average$estimate, pch = 18, cex = 1.5)
  graphics::abline(h = 0, lty = 3)
}
