# What a sampled map shows of itself: its frequencies against each part's
# law (plot()) and a summary of its parts.

#' Plot the sampled frequencies of a map
#'
#' One panel per positive part: the histogram of the part's sampled
#' frequencies, through the variable its law is described by (the radius
#' \eqn{\|\omega\|} of a rotation-invariant law, the projection
#' \eqn{a'\omega/\|a\|} on the kernel's direction \eqn{a} for the
#' asymmetric kernels, the first coordinate of a product law), over the exact
#' density of that variable under the part's law. A coordinate's heavy tails
#' are cut at its 0.5 and 99.5 percentiles. For an LP measure the exact curve
#' is the split-off cusp law alone; the atoms are where the bars pile up.
#'
#' @param x A map from [rff_map()].
#' @param n_points Number of points of each density curve.
#' @param ... Further arguments to [graphics::plot()] of each histogram.
#' @return `x`, invisibly.
#' @family maps
#' @examples
#' plot(rff_map(shift_gaussian_kernel(1, 0.5), d = 3, n_features = 500, seed = 1))
#' @export
plot.rff_map <- function(x, n_points = 200, ...) {
  x <- validate_map(x, "x")
  n_points <- check_count(n_points, "n_points", max = 1e6)
  spec <- kernel_with_settings(x$kernel, x$settings, x$d)
  parts <- x$parts
  old <- graphics::par(mfrow = c(1L, nrow(parts)))
  on.exit(graphics::par(old))
  directions <- core(.cpp_part_directions(spec, x$d))
  for (p in seq_len(nrow(parts))) {
    w <- x$omega[, x$part == p, drop = FALSE]
    variable <- parts$density_variable[p]
    title <- sprintf("%s: %s frequencies", parts$part[p], format_count(ncol(w)))
    xlab <- axis_label(variable, directions[, p])
    if (ncol(w) == 0L) {
      # a part of negligible mass that the allocation gave no frequency: its density alone
      extent <- density_extent(spec, x$d, p)
      limits <- if (variable == "radius") c(0, extent) else c(-extent, extent)
      grid <- seq(limits[1L], limits[2L], length.out = n_points)
      exact <- core(.cpp_part_density(spec, x$d, p, grid))
      draw_with_defaults(graphics::plot, list(x = limits, y = c(0, max(exact) * 1.1), type = "n", xlab = xlab,
                                              ylab = "Density", main = title), list(...))
    } else {
      values <- switch(variable, radius = sqrt(colSums(w^2)), projection = drop(crossprod(w, directions[, p])), w[1L, ])
      limits <- if (variable == "coordinate") stats::quantile(values, c(0.005, 0.995), names = FALSE) else range(values)
      limits <- limits + c(-0.05, 0.05) * max(diff(limits), 1e-12)
      if (variable == "radius") limits[1L] <- max(0, limits[1L])
      shown <- values >= limits[1L] & values <= limits[2L]
      bars <- graphics::hist(values[shown], breaks = 30, plot = FALSE)
      bars$density <- bars$density * mean(shown)
      grid <- seq(limits[1L], limits[2L], length.out = n_points)
      exact <- core(.cpp_part_density(spec, x$d, p, grid))
      draw_with_defaults(graphics::plot, list(x = bars, freq = FALSE, col = "grey85", border = "grey60", xlim = limits,
                                              ylim = c(0, max(bars$density, exact) * 1.1), xlab = xlab, main = title),
                         list(...))
    }
    graphics::lines(grid, exact, col = "firebrick", lwd = 2)
    graphics::legend("topright", c("sampled", "exact density"), fill = c("grey85", NA), border = c("grey60", NA),
                     col = c(NA, "firebrick"), lwd = c(NA, 2), bty = "n", cex = 0.8)
  }
  invisible(x)
}

# The x-axis of a density: a projection names the unit vector u it projects
# on (`direction`, from the core), or is the first coordinate when u is.
axis_label <- function(variable, direction = NULL) {
  if (variable == "radius") return("radius ||w||")
  if (variable == "coordinate" || isTRUE(all(direction == c(1, numeric(length(direction) - 1L))))) {
    return("first coordinate w_1")
  }
  shown <- format(signif(utils::head(direction, 4L), 3))
  sprintf("projection u'w, u = (%s%s)", paste(shown, collapse = ", "), if (length(direction) > 4L) ", ..." else "")
}

#' @export
summary.rff_map <- function(object, ...) {
  object <- validate_map(object, "object")
  radius <- sqrt(colSums(object$omega^2))
  per_part <- data.frame(
    part = object$parts$part,
    n_frequencies = tabulate(object$part, nrow(object$parts)),
    share = object$parts$share,
    mass = object$parts$mass,
    exact = object$parts$exact,
    mean_radius = as.numeric(tapply(radius, factor(object$part, seq_len(nrow(object$parts))), mean)),
    stringsAsFactors = FALSE)
  structure(list(kernel = object$kernel, d = object$d, method = object$method, allocation = object$allocation,
                 parts = per_part),
            class = "summary.askrff_map")
}

#' @export
print.summary.askrff_map <- function(x, ...) {
  cat("<askrff map summary> ", kernel_label(x$kernel), ", d = ", x$d, ", ", x$method, ", allocation by ",
      x$allocation, "\n", sep = "")
  print(x$parts, row.names = FALSE)
  invisible(x)
}
