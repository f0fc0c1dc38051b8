# Ridge regression's lambda paths, one per group of responses that share a
# penalty: one group (a vector, a factor's indicators, or a matrix with
# `shared_lambda = TRUE`), or one per column of a numeric matrix. The core
# returns the groups' paths as the columns of a matrix (src/core/models/
# ridge.h); R keeps them as one frame of each group's rows, chooses by
# leave-one-out there, and the fit reports them per response.

# `shared_lambda` of rff_ridge() for the first chunk's response: NULL (one
# lambda per column of a numeric matrix, one for a factor's indicators),
# TRUE or FALSE. Returns whether the responses share one lambda.
resolve_shared_lambda <- function(shared_lambda, response) {
  if (is.null(shared_lambda)) return(response$kind != "matrix")
  if (!shared_lambda && response$kind == "factor") {
    fail("`shared_lambda` must be TRUE or NULL for a factor response: its class is the level of largest score, which compares the indicators' scores on one penalty (with one lambda they sum to 1 at every row).")
  }
  shared_lambda || response$kind != "matrix"
}

# The core's path with its groups' paths (the columns of `lambda`, `df`,
# `gcv` and `evidence`, each `lengths` long) as one `frame` of each group's
# rows, group after group, and `chosen` as the frame's rows. `lambda_paths`
# keeps the matrix, which a leave-one-out pass evaluates.
path_rows <- function(path) {
  at <- cbind(sequence(path$lengths), rep(seq_along(path$lengths), path$lengths))
  frame <- data.frame(group = at[, 2L], lambda = path$lambda[at], df = path$df[at], gcv = path$gcv[at],
                      evidence = path$evidence[at])
  path$chosen <- cumsum(path$lengths) - path$lengths + path$chosen
  path$lambda_paths <- path$lambda
  path[c("lambda", "df", "gcv", "evidence", "lengths")] <- NULL
  path$frame <- frame
  path
}

# The path at each group's lambda of least leave-one-out error, PRESS / (n
# q) over the group's q responses (the largest lambda among ties): its
# coefficients (ridge_coefficients()), intercepts and residual sums, from
# the sums of a pass (`loo`: press and rss, responses by the paths' rows).
# Penalties at which a row's leverage rounds to 1 (the fit interpolates it,
# so its leave-one-out residual is unbounded) leave the path.
choose_by_loo <- function(path, loo, n) {
  frame <- path$frame
  groups <- max(frame$group)
  responses <- nrow(loo$press)
  at <- sequence(tabulate(frame$group, groups))
  frame$loo <- if (groups == 1L) colSums(loo$press)[at] / (n * responses) else loo$press[cbind(frame$group, at)] / n
  defined <- is.finite(frame$loo)
  if (!all(seq_len(groups) %in% frame$group[defined])) {
    fail("Leave-one-out is undefined at every lambda%s: the fit interpolates some row at each. Give larger `lambda` values, or use `criterion = \"evidence\"` or \"gcv\".",
         if (groups == 1L) "" else " for some response")
  }
  at <- at[defined]
  frame <- frame[defined, , drop = FALSE]
  rownames(frame) <- NULL
  path$chosen <- vapply(seq_len(groups), function(g) {
    rows <- which(frame$group == g)
    rows[which.min(frame$loo[rows])]
  }, 1L)
  path$frame <- frame
  # each response at its group's chosen row
  chosen <- path$chosen[if (groups == 1L) rep(1L, responses) else seq_len(responses)]
  # (a dual path without its eigenvectors has no coefficients either)
  if (!is.null(path$vectors)) {
    path$coefficients <- ridge_coefficients(path, frame$lambda[chosen])
    path$intercept <- drop(path$y_mean - crossprod(path$coefficients, path$z_mean))
  }
  path$rss <- pmax(loo$rss[cbind(seq_len(responses), at[chosen])], 0)
  path
}

# b = V (c / (s + lambda)) of a path at `lambda` (one, or one per
# response), with the part along the directions the dual form leaves out of
# V (its remainder, ridge.h).
ridge_coefficients <- function(path, lambda) {
  rank <- ncol(path$vectors)
  lambda <- rep_len(lambda, ncol(path$projections))
  b <- path$vectors %*% (path$projections / outer(path$eigenvalues[seq_len(rank)], lambda, "+"))
  if (length(path$remainder_values) > 0L) {
    b <- b + path$remainder_vectors %*% (path$remainder_projections / outer(path$remainder_values, lambda, "+"))
  }
  b
}

# What a scale search compares for a path: the criterion at the chosen
# lambda; with one lambda per response, the responses' log evidences added
# (the evidence of independent responses), or the geometric mean of their
# GCV or leave-one-out errors, so that each response counts alike whatever
# its units.
criterion_value <- function(path, criterion) {
  values <- path$frame[[criterion]][path$chosen]
  # (a single given lambda has no leave-one-out error: nothing chose it)
  if (length(values) <= 1L) return(values)
  if (criterion == "evidence") sum(values) else exp(mean(log(values)))
}

# The path as a fit keeps it: lambda, df and the criteria (leave-one-out
# where computed), and with one lambda per response (`shared` FALSE) the
# `response` of each row first.
ridge_path_frame <- function(path, shared, names) {
  frame <- path$frame
  frame$group <- NULL
  if (!shared) frame <- cbind(response = names[path$frame$group], frame)
  frame
}

# Whether a fit has one lambda per response (its path has a row per
# response and lambda).
per_response_lambda <- function(fit) !is.null(fit$path$response)

# The rows of a fit's path at its lambdas: one, or one per response.
ridge_chosen_rows <- function(fit) {
  if (!per_response_lambda(fit)) return(which(fit$path$lambda == fit$lambda)[1L])
  vapply(seq_along(fit$lambda), function(j) {
    which(fit$path$response == fit$response$names[j] & fit$path$lambda == fit$lambda[[j]])[1L]
  }, 1L)
}

# Each response's lambda.
response_lambdas <- function(fit) rep_len(unname(fit$lambda), length(fit$response$names))

# The effective degrees of freedom at the chosen lambda (one per response
# with their own), intercept included.
ridge_df <- function(fit) fit$path$df[ridge_chosen_rows(fit)]

# `shared_lambda`, before any data are read.
check_shared_lambda <- function(shared_lambda) {
  if (!is.null(shared_lambda) && !isTRUE(shared_lambda) && !isFALSE(shared_lambda)) {
    fail("`shared_lambda` must be NULL, TRUE or FALSE.")
  }
}
