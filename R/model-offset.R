# Offsets: a known part of each row's linear predictor, b0 + z'b + o, as
# lm() and glm() take them: the `offset()` terms of a formula and an
# `offset` argument (summed as model.offset() sums them), or one number per
# row (a chunk's `offset`). Ridge regression fits y - o
# (R/model-ridge-response.R); a GLM's passes add o to every linear
# predictor they evaluate (src/core/models/glm_pass.*) and its
# intercept-only model is fitted with it (R/model-glm-null.R). Predictions
# add the new rows' offset: evaluated in `newdata` for a formula fit, as
# predict.lm() does, given as `offset` otherwise.

# Offsets are at most this large in absolute value, so that y - o and the
# sums of its squares stay finite, as the responses' limit keeps y's.
offset_limit <- 1e100

# NULL for no offset, else the offset as a double matrix of n rows and one
# column, or for a model of `classes` > 1 predictors (the multinomial) one
# column per class: a single offset would add the same to every class's
# predictor, which the softmax cancels. `where` names it in errors; with
# `missing`, NA marks a row that predicts NA.
check_offset <- function(offset, n, classes, where, missing = FALSE) as_condition_class("data", {
  if (is.null(offset)) return(NULL)
  if (classes > 1L && is.numeric(offset) && (is.null(dim(offset)) || NCOL(offset) == 1L)) {
    fail("%s must be a matrix of one column per class (%d) for a model of several classes: each class has a linear predictor of its own, and one offset added to every class's would cancel in the softmax.",
         where, classes)
  }
  shape_ok <- if (classes > 1L) is_matrix(offset) && nrow(offset) == n && ncol(offset) == classes else {
    (is.null(dim(offset)) || (is_matrix(offset) && ncol(offset) == 1L)) && length(offset) == n
  }
  if (!is.numeric(offset) || is.object(offset) || !shape_ok) {
    fail("%s must be NULL or %s.", where, if (classes > 1L) {
      sprintf("a numeric matrix of %d rows and %d columns, one per class", n, classes)
    } else {
      sprintf("one number per row (%d)", n)
    })
  }
  known <- if (missing) offset[!is.na(offset)] else offset
  if (anyNA(known) || any(!is.finite(known)) || any(abs(known) > offset_limit)) {
    fail("%s must hold finite numbers of at most 1e100 in absolute value%s.", where,
         if (missing) " (NA for a row that predicts NA)" else "")
  }
  matrix(as.double(offset), n, classes)
})

# Whether the rows carry an offset is fixed by the first chunk (`first`,
# NULL for the first chunk itself): every chunk carries one, or none.
# Returns whether this chunk does.
check_offset_presence <- function(offset, first, where) {
  given <- !is.null(offset)
  if (!is.null(first) && !identical(first, given)) {
    fail(if (given) {
      "%s is given, but the first chunk carries none: every chunk must carry an offset, or none."
    } else {
      "%s is missing, but the first chunk carries one: every chunk must carry an offset, or none."
    }, where, class = "data")
  }
  given
}

# The offset of a model frame `mf`: its offset() terms and its `(offset)`
# column summed, as model.offset() sums them; NULL for none. `where` names
# it in errors.
frame_offset <- function(mf, where) {
  tryCatch(stats::model.offset(mf), error = function(e) fail("%s could not be summed: %s", where, conditionMessage(e)))
}

# The offset of new rows for a formula fit (`design`): the offset() terms of
# their model frame `mf` plus the fit's `offset` argument, whose expression
# the design keeps (a language object from the call, never a string),
# evaluated in the rows as predict.lm() evaluates `object$call$offset`;
# NULL for a fit without either.
design_offset <- function(design, mf, newdata, arg) {
  offset <- frame_offset(mf, sprintf("The offset() terms of the fit's formula in `%s`", arg))
  if (is.null(design$offset)) return(offset)
  env <- environment(design$terms)
  value <- tryCatch(eval(design$offset, newdata, if (is.null(env)) baseenv() else env), error = function(e) {
    fail("`%s` does not hold what the fit's `offset` argument needs: %s", arg, conditionMessage(e))
  })
  if (!is.numeric(value) || is.object(value) || !is.null(dim(value)) || length(value) != nrow(mf)) {
    fail("The fit's `offset` argument, evaluated in `%s`, must give one number per row (%d).", arg, nrow(mf))
  }
  if (is.null(offset)) value else offset + value
}

# The offset of the rows of `newdata` predicted by a fit of the default
# method (`given`, or NULL): required when the fit's rows carried one, since
# its coefficients were fitted around it; with `classes` columns (see
# check_offset()), NA for a row that predicts NA.
given_offset <- function(fit, given, n, classes) {
  if (is.null(given) && isTRUE(fit$offset)) {
    fail("This fit's rows carried an offset, so `offset` must be given with `newdata`: %s for each new row (0 where there is none).",
         if (classes > 1L) "one number per class" else "one number")
  }
  check_offset(given, n, classes, "`offset`", missing = TRUE)
}

# predict() without `newdata` gives the fitted values, which hold the fit's
# own offset.
no_offset_without_rows <- function(offset) {
  if (!is.null(offset)) {
    fail("`offset` goes with `newdata`: without it, predict() gives the fitted values, which hold the fit's own offset.")
  }
}

# Linear predictors (rows by predictors) plus an offset of one column, or of
# one per predictor.
add_offset <- function(scores, offset) {
  if (is.null(offset)) return(scores)
  scores + (if (ncol(offset) == 1L) drop(offset) else offset)
}
