# The optimizer of rff_glm(): every model of a path (each lambda, fitted on
# all rows or without one fold) minimises half its deviance plus lambda / 2
# ||b||^2 by limited-memory BFGS whose initial inverse Hessian is
# (a H + lambda P)^{-1} for a reference Hessian H (glm_solve.h), with
# Armijo's rule; all models are evaluated in the same passes over the data.
# Exact Newton for each model would need its own Hessian, O(n D^2), at
# every step; a reference eigendecomposed once serves every lambda and
# fold, and the BFGS memory makes up for its being taken elsewhere.
# Coefficients are columns of (1 + D) rows, intercept first, on the shifted
# features; a model of K classes has K consecutive columns.

glm_grid_size <- 25L
# passes of the final fit that take its Hessian at the point tried, for
# several classes (for one, every pass does: Newton's method, whose few
# steps each cost one Hessian)
glm_final_refresh_passes <- c(1L, 5L, 15L, 40L, 100L)
glm_max_passes <- 200L
glm_memory <- 8L

# Solves the path (cross-validated when lambda has several values or is
# chosen) and then the chosen lambda's fit on all rows to convergence.
# `pass(coefficients, model_fold, references)` runs one pass of
# .cpp_glm_pass over the data.
glm_solve_path <- function(pass, setup, null, lambda, nfolds, columns) {
  classes <- ncol(null$a)
  gram <- core(.cpp_glm_reference(setup, eigen_progress(columns)))
  a <- eigen(null$a, symmetric = TRUE)
  null_reference <- list(rotation = a$vectors, scale = pmax(a$values, 0), eigens = rep(list(gram), classes),
                         lambda = Inf)
  top <- gram$values[1L] * max(a$values)
  if (!(top > 0)) top <- 1
  grid <- if (is.null(lambda)) top * 10^seq(1, -5, length.out = glm_grid_size) else sort(lambda, decreasing = TRUE)
  start <- rbind(null$intercept, matrix(0, columns, classes))
  solver <- glm_solver(pass, classes, columns, setup$weight)
  cv <- length(grid) > 1L
  if (cv && nfolds > setup$n) {
    fail("`nfolds` (%d) must be at most the number of rows of positive weight (%d).", nfolds, setup$n)
  }
  if (cv) {
    models <- solver$models(rep(grid, each = nfolds + 1L), rep(0:nfolds, length(grid)), start)
    models$started <- models$lambda == grid[1L]
    models <- solver$run(models, list(null_reference), final = FALSE, reference_lambdas = glm_reference_lambdas(grid, top),
                         prune = function(state) glm_pruned(state, grid))
    path <- glm_cv_path(models, grid)
    # the penalties past where the path stopped have no cross-validation
    path <- path[!is.na(path$cv), , drop = FALSE]
    rownames(path) <- NULL
    best <- which(path$cv == min(path$cv))[1L]
    if (any(!path$converged)) {
      warn("The cross-validation fits at %d of the %d values of `lambda` did not converge in %d passes; their `cv` in the fit's path is approximate.",
           sum(!path$converged), length(grid), glm_max_passes)
    }
    full <- which(models$fold == 0L & models$lambda == path$lambda[best])
    final <- solver$models(path$lambda[best], 0L, models$beta[, solver$columns_of(full), drop = FALSE])
    null_deviance <- 2 * models$null_half[1L]
  } else {
    path <- data.frame(lambda = grid, deviance = 0, converged = FALSE)
    best <- 1L
    final <- solver$models(grid, 0L, start)
    null_deviance <- NULL
  }
  final <- solver$run(final, list(null_reference), final = TRUE)
  if (!final$converged) {
    warn("The fit at `lambda` = %s did not converge in %d passes; its coefficients are approximate.",
         format(path$lambda[best], digits = 3), glm_max_passes)
  }
  path$deviance[best] <- 2 * final$deviance
  path$converged[best] <- if (cv) path$converged[best] && final$converged else final$converged
  list(coefficients = matrix(final$beta, ncol = classes), lambda = path$lambda[best], path = path,
       deviance = 2 * final$deviance, null_deviance = if (is.null(null_deviance)) 2 * final$null_half else null_deviance)
}

# Where the references are taken after the first passes: about one lambda
# in a hundred, from the smallest up to a tenth of the intercept-only
# model's largest curvature (larger penalties leave that model nearly as it
# is, and its Hessian serves them).
glm_reference_lambdas <- function(grid, top) {
  wanted <- min(grid) * 100^(0:20)
  wanted <- wanted[wanted <= max(min(grid), top / 10)]
  unique(vapply(wanted, function(l) grid[which.min(abs(log(grid) - log(l)))], 0))
}

