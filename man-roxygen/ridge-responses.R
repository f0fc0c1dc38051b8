#' @section Several responses:
#' The response may be a numeric vector, a numeric matrix (one response per
#' column; in the formula method `cbind(y1, y2) ~ x1 + x2`, as for [lm()]) or
#' a factor (least squares on the indicator columns of its levels, one
#' against the rest, `predict(type = "class")` taking the level of largest
#' score).
#'
#' By default each column of a numeric matrix gets its own \eqn{\lambda},
#' chosen by `criterion` from the one eigendecomposition of \eqn{Z'Z}, which
#' does not depend on the response: every column has its own path (the grid
#' and that column's refinement), its own criterion and its own choice, so
#' the fit equals the fits of the columns one at a time with the same map,
#' and leave-one-out takes still one second pass for all of them (twice the
#' products of one shared \eqn{\lambda}). `fit$lambda` then has one value
#' per column, and `fit$path` a row per column and \eqn{\lambda}, led by its
#' `response`. A scale search (`scale`) compares a candidate scale by the
#' sum of the columns' log evidences at their own \eqn{\lambda} (the
#' evidence of the columns as independent models), or by the geometric mean
#' of their GCV or leave-one-out errors, so that every column counts alike
#' whatever its units; for one column these are its own criterion.
#'
#' With `shared_lambda = TRUE` all columns share one \eqn{\lambda}: GCV and
#' leave-one-out pool the columns' residual sums of squares, and the
#' evidence adds the columns' evidences (each with its own \eqn{\sigma^2}).
#' A factor's indicator columns always share one: its class compares their
#' scores, which one penalty keeps on one scale (they then sum to 1 at
#' every row).
#'
#' Either way `predict(se.fit =, interval =)` and `tidy()` give each
#' column its own standard errors, from its own \eqn{\lambda} and
#' \eqn{\sigma^2}; [logLik()] and [vcov()] need a single response, as for
#' [lm()].
#' @param y The response: a numeric vector, a numeric matrix with one row per
#'   row of `x` (one response per column), or a factor; `NULL` when `x` is a
#'   chunk source.
#' @param shared_lambda `NULL` (the default: one \eqn{\lambda} per column of
#'   a numeric matrix, one for a factor's indicator columns), `FALSE` (one
#'   per column) or `TRUE` (one for all columns). See the section on
#'   several responses.
