# The trials of approximation_study(): each draws its maps, measures their
# Gram matrices against the exact one, and the trials' sums become the
# study's rows and per-pair moments.

# One approximate Gram matrix of a method, with its feature columns: each
# map kind's method (in its file) draws a map of `n` features from `seed`.
study_draw <- function(method, kernel, x, y, n, seed, n_threads) {
  tryCatch(study_gram(method, kernel, x, y, n, seed, n_threads), askrff_error = function(e) {
    fail("`methods$%s` failed at n_features = %d: %s", method$label, n, conditionMessage(e))
  })
}

study_gram <- function(method, kernel, x, y, n, seed, n_threads) UseMethod("study_gram")

#' @export
study_gram.askrff_study_method <- function(method, kernel, x, y, n, seed, n_threads) {
  fail("the map kind %s has no study_gram() method, so approximation_study() cannot draw it.", class(method)[1L])
}

#' @export
study_gram.custom_study_method <- function(method, kernel, x, y, n, seed, n_threads) {
  custom_draw(method$args, x, y, n, seed, n_threads)
}

# A user's method: any error of theirs is named like the package's own, and
# what their functions return is checked before it enters the sums.
custom_draw <- function(args, x, y, n, seed, n_threads) {
  map <- tryCatch(args$draw(n, seed), error = function(e) fail("its `draw` failed: %s", conditionMessage(e)))
  K_hat <- if (is.null(args$gram)) {
    rff_kernel_matrix(map, x, y, n_threads)
  } else {
    tryCatch(args$gram(map, x, y), error = function(e) fail("its `gram` failed: %s", conditionMessage(e)))
  }
  if (!is.numeric(K_hat) || !is_matrix(K_hat) || !identical(dim(K_hat), c(nrow(x), nrow(y))) ||
      any(!is.finite(K_hat))) {
    fail("its approximate Gram matrix must be a finite numeric %d x %d matrix.", nrow(x), nrow(y))
  }
  columns <- tryCatch(n_feature_columns(map)[[1L]], askrff_error = function(e) n)
  list(K_hat = array(as.double(K_hat), dim(K_hat)), columns = columns)
}

# What the metrics divide by, computed once.
study_reference <- function(K, metrics) {
  frobenius <- norm(K, "F")
  if (frobenius == 0) fail("The kernel is zero at every pair of `x` and `y`, so relative errors are undefined.")
  list(frobenius = frobenius, spectral = if ("spectral" %in% metrics) largest_singular_value(K) else NA_real_)
}

# A trial's work, made here so that what travels to a worker is the study's
# inputs, not the caller's environment.
study_trial_work <- function(kernel, x, y, K, reference, n_features, methods, metrics, seeds, n_threads) {
  force(list(kernel, x, y, K, reference, n_features, methods, metrics, seeds, n_threads))
  configs <- expand.grid(n = n_features, m = seq_along(methods))
  function(chunk) {
    draws <- lapply(seq_len(nrow(configs)), function(i) {
      started <- proc.time()[["elapsed"]]
      draw <- tryCatch(study_draw(methods[[configs$m[i]]], kernel, x, y, configs$n[i], seeds[i, chunk$trial], n_threads),
                       askrff_error = function(e) {
                         list(K_hat = array(NA_real_, dim(K)), columns = NA_real_, error = conditionMessage(e))
                       })
      draw$seconds <- if (is.null(draw$error)) proc.time()[["elapsed"]] - started else NA_real_
      draw
    })
    differences <- lapply(draws, function(draw) if (is.null(draw$error)) K - draw$K_hat)
    measure <- list(frobenius = function(e) norm(e, "F") / reference$frobenius,
                    spectral = function(e) largest_singular_value(e) / reference$spectral,
                    max_abs = function(e) max(abs(e)))
    metric_values <- vapply(metrics, function(metric) {
      vapply(differences, function(e) if (is.null(e)) NA_real_ else measure[[metric]](e), double(1))
    }, double(length(draws)))
    # a plain matrix per trial: data frames are made once, at the end
    rows <- cbind(n_columns = vapply(draws, function(draw) as.double(draw$columns[1L]), double(1)),
                  matrix(metric_values, nrow = length(draws), dimnames = list(NULL, metrics)),
                  seconds = vapply(draws, `[[`, double(1), "seconds"))
    messages <- vapply(draws, function(draw) if (is.null(draw$error)) NA_character_ else draw$error, "")
    list(rows = list(rows), errors = list(messages), sums = lapply(draws, `[[`, "K_hat"),
         squares = lapply(draws, function(d) d$K_hat^2))
  }
}

# The trials' metric matrices as one data frame, a row per method, size and
# trial, with the `error` of a failed draw (NA where it succeeded).
study_rows <- function(matrices, errors, methods, n_features, metrics) {
  values <- do.call(rbind, matrices)
  n_configs <- length(methods) * length(n_features)
  rows <- data.frame(method = factor(rep(rep(names(methods), each = length(n_features)), length(matrices)),
                                     levels = names(methods)),
                     n_features = rep(n_features, length(methods) * length(matrices)),
                     trial = rep(seq_along(matrices), each = n_configs),
                     n_columns = as.integer(values[, 1L]))
  for (i in seq_along(metrics)) rows[[metrics[i]]] <- values[, i + 1L]
  rows$seconds <- values[, ncol(values)]
  rows$error <- unlist(errors, use.names = FALSE)
  rows
}

# One warning per method and size that failed in some trial.
warn_failures <- function(rows) {
  failed <- rows[!is.na(rows$error), , drop = FALSE]
  for (key in unique(paste(failed$method, failed$n_features))) {
    these <- failed[paste(failed$method, failed$n_features) == key, , drop = FALSE]
    warn("%s (in %d of %d trials; those rows of the study hold NA, and the message in `error`)", these$error[1L],
         nrow(these), max(rows$trial))
  }
}

add_trial <- function(total, trial) {
  if (is.null(total)) return(trial)
  list(rows = c(total$rows, trial$rows), errors = c(total$errors, trial$errors), sums = Map(`+`, total$sums, trial$sums),
       squares = Map(`+`, total$squares, trial$squares))
}

# Per method and size: the mean over pairs of the bias of the trials' mean,
# its root mean square, and the mean over pairs of each pair's variance.
pair_summaries <- function(configs, moments, K, trials) {
  summaries <- lapply(moments, function(m) {
    c(mean_error = mean(m$mean - K), rms_bias = sqrt(mean((m$mean - K)^2)), variance = mean(m$variance))
  })
  cbind(data.frame(method = configs$method, n_features = configs$n_features, trials = trials,
                   stringsAsFactors = FALSE), do.call(rbind, summaries))
}

# Each pair's mean and variance across trials, per method and size.
pair_moments <- function(sums, squares, trials) {
  lapply(seq_along(sums), function(i) {
    mean_hat <- sums[[i]] / trials
    variance <- if (trials > 1L) pmax(squares[[i]] - trials * mean_hat^2, 0) / (trials - 1L) else
      array(NA_real_, dim(mean_hat))
    list(mean = mean_hat, variance = variance)
  })
}

# The moments as arrays indexed by x's row, y's row, n_features and method.
pair_arrays <- function(moments, x, y, n_features, methods) {
  names <- list(rownames(x), rownames(y), as.character(n_features), names(methods))
  lapply(c(mean = "mean", variance = "variance"), function(which) {
    array(unlist(lapply(moments, `[[`, which), use.names = FALSE),
          c(nrow(x), nrow(y), length(n_features), length(methods)), names)
  })
}