# The models to leave: like glmnet's, the path stops early, once the
# penalties from the largest down have converged and their cross-validated
# deviance has risen at each of the last two past its minimum; the fits
# at smaller penalties overfit more, and near-separable data make them the
# slowest to converge.
glm_pruned <- function(state, grid) {
  done <- vapply(grid, function(l) all(state$converged[state$lambda == l]), TRUE)
  prefix <- if (all(done)) length(grid) else which(!done)[1L] - 1L
  if (prefix < 4L || prefix == length(grid)) return(integer())
  cv <- glm_cv_path(state, grid[seq_len(prefix)])$cv
  rising <- which.min(cv) <= prefix - 2L && all(diff(cv[(prefix - 2L):prefix]) > 0)
  if (rising) which(state$lambda < grid[prefix] & !state$converged) else integer()
}

# The cross-validated deviance per unit weight at each lambda, with its
# standard error across folds; NA where the path stopped before the lambda.
glm_cv_path <- function(models, grid) {
  rows <- lapply(grid, function(l) {
    if (any(models$pruned[models$lambda == l])) return(c(cv = NA, cv_se = NA, deviance = NA, converged = FALSE))
    folds <- which(models$lambda == l & models$fold > 0L)
    # folds whose rows all have zero weight hold nothing out
    held <- folds[models$heldout_weight[folds] > 0]
    per_fold <- 2 * models$heldout[held] / models$heldout_weight[held]
    c(cv = 2 * sum(models$heldout[held]) / sum(models$heldout_weight[held]),
      cv_se = if (length(held) > 1L) stats::sd(per_fold) / sqrt(length(held)) else 0,
      deviance = 2 * models$deviance[models$lambda == l & models$fold == 0L],
      converged = all(models$converged[models$lambda == l]))
  })
  rows <- do.call(rbind, rows)
  data.frame(lambda = grid, cv = rows[, "cv"], cv_se = rows[, "cv_se"], deviance = rows[, "deviance"],
             converged = as.logical(rows[, "converged"]))
}

