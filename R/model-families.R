# Model families: R keeps no list of them. The core's table
# (src/core/models/model_families.cpp) gives each family's name, label,
# the kind of response it takes, what its mean is, whether its deviance is a
# likelihood's and whether its loss has kinks; what R does with a family
# follows from those traits.

model_families <- function() core(.cpp_model_families())

# The family's traits, after checking that `family` names one.
model_family_traits <- function(family, arg = "family") {
  families <- model_families()
  if (!is.character(family) || length(family) != 1L || is.na(family) || !family %in% names(families)) {
    fail("`%s` must be one of %s.", arg, paste0('"', names(families), '"', collapse = ", "))
  }
  families[[family]]
}

# The family a response asks for when none is given: classes (a factor,
# characters, logicals or 0/1 numbers) take the family of their kind whose
# mean is a probability (binomial for two, multinomial for more). Counts
# could be classes or counts, so they must be said.
infer_family <- function(y, where) {
  if (inherits(y, "Surv")) return(names(Filter(function(f) f$response == "survival", model_families()))[1L])
  if (is.matrix(y) && ncol(y) == 1L) y <- y[, 1L]
  values <- if (is.numeric(y) && !is.object(y)) unique(y[!is.na(y)]) else NULL
  classes <- if (is.factor(y)) nlevels(droplevels(y)) else if (is.character(y)) length(unique(y[!is.na(y)])) else
    if (is.logical(y) || (!is.null(values) && all(values %in% c(0, 1)))) 2L else NA_integer_
  if (is.na(classes)) {
    counts <- !is.null(values) && length(values) > 0L && all(is.finite(values) & values >= 0 & values == round(values))
    fail("%s %s; give `family`: %s.", where,
         if (counts) "holds counts, which could be classes or counts" else "is neither classes nor counts",
         paste0('"', names(model_families()), '"', collapse = ", "))
  }
  if (classes < 2L) fail("%s must have at least two classes, not %d.", where, classes)
  kind <- if (classes == 2L) "two_classes" else "classes"
  fits <- Filter(function(f) f$response == kind && identical(f$mean, "probability"), model_families())
  names(fits)[1L]
}

# The number of linear predictors of a fit: one per level for a response of
# several classes (one-vs-rest's of three or more), one per level tau for
# values, else one.
family_predictors <- function(traits, levels, tau) {
  switch(response_kind(traits, levels), classes = length(levels), values = length(tau), 1L)
}

# Whether a family takes any finite numbers: values (a predictor per level
# tau) or real numbers (one predictor).
numeric_response <- function(traits) traits$response %in% c("values", "real")

# The kind of response a family takes with these levels: a one-vs-rest
# family takes two classes as one predictor and more as one per class.
response_kind <- function(traits, levels) {
  if (traits$response != "one_vs_rest") return(traits$response)
  if (length(levels) > 2L) "classes" else "two_classes"
}

# The names of a fit's predictors (its coefficients' columns): the classes'
# levels, the levels tau ("tau=0.5"), or "y".
predictor_names <- function(traits, levels, tau) {
  switch(response_kind(traits, levels), classes = levels, values = paste0("tau=", tau), "y")
}

# Whether the family of `traits` takes a parameter that only families of
# the response kind `kind` take (tau for values, epsilon for real numbers,
# ties for survival); a value given to another family is an error naming
# `arg` and, through `takers` (a format of their quoted names), the
# families that take it.
takes_parameter <- function(value, traits, kind, arg, takers) {
  if (traits$response == kind) return(TRUE)
  if (!is.null(value)) {
    families <- names(Filter(function(f) f$response == kind, model_families()))
    fail("`%s` is for %s; the \"%s\" family takes none.", arg,
         sprintf(takers, paste0('"', families, '"', collapse = ", ")), traits$name)
  }
  FALSE
}

# The levels tau of a family of values, checked and in increasing order
# (the order its predictors, coefficients and predictions take); 0.5 when
# not given. Other families take none.
check_tau <- function(tau, traits, arg = "tau") {
  if (!takes_parameter(tau, traits, "values", arg, "the families of levels (%s)")) return(NULL)
  if (is.null(tau)) return(0.5)
  if (!is.numeric(tau) || is.object(tau) || !is.null(dim(tau)) || length(tau) < 1L || anyNA(tau) ||
      any(!(tau > 0 & tau < 1))) {
    fail("`%s` must be one or more levels strictly between 0 and 1.", arg)
  }
  if (anyDuplicated(tau) > 0L) fail("`%s` must hold distinct levels; %s is given twice.", arg, format(tau[anyDuplicated(tau)]))
  sort(as.double(tau))
}

