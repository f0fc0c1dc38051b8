# The optimizer of rff_glm(): every model of a path (each lambda, fitted on
# all rows or without one fold) minimises half its deviance plus lambda / 2
# ||b||^2 by limited-memory BFGS whose initial inverse Hessian is
# (a H + lambda P)^{-1} for a reference Hessian H (glm_solve.h), with
# Armijo's rule; all models are evaluated in the same passes over the data.
# Coefficients are columns of (1 + D) rows, intercept first, on the shifted
# features; a model of K classes has K consecutive columns.

glm_grid_size <- 25L
# passes after which the references are taken again at the current fits
glm_refresh_passes <- c(4L, 12L, 30L, 60L)
# passes of the final fit that take its Hessian at the point tried
glm_final_refresh_passes <- c(1L, 3L, 6L, 10L, 20L, 40L, 80L, 160L)
glm_max_passes <- 200L
glm_memory <- 8L

# Solves the path (cross-validated when lambda has several values or is
# chosen) and then the chosen lambda's fit on all rows to convergence.
# `pass(coefficients, model_fold, references)` runs one pass of
# .cpp_glm_pass over the data.
glm_solve_path <- function(pass, setup, null, family, lambda, nfolds, columns) {
  classes <- ncol(null$a)
  gram <- core(.cpp_glm_reference(setup, eigen_progress(columns)))
  a <- eigen(null$a, symmetric = TRUE)
  null_reference <- list(rotation = a$vectors, scale = pmax(a$values, 0), eigens = rep(list(gram), classes),
                         lambda = Inf)
  top <- gram$values[1L] * max(a$values)
  if (!(top > 0)) top <- 1
  grid <- if (is.null(lambda)) top * 10^seq(1, -5, length.out = glm_grid_size) else sort(lambda, decreasing = TRUE)
  start <- rbind(null$intercept, matrix(0, columns, classes))
  solver <- glm_solver(pass, family, classes, columns, setup$weight)
  cv <- length(grid) > 1L
  if (cv) {
    models <- solver$models(rep(grid, each = nfolds + 1L), rep(0:nfolds, length(grid)), start)
    models <- solver$run(models, list(null_reference), final = FALSE, reference_lambdas = glm_reference_lambdas(grid, top),
                         prune = function(state) glm_pruned(state, grid, nfolds))
    path <- glm_cv_path(models, grid, nfolds)
    best <- which(path$cv == min(path$cv, na.rm = TRUE))[1L]
    if (any(!path$converged & !is.na(path$cv))) {
      warn("The cross-validation fits at %d of the %d values of `lambda` did not converge in %d passes; their `cv` in the fit's path is approximate.",
           sum(!path$converged & !is.na(path$cv)), length(grid), glm_max_passes)
    }
    full <- which(models$fold == 0L & models$lambda == grid[best])
    final <- solver$models(grid[best], 0L, models$beta[, solver$columns_of(full), drop = FALSE])
    null_deviance <- 2 * models$null_half[1L]
  } else {
    path <- data.frame(lambda = grid, cv = NA_real_, cv_se = NA_real_, deviance = NA_real_, converged = NA)
    best <- 1L
    final <- solver$models(grid, 0L, start)
    null_deviance <- NULL
  }
  final <- solver$run(final, list(null_reference), final = TRUE)
  if (!final$converged) {
    warn("The fit at `lambda` = %s did not converge in %d passes; its coefficients are approximate.",
         format(grid[best], digits = 3), glm_max_passes)
  }
  path$deviance[best] <- 2 * final$deviance
  path$converged[best] <- if (cv) path$converged[best] && final$converged else final$converged
  list(coefficients = matrix(final$beta, ncol = classes), lambda = grid[best], path = path,
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

# The reference lambdas whose models are still moving: each model that has
# not converged counts for the nearest (the intercept-only model's beyond ten
# times the largest).
glm_wanted_references <- function(state, reference_lambdas) {
  moving <- state$lambda[!state$converged & !state$pruned]
  if (length(reference_lambdas) == 0L || length(moving) == 0L) return(numeric())
  nearest <- vapply(moving, function(l) {
    if (l > 10 * max(reference_lambdas)) NA_real_ else reference_lambdas[which.min(abs(log(reference_lambdas) - log(l)))]
  }, 0)
  unique(nearest[!is.na(nearest)])
}

# The models to leave: like glmnet's, the path stops early, once the
# penalties from the largest down have converged and their cross-validated
# deviance has risen at each of the last three past its minimum; the fits
# at smaller penalties overfit more, and near-separable data make them the
# slowest to converge.
glm_pruned <- function(state, grid, nfolds) {
  done <- vapply(grid, function(l) all(state$converged[state$lambda == l]), TRUE)
  prefix <- if (all(done)) length(grid) else which(!done)[1L] - 1L
  if (prefix < 4L || prefix == length(grid)) return(integer())
  cv <- glm_cv_path(state, grid[seq_len(prefix)], nfolds)$cv
  rising <- which.min(cv) <= prefix - 3L && all(diff(cv[(prefix - 3L):prefix]) > 0)
  if (rising) which(state$lambda < grid[prefix] & !state$converged) else integer()
}

# The cross-validated deviance per unit weight at each lambda, with its
# standard error across folds; NA where the path stopped before the lambda.
glm_cv_path <- function(models, grid, nfolds) {
  rows <- lapply(grid, function(l) {
    if (any(models$pruned[models$lambda == l])) return(c(cv = NA, cv_se = NA, deviance = NA, converged = FALSE))
    folds <- which(models$lambda == l & models$fold > 0L)
    per_fold <- 2 * models$heldout[folds] / models$heldout_weight[folds]
    c(cv = 2 * sum(models$heldout[folds]) / sum(models$heldout_weight[folds]),
      cv_se = stats::sd(per_fold) / sqrt(nfolds),
      deviance = 2 * models$deviance[models$lambda == l & models$fold == 0L],
      converged = all(models$converged[models$lambda == l]))
  })
  rows <- do.call(rbind, rows)
  data.frame(lambda = grid, cv = rows[, "cv"], cv_se = rows[, "cv_se"], deviance = rows[, "deviance"],
             converged = as.logical(rows[, "converged"]))
}

# The solver's functions, closed over the pass and the sizes.
glm_solver <- function(pass, family, classes, columns, total_weight) {
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
         objective = rep(Inf, m), gradient = beta * 0, step = rep(1, m), memory = rep(list(list()), m),
         converged = rep(FALSE, m), deviance = rep(NA_real_, m), heldout = rep(NA_real_, m),
         heldout_weight = rep(NA_real_, m), scale = ifelse(fold == 0L, 1, 1 - 1 / max(1L, max(fold))),
         reference = rep(1L, m), null_half = rep(NA_real_, m), pruned = rep(FALSE, m))
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
  # Limited-memory BFGS directions for models `ms` at their accepted points.
  directions <- function(state, ms, references) {
    alphas <- vector("list", length(ms))
    q <- state$gradient[, columns_of(ms), drop = FALSE]
    for (i in seq_along(ms)) {
      memory <- state$memory[[ms[i]]]
      cols <- (i - 1L) * classes + seq_len(classes)
      a <- numeric(length(memory))
      for (h in rev(seq_along(memory))) {
        a[h] <- sum(memory[[h]]$s * q[, cols]) / memory[[h]]$sy
        q[, cols] <- q[, cols] - a[h] * memory[[h]]$y
      }
      alphas[[i]] <- a
    }
    r <- precondition(q, ms, state, references)
    for (i in seq_along(ms)) {
      memory <- state$memory[[ms[i]]]
      cols <- (i - 1L) * classes + seq_len(classes)
      for (h in seq_along(memory)) {
        b <- sum(memory[[h]]$y * r[, cols]) / memory[[h]]$sy
        r[, cols] <- r[, cols] + memory[[h]]$s * (alphas[[i]][h] - b)
      }
    }
    -r
  }
  nearest_reference <- function(lambda, references) {
    at <- vapply(references, `[[`, 0, "lambda")
    vapply(lambda, function(l) {
      finite <- which(is.finite(at))
      if (length(finite) == 0L || l > 10 * max(at[finite])) return(which(!is.finite(at))[1L])
      finite[which.min(abs(log(at[finite]) - log(l)))]
    }, 1L)
  }
  # A reference from the Hessian sums of one point (classes in a row).
  reference_from <- function(hessians, lambda) {
    list(rotation = diag(classes), scale = rep(1, classes),
         eigens = lapply(hessians, function(h) core(.cpp_glm_reference(h, eigen_progress(columns)))), lambda = lambda)
  }
  run <- function(state, references, final, reference_lambdas = numeric(), prune = function(state) integer()) {
    tolerance <- if (final) 1e-20 else 1e-8
    passes <- 0L
    state$reference <- nearest_reference(state$lambda, references)
    active <- seq_along(state$lambda)
    first <- TRUE
    repeat {
      passes <- passes + 1L
      # the Hessians to take in this pass: at the trial point in the final
      # fit, at the full-data fits of the reference lambdas now and then
      refresh <- if (final) {
        if (passes %in% glm_final_refresh_passes) active else integer()
      } else if (!first && passes %in% glm_refresh_passes) {
        wanted <- glm_wanted_references(state, reference_lambdas)
        which(state$fold == 0L)[match(wanted, state$lambda[state$fold == 0L])]
      } else integer()
      at <- if (final) state$trial[, columns_of(refresh), drop = FALSE] else state$beta[, columns_of(refresh), drop = FALSE]
      sums <- pass(state$trial[, columns_of(active), drop = FALSE], state$fold[active],
                   if (length(refresh)) at else matrix(0, p, 0))
      cols <- columns_of(active)
      lambda_columns <- rep(state$lambda[active], each = classes)
      objective <- sums$deviance + state$lambda[active] / 2 *
        model_dot(state$trial[-1L, cols, drop = FALSE], state$trial[-1L, cols, drop = FALSE])
      gradient <- -sums$gradient + penalty_gradient(state$trial[, cols, drop = FALSE], lambda_columns)
      if (first) {
        state$null_half[active] <- sums$deviance
        held <- state$fold[active] > 0L
        state$scale[active[held]] <- (total_weight - sums$heldout_weight[held]) / total_weight
      }
      slope <- model_dot(state$gradient[, cols, drop = FALSE], state$direction[, cols, drop = FALSE])
      accepted <- is.finite(objective) & (first | objective <= state$objective[active] + 1e-4 * state$step[active] * slope)
      retry <- active[!accepted]
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
      for (i in which(accepted)) {
        m <- active[i]
        mc <- columns_of(m)
        local_cols <- (i - 1L) * classes + seq_len(classes)
        if (!first && glm_memory > 0L) {
          s <- state$trial[, mc, drop = FALSE] - state$beta[, mc, drop = FALSE]
          y <- gradient[, local_cols, drop = FALSE] - state$gradient[, mc, drop = FALSE]
          sy <- sum(s * y)
          if (sy > 1e-12 * sqrt(sum(s^2) * sum(y^2))) {
            state$memory[[m]] <- utils::tail(c(state$memory[[m]], list(list(s = s, y = y, sy = sy))), glm_memory)
          }
        }
        state$beta[, mc] <- state$trial[, mc]
        state$gradient[, mc] <- gradient[, local_cols]
        state$objective[m] <- objective[i]
        state$deviance[m] <- sums$deviance[i]
        state$heldout[m] <- sums$heldout[i]
        state$heldout_weight[m] <- sums$heldout_weight[i]
      }
      if (length(refresh)) {
        new_refs <- lapply(seq_along(refresh), function(j) {
          hessians <- sums$hessians[(j - 1L) * classes + seq_len(classes)]
          reference_from(hessians, state$lambda[refresh[j]])
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
      if (length(good)) {
        d <- directions(state, good, references)
        state$direction[, columns_of(good)] <- d
        decrement <- -model_dot(state$gradient[, columns_of(good), drop = FALSE], d)
        done <- !(decrement > tolerance * pmax(1, abs(state$objective[good])))
        state$converged[good[done]] <- TRUE
        state$step[good] <- 1
        state$trial[, columns_of(good)] <- state$beta[, columns_of(good)] + d
      }
      pruned <- prune(state)
      state$pruned[pruned] <- TRUE
      active <- which(!state$converged & !state$pruned)
      if (nzchar(Sys.getenv("ASKRFF_GLM_TRACE"))) {
        message(sprintf("%s pass %d: %d active, %d references, refreshed %d", if (final) "final" else "cv", passes,
                        length(active), length(references), length(refresh)))
      }
      if (length(active) == 0L || passes >= glm_max_passes) break
    }
    state$passes <- passes
    state
  }
  list(models = models, run = run, columns_of = columns_of)
}
