# The plots of rff_ridge() fits: the criterion along the lambda path and,
# after a scale search, along the scales.

#' Plot the criterion that chose a ridge fit's penalty and scales
#'
#' The criterion that chose \eqn{\lambda} (GCV, or the log evidence; see
#' [rff_ridge()]) against \eqn{\lambda} (log scale) over the fit's path, with
#' the chosen \eqn{\lambda} marked; with one \eqn{\lambda} per response,
#' each response's curve and choice. A fit whose kernel scale was searched
#' (`scale` in [rff_ridge()]) gets a second panel: the criterion, at each
#' candidate's best \eqn{\lambda}, against the scale (one scale for every
#' coordinate), or for per-coordinate scales (`ard = TRUE`) each coordinate's
#' scale along the search, with the chosen one marked.
#'
#' @param x A fit of [rff_ridge()].
#' @param ... Graphical arguments passed to [graphics::plot()] for every panel.
#' @return `x`, invisibly.
#' @family models
#' @export
plot.askrff_ridge <- function(x, ...) {
  x <- validate_ridge(x, "x")
  if (!is.null(x$selection)) {
    old <- graphics::par(mfrow = c(1L, 2L))
    on.exit(graphics::par(old))
  }
  plot_lambda_path(x, list(...))
  if (!is.null(x$selection)) plot_scale_search(x$selection, list(...))
  invisible(x)
}

plot_lambda_path <- function(x, user) {
  # a given lambda has no leave-one-out error (it chose nothing): GCV shows it
  criterion <- if (x$criterion == "loo" && is.null(x$path$loo)) "gcv" else x$criterion
  gcv <- criterion != "evidence"
  value <- x$path[[criterion]]
  path <- x$path[is.finite(value), ]
  if (nrow(path) == 0L) {
    fail("No lambda of this fit has a finite %s (%s).", criterion_label(criterion),
         if (gcv) "the degrees of freedom reach n" else "the fit leaves no residual")
  }
  value <- path[[criterion]]
  each <- per_response_lambda(x)
  draw_with_defaults(graphics::plot, list(x = path$lambda, y = value, log = if (gcv && all(value > 0)) "xy" else "x",
                                          type = if (each) "n" else if (nrow(path) > 1L) "l" else "p", xlab = "lambda",
                                          ylab = c(gcv = "GCV", evidence = "log evidence", loo = "leave-one-out error")[[criterion]],
                                          main = c(gcv = "Generalized cross-validation", evidence = "Evidence",
                                                   loo = "Leave-one-out cross-validation")[[criterion]]), user)
  if (each) return(plot_response_paths(x, path, criterion))
  graphics::abline(v = x$lambda, lty = 2)
  graphics::mtext(sprintf("lambda = %s, df = %.1f", format(x$lambda, digits = 3), x$path$df[x$path$lambda == x$lambda][1L]),
                  side = 3, line = 0.3, cex = 0.8)
}

# With one lambda per response: each response's path (its finite rows,
# `path`) in a colour of its own, its chosen lambda a point.
plot_response_paths <- function(x, path, criterion) {
  names <- x$response$names
  colours <- grDevices::hcl.colors(max(length(names), 2L), "Dark 3")
  for (j in seq_along(names)) {
    rows <- path[path$response == names[j], ]
    graphics::lines(rows$lambda, rows[[criterion]], col = colours[j], type = if (nrow(rows) > 1L) "l" else "p")
    graphics::points(rows$lambda[rows$lambda == x$lambda[[j]]], rows[[criterion]][rows$lambda == x$lambda[[j]]],
                     col = colours[j], pch = 19)
  }
  shown <- utils::head(seq_along(names), 8L)
  graphics::legend("topleft", legend = sprintf("%s: lambda = %s", names[shown], format(x$lambda[shown], digits = 3)),
                   col = colours[shown], lty = 1, pch = 19, bty = "n", cex = 0.8)
  graphics::mtext(sprintf("one lambda per response (%d)", length(names)), side = 3, line = 0.3, cex = 0.8)
}

plot_scale_search <- function(selection, user) {
  label <- c(gcv = "GCV", evidence = "log evidence", loo = "leave-one-out error")[[selection$criterion]]
  scales <- selection$scales
  chosen <- selection$chosen
  if (ncol(scales) == 1L) {
    finite <- is.finite(selection$value)
    order <- order(scales[finite, 1L])
    draw_with_defaults(graphics::plot, list(x = scales[finite, 1L][order], y = selection$value[finite][order], log = "x",
                                            type = "b", pch = 20, xlab = "scale (times the kernel's)", ylab = label,
                                            main = "Kernel scale"), user)
    graphics::abline(v = scales[chosen, 1L], lty = 2)
    graphics::mtext(sprintf("scale = %s", format(scales[chosen, 1L], digits = 3)), side = 3, line = 0.3, cex = 0.8)
    return(invisible(NULL))
  }
  colours <- grDevices::hcl.colors(ncol(scales), "Dark 3")
  draw_with_defaults(graphics::matplot, list(x = seq_len(nrow(scales)), y = scales, log = "y", type = "l", lty = 1,
                                             col = colours, xlab = "pass", ylab = "scale (times the kernel's)",
                                             main = "Per-coordinate scales"), user)
  graphics::abline(v = chosen, lty = 2)
  graphics::legend("topleft", legend = sprintf("%s: %s", coordinate_names(scales), format(scales[chosen, ], digits = 3)),
                   col = colours, lty = 1, bty = "n", cex = 0.8)
  invisible(NULL)
}

# The columns of a matrix of per-coordinate scales, x1, x2, ... where unnamed.
coordinate_names <- function(scales) {
  if (is.null(colnames(scales))) paste0("x", seq_len(ncol(scales))) else colnames(scales)
}