# The half-width epsilon of the tube of a family of real numbers (support
# vector regression's), checked: finite and nonnegative, 0.1 when not given
# (kernlab's default). Other families take none.
check_epsilon <- function(epsilon, traits, arg = "epsilon") {
  if (!takes_parameter(epsilon, traits, "real", arg, "the families of a tube (%s)")) return(NULL)
  if (is.null(epsilon)) return(0.1)
  if (!is.numeric(epsilon) || is.object(epsilon) || length(epsilon) != 1L || !is.finite(epsilon) || epsilon < 0) {
    fail("`%s` must be one finite nonnegative number.", arg)
  }
  as.double(epsilon)
}

# The response as the core reads it (model_family.h): for two classes a 0/1
# column (1 for the second level), for several the classes' indicator
# columns, for counts the counts, for values (levels `tau`) the values in a
# column per level, for real numbers the numbers; with its kind and levels (`response`
# NULL for the first chunk, which sets the kind and levels the others must
# match).
glm_response <- function(y, n, where, response, family, tau) {
  traits <- model_family_traits(family)
  if (is.null(y) || !is.null(dim(y)) && !(is.matrix(y) && ncol(y) == 1L)) {
    fail("%s must be a vector with one entry per row of x.", where)
  }
  if (is.matrix(y)) y <- y[, 1L]
  if (length(y) != n) fail("%s must have one entry per row of x (%d), not %d.", where, n, length(y))
  if (anyNA(y)) fail("%s must not contain NA.", where)
  if (traits$response == "counts") {
    if (!is.numeric(y) || is.object(y) || any(!is.finite(y)) || any(y < 0) || any(y > 1e100)) {
      fail("%s must be nonnegative finite counts (at most 1e100) for the \"%s\" family.", where, family)
    }
    return(list(y = matrix(as.double(y)), response = list(kind = "counts", levels = character())))
  }
  if (numeric_response(traits)) {
    if (!is.numeric(y) || is.object(y) || any(!is.finite(y)) || any(abs(y) > 1e100)) {
      fail("%s must be finite numbers (at most 1e100 in absolute value) for the \"%s\" family.", where, family)
    }
    # the response once per level, as the core reads it (model_family.h)
    return(list(y = matrix(as.double(y), n, max(length(tau), 1L)), response = list(kind = "numeric", levels = character())))
  }
  if (is.character(y) && is.null(response)) y <- factor(y)
  two <- response_kind(traits, if (is.factor(y)) levels(y) else c(FALSE, TRUE)) == "two_classes"
  if (is.factor(y)) {
    kind <- "factor"
    level_names <- levels(y)
    codes <- as.integer(y)
  } else if (two && is.logical(y)) {
    kind <- "logical"
    level_names <- c("FALSE", "TRUE")
    codes <- as.integer(y) + 1L
  } else if (two && is.numeric(y) && !is.object(y) && all(y %in% c(0, 1))) {
    kind <- "numeric"
    level_names <- c("0", "1")
    codes <- as.integer(y) + 1L
  } else {
    fail("%s must be %s for the \"%s\" family.", where,
         if (two) "a factor of two levels, a logical or a 0/1 numeric vector" else "a factor", family)
  }
  if (two && length(level_names) != 2L) {
    several <- names(Filter(function(f) f$response == "classes", model_families()))
    fail("%s must have two levels for the \"%s\" family, not %d%s.", where, family, length(level_names),
         if (length(level_names) > 2L) sprintf("; use family = \"%s\" for more", several[1L]) else "")
  }
  if (is.null(response)) {
    if (length(level_names) < 2L) fail("%s must have at least two levels.", where)
    if (anyDuplicated(level_names) > 0L) fail("%s must have distinct levels.", where)
    response <- list(kind = kind, levels = level_names)
  } else if (!identical(response$kind, kind) || !identical(response$levels, level_names)) {
    fail("%s must be a %s with the levels of the first chunk's.", where, response$kind)
  }
  y <- if (two) matrix(as.double(codes == 2L)) else outer(codes, seq_along(level_names), "==") + 0
  list(y = y, response = response)
}

# The kinds a fit's `response` may have under each kind of family response.
response_kinds <- function(traits) {
  switch(traits$response, counts = "counts", two_classes = , one_vs_rest = c("factor", "logical", "numeric"),
         classes = "factor", values = , real = "numeric", survival = "survival")
}