# The solver's functions, closed over the pass and the sizes.
glm_solver <- function(pass, classes, columns, total_weight) {
  p <- 1L + columns
  columns_of <- function(ms) as.vector(outer(seq_len(classes), (ms - 1L) * classes, "+"))
  # per model: sum over its columns of the products of two coefficient matrices
  model_dot <- function(a, b) colSums(matrix(colSums(a * b), nrow = classes))
  penalty_gradient <- function(beta, lambda_columns) {
    g <- beta * rep(lambda_columns, each = p)
    g[1L, ] <- 0
    g
  }
  # multinomial coefficients sum to zero over the classes: the penalty
  # drives them there, and centering never raises the criterion
  center <- function(m) {
    if (classes == 1L) return(m)
    arr <- array(m, c(nrow(m), classes, ncol(m) / classes))
    means <- arr[, 1L, , drop = FALSE]
    for (j in seq_len(classes)[-1L]) means <- means + arr[, j, , drop = FALSE]
    means <- means / classes
    for (j in seq_len(classes)) arr[, j, ] <- arr[, j, , drop = FALSE] - means
    matrix(arr, nrow(m))
  }
  models <- function(lambda, fold, start) {
    m <- length(lambda)
    beta <- if (ncol(start) == classes * m) start else matrix(start, p, classes * m)
    list(lambda = lambda, fold = as.integer(fold), beta = beta, trial = beta, direction = beta * 0,
         objective = rep(Inf, m), gradient = beta * 0, step = rep(1, m),
         # the steps s and gradient changes y of the last glm_memory passes,
         # a ring of slots whose newest is memory_head, with s'y (NA where a
         # model has no pair from that pass)
         memory_s = rep(list(beta * 0), glm_memory), memory_y = rep(list(beta * 0), glm_memory),
         memory_sy = matrix(NA_real_, glm_memory, m), memory_head = 1L,
         converged = rep(FALSE, m), deviance = rep(NA_real_, m), heldout = rep(NA_real_, m),
         heldout_weight = rep(NA_real_, m), scale = ifelse(fold == 0L, 1, 1 - 1 / max(1L, max(fold))),
         reference = rep(1L, m), null_half = rep(NA_real_, m), pruned = rep(FALSE, m), started = rep(TRUE, m),
         age = integer(m), decrement = rep(Inf, m))
  }
  # (a H + lambda P)^{-1} q for the columns of models `ms`, each with its
  # reference: classes rotated into the reference's basis, solved class by
  # class, rotated back.
  precondition <- function(q, ms, state, references) {
    out <- q
    for (r in unique(state$reference[ms])) {
      these <- ms[state$reference[ms] == r]
      ref <- references[[r]]
      cols <- columns_of(match(these, ms))
      k <- length(these)
      rotated <- matrix(aperm(array(q[, cols, drop = FALSE], c(p, classes, k)), c(1L, 3L, 2L)), ncol = classes) %*%
        ref$rotation
      solved <- rotated
      for (j in seq_len(classes)) {
        block <- matrix(rotated[, j], p)
        solved[, j] <- core(.cpp_glm_solve(ref$eigens[[j]], block, ref$scale[j] * state$scale[these],
                                           state$lambda[these]))
      }
      back <- solved %*% t(ref$rotation)
      out[, cols] <- matrix(aperm(array(back, c(p, k, classes)), c(1L, 3L, 2L)), p)
    }
    center(out)
  }
  # Limited-memory BFGS directions for models `ms` at their accepted points:
  # the two loops of the recursion in the core (lbfgs.h), the initial
  # inverse Hessian of each model's reference between them.
  directions <- function(state, ms, references) {
    order <- (state$memory_head - seq_len(glm_memory)) %% glm_memory + 1L  # newest first
    first_loop <- core(.cpp_lbfgs_first(state$gradient[, columns_of(ms), drop = FALSE], state$memory_s, state$memory_y,
                                        state$memory_sy, order, ms, classes))
    r <- precondition(first_loop$q, ms, state, references)
    -core(.cpp_lbfgs_second(r, state$memory_s, state$memory_y, state$memory_sy, order, ms, classes, first_loop$alpha))
  }
  # The pairs (s, y) of this pass for models `ms` (columns in that order),
  # in the next slot of the ring, which every other model leaves empty.
  remember <- function(state, ms, s, y) {
    sy <- model_dot(s, y)
    keep <- sy > 1e-12 * sqrt(model_dot(s, s) * model_dot(y, y))
    h <- state$memory_head %% glm_memory + 1L
    state$memory_head <- h
    state$memory_sy[h, ] <- NA_real_
    if (!any(keep)) return(state)
    global <- columns_of(ms[keep])
    local <- columns_of(which(keep))
    state$memory_s[[h]][, global] <- s[, local]
    state$memory_y[[h]][, global] <- y[, local]
    state$memory_sy[h, ms[keep]] <- sy[keep]
    state
  }
  # The models of one fold differ only in lambda, so every accepted point of
  # the fold's path is a point of each of its models, whose criterion there
  # is known without a pass: half the deviance + lambda / 2 ||b||^2. A model
  # moves to the best of them when that is lower than its own, so the small
  # penalties, the slowest to converge, start from where the larger ones
  # have got to.
  shared_points <- function(state, active) {
    moved <- integer()
    # the points as they were before any model moves
    points_of <- state[c("beta", "gradient", "deviance", "heldout", "heldout_weight", "objective", "lambda")]
    norms <- model_dot(points_of$beta[-1L, , drop = FALSE], points_of$beta[-1L, , drop = FALSE])
    for (f in unique(state$fold[active])) {
      points <- which(state$fold == f & is.finite(points_of$objective))
      for (m in active[state$fold[active] == f]) {
        value <- points_of$deviance[points] + state$lambda[m] / 2 * norms[points]
        best <- points[which.min(value)]
        if (best == m || !(min(value) < state$objective[m] - 1e-12 * abs(state$objective[m]))) next
        mc <- columns_of(m)
        bc <- columns_of(best)
        state$beta[, mc] <- points_of$beta[, bc]
        state$gradient[, mc] <- points_of$gradient[, bc] +
          penalty_gradient(points_of$beta[, bc, drop = FALSE], rep(state$lambda[m] - points_of$lambda[best], classes))
        state$objective[m] <- min(value)
        state$deviance[m] <- points_of$deviance[best]
        state$heldout[m] <- points_of$heldout[best]
        state$heldout_weight[m] <- points_of$heldout_weight[best]
        moved <- c(moved, m)
      }
    }
    list(state = state, models = moved)
  }
  # The next penalty of the path starts once the models of the smallest
  # started one are near their minimum (a relative decrease of 1e-3 left):
  # each of its models from the point, the curvature memory and the
  # reference of the same fold's model there. Started all at once from the
  # intercept-only fit, the small penalties would spend many passes far
  # from their minimum.
  start_next <- function(state, references) {
    lambdas <- sort(unique(state$lambda), decreasing = TRUE)
    started <- lambdas %in% state$lambda[state$started]
    frontier <- max(which(started))
    if (frontier == length(lambdas)) return(state)
    from <- which(state$lambda == lambdas[frontier])
    ready <- state$converged[from] | state$pruned[from] | state$decrement[from] < 1e-3
    to <- which(state$lambda == lambdas[frontier + 1L] & !state$pruned)
    if (!all(ready) || length(to) == 0L) return(state)
    from <- from[match(state$fold[to], state$fold[from])]
    tc <- columns_of(to)
    fc <- columns_of(from)
    state$beta[, tc] <- state$beta[, fc]
    state$gradient[, tc] <- state$gradient[, fc] +
      penalty_gradient(state$beta[, fc, drop = FALSE], rep(state$lambda[to] - state$lambda[from], each = classes))
    state$objective[to] <- state$deviance[from] + state$lambda[to] / 2 *
      model_dot(state$beta[-1L, fc, drop = FALSE], state$beta[-1L, fc, drop = FALSE])
    for (name in c("deviance", "heldout", "heldout_weight")) state[[name]][to] <- state[[name]][from]
    for (h in seq_len(glm_memory)) {
      state$memory_s[[h]][, tc] <- state$memory_s[[h]][, fc]
      state$memory_y[[h]][, tc] <- state$memory_y[[h]][, fc]
    }
    state$memory_sy[, to] <- state$memory_sy[, from]
    state$reference[to] <- nearest_reference(state$lambda[to], references)
    state$started[to] <- TRUE
    d <- directions(state, to, references)
    state$direction[, tc] <- d
    state$step[to] <- 1
    state$trial[, tc] <- state$beta[, tc] + d
    state
  }
  nearest_reference <- function(lambda, references) {
    at <- vapply(references, `[[`, 0, "lambda")
    vapply(lambda, function(l) {
      finite <- which(is.finite(at))
      if (length(finite) == 0L || l > 10 * max(at[finite])) return(which(!is.finite(at))[1L])
      finite[which.min(abs(log(at[finite]) - log(l)))]
    }, 1L)
  }
  # A reference from the Hessian sums of one point: its classes' diagonal
  # blocks (the whole Hessian for one class), each eigendecomposed.
  reference_from <- function(hessians, lambda) {
    list(rotation = diag(classes), scale = rep(1, classes),
         eigens = lapply(hessians, function(h) core(.cpp_glm_reference(h, eigen_progress(columns)))), lambda = lambda)
  }
  run <- function(state, references, final, reference_lambdas = numeric(), prune = function(state) integer()) {
    tolerance <- if (final) 1e-20 else 1e-8
    passes <- 0L
    state$reference <- nearest_reference(state$lambda, references)
    active <- which(state$started)
    first <- TRUE
    repeat {
      passes <- passes + 1L
      # the Hessians to take in this pass: at the trial point in the final
      # fit, at the full-data fits of the reference lambdas now and then
      refresh <- if (final) {
        if (classes == 1L || passes %in% glm_final_refresh_passes) active else integer()
      } else {
        # at each reference lambda's full-data fit three passes after it
        # starts (taking it again later changed no run's passes)
        which(state$fold == 0L & state$lambda %in% reference_lambdas & !state$pruned & state$age == 3L)
      }
      at <- if (final) state$trial[, columns_of(refresh), drop = FALSE] else state$beta[, columns_of(refresh), drop = FALSE]
      sums <- pass(state$trial[, columns_of(active), drop = FALSE], state$fold[active],
                   if (length(refresh)) at else matrix(0, p, 0))
      cols <- columns_of(active)
      lambda_columns <- rep(state$lambda[active], each = classes)
      objective <- sums$deviance + state$lambda[active] / 2 *
        model_dot(state$trial[-1L, cols, drop = FALSE], state$trial[-1L, cols, drop = FALSE])
      gradient <- -sums$gradient + penalty_gradient(state$trial[, cols, drop = FALSE], lambda_columns)
      if (first) {
        # every model starts at the intercept-only fit of its fold
        at_fold <- match(state$fold, state$fold[active])
        state$null_half <- sums$deviance[at_fold]
        state$scale <- ifelse(state$fold == 0L, 1, (total_weight - sums$heldout_weight[at_fold]) / total_weight)
      }
      state$age[state$started] <- state$age[state$started] + 1L
      slope <- model_dot(state$gradient[, cols, drop = FALSE], state$direction[, cols, drop = FALSE])
      accepted <- is.finite(objective) & (first | objective <= state$objective[active] + 1e-4 * state$step[active] * slope)
      if (final && !first) {
        # near the minimum the criterion's rounding hides a decrease that
        # the gradient still shows: a step that halves the gradient's norm
        # is taken too
        norm_new <- model_dot(gradient, gradient)
        norm_old <- model_dot(state$gradient[, cols, drop = FALSE], state$gradient[, cols, drop = FALSE])
        accepted <- accepted | (is.finite(objective) & norm_new < norm_old / 4)
      }
      for (i in which(!accepted)) {
        m <- active[i]
        t <- state$step[m]
        curvature <- objective[i] - state$objective[m] - slope[i] * t
        shrink <- if (is.finite(objective[i]) && curvature > 0) -slope[i] * t / (2 * curvature) else 0.1
        state$step[m] <- t * min(0.5, max(0.1, shrink))
        mc <- columns_of(m)
        state$trial[, mc] <- state$beta[, mc] + state$step[m] * state$direction[, mc]
        # no decrease is left but rounding
        if (state$step[m] < 1e-12 || (final && -slope[i] <= 1e-12 * max(1, abs(state$objective[m])))) {
          state$converged[m] <- TRUE
        }
      }
      good <- active[accepted]
      if (length(good)) {
        kept <- columns_of(good)
        local <- columns_of(which(accepted))
        if (!first) {
          state <- remember(state, good, state$trial[, kept, drop = FALSE] - state$beta[, kept, drop = FALSE],
                            gradient[, local, drop = FALSE] - state$gradient[, kept, drop = FALSE])
        }
        state$beta[, kept] <- state$trial[, kept]
        state$gradient[, kept] <- gradient[, local]
        state$objective[good] <- objective[accepted]
        state$deviance[good] <- sums$deviance[accepted]
        state$heldout[good] <- sums$heldout[accepted]
        state$heldout_weight[good] <- sums$heldout_weight[accepted]
      }
      if (length(refresh)) {
        new_refs <- lapply(seq_along(refresh), function(j) {
          reference_from(sums$hessians[(j - 1L) * classes + seq_len(classes)], state$lambda[refresh[j]])
        })
        if (final) {
          if (accepted[1L]) {
            references <- new_refs
            state$reference[] <- 1L
          }
        } else {
          for (ref in new_refs) {
            same <- vapply(references, function(r) identical(r$lambda, ref$lambda), TRUE)
            if (any(same)) references[[which(same)]] <- ref else references[[length(references) + 1L]] <- ref
          }
          state$reference <- nearest_reference(state$lambda, references)
        }
      }
      first <- FALSE
      if (!final) {
        jumped <- shared_points(state, active)
        state <- jumped$state
        good <- union(good, jumped$models)
      }
      if (length(good)) {
        d <- directions(state, good, references)
        state$direction[, columns_of(good)] <- d
        decrement <- -model_dot(state$gradient[, columns_of(good), drop = FALSE], d)
        # rounding can spoil the memory's curvature; then start it again
        lost <- !(decrement > 0) & colSums(!is.na(state$memory_sy[, good, drop = FALSE])) > 0L
        if (any(lost)) {
          state$memory_sy[, good[lost]] <- NA_real_
          state$direction[, columns_of(good[lost])] <- d[, columns_of(which(lost))] <- directions(state, good[lost], references)
          decrement[lost] <- -model_dot(state$gradient[, columns_of(good[lost]), drop = FALSE], d[, columns_of(which(lost)), drop = FALSE])
        }
        state$decrement[good] <- decrement / pmax(1, abs(state$objective[good]))
        done <- !(state$decrement[good] > tolerance)
        state$converged[good[done]] <- TRUE
        state$step[good] <- 1
        state$trial[, columns_of(good)] <- state$beta[, columns_of(good)] + d
      }
      pruned <- prune(state)
      state$pruned[pruned] <- TRUE
      if (!final) state <- start_next(state, references)
      active <- which(state$started & !state$converged & !state$pruned)
      if (length(active) == 0L || passes >= glm_max_passes) break
    }
    state$passes <- passes
    state
  }
  list(models = models, run = run, columns_of = columns_of)
}