# The responses' weighted means from the first pass's sums (of the
# responses less `shift`), which give the intercept-only model in the core
# (or, for values, where R's fit of it starts), after checking that it
# exists: every class occurs, or the counts are not all zero.
glm_null_means <- function(family, setup, response, shift = 0) as_condition_class("data", {
  if (setup$n < 2) fail("A model needs at least two rows of positive weight (`weights`, or the chunks' `w`); the data have %d.", setup$n)
  traits <- model_family_traits(family)
  mean_y <- setup$y_sum / setup$weight + shift
  if (numeric_response(traits)) return(mean_y)
  if (traits$response == "survival") {
    if (!(mean_y > 0)) fail("`y` has no events among the rows of positive weight: the Cox model has nothing to fit.")
    return(mean_y)
  }
  if (traits$response == "counts") {
    if (!(mean_y > 0)) fail("The counts `y` are all zero (where the weight is positive): the model has no rate to fit.")
    return(mean_y)
  }
  two <- response_kind(traits, response$levels) == "two_classes"
  absent <- mean_y <= 0 | (two & mean_y >= 1)
  if (any(absent)) {
    shown <- if (two) response$levels[if (mean_y <= 0) 2L else 1L] else response$levels[absent]
    fail("Level %s of `y` does not occur among the rows of positive weight; every class needs rows to fit.",
         paste0("\"", shown, "\"", collapse = ", "))
  }
  mean_y
})

# The means of the rows of the linear predictors eta (rows by predictors).
glm_mean <- function(family, eta) {
  if (!is.matrix(eta)) eta <- matrix(eta, ncol = 1L)
  core(.cpp_model_family_mean(family, eta))
}

# The observed response of a fit of one predictor (1 for the second level,
# 0 for the first; or the counts or values), NA where missing.
glm_observed <- function(fit, y, arg) {
  kind <- model_family_traits(fit$family)$response
  if (kind %in% c("values", "real")) {
    if (!is.numeric(y) || is.object(y) || any(!is.na(y) & !is.finite(y))) {
      fail("The response in `%s` must be finite numbers, as the fit's.", arg)
    }
    return(as.double(y))
  }
  if (kind == "counts") {
    if (!is.numeric(y) || is.object(y) || any(!is.na(y) & (!is.finite(y) | y < 0))) {
      fail("The response in `%s` must be nonnegative counts, as the fit's.", arg)
    }
    return(as.double(y))
  }
  codes <- match(as.character(y), fit$response$levels)
  if (any(!is.na(y) & is.na(codes))) {
    fail("The response in `%s` must take the fit's levels, %s.", arg,
         paste0("\"", fit$response$levels, "\"", collapse = " and "))
  }
  as.double(codes == 2L)
}

# sign(residual) sqrt(d) with d the row's deviance (twice its half loss,
# without smoothing), from the linear predictor, for a fit of one predictor
# (at the level `tau` for values, with the tube `epsilon` for real
# numbers); NA where y is.
deviance_residuals <- function(family, tau, epsilon, y, eta) {
  out <- rep(NA_real_, length(y))
  known <- !is.na(y) & !is.na(eta)
  rows <- core(.cpp_model_family_rows(family, matrix(eta[known], ncol = 1L), matrix(y[known], ncol = 1L),
                                      if (is.null(tau)) numeric() else tau, if (is.null(epsilon)) 0 else epsilon, 0))
  out[known] <- sign(rows$residual[, 1L]) * sqrt(pmax(2 * rows$half, 0))
  out
}

glm_family_text <- function(fit) {
  traits <- model_family_traits(fit$family)
  levels <- fit$response$levels
  switch(response_kind(traits, levels),
         two_classes = if (identical(traits$mean, "probability")) sprintf("%s (P(%s))", traits$label, levels[2L]) else
           sprintf("%s (%s against %s)", traits$label, levels[2L], levels[1L]),
         classes = sprintf("%s, %d classes", traits$label, length(levels)),
         values = sprintf("%s, tau = %s", traits$label, paste(format(fit$tau), collapse = ", ")),
         real = sprintf("%s, epsilon = %s", traits$label, format(fit$epsilon)),
         survival = sprintf("%s proportional hazards (%s ties)", traits$label, fit$ties),
         traits$label)
}

# What a fit's deviance is called: a deviance for a family with a
# likelihood, else the sum of its losses.
deviance_name <- function(family) if (model_family_traits(family)$likelihood) "deviance" else "loss"

