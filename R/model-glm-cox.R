# The Cox proportional hazards model, rff_glm(family = "cox")
# (src/core/models/cox_risk.h): a survival::Surv response of right-censored
# times, encoded as event indicators and time ranks among the distinct
# event times (read from every chunk once before the fit, so that every
# chunk ranks its rows alike); each pass the path solver asks for runs as
# two over the data (the risk sums, then the Poisson rows at the baseline
# hazard's offsets); the fit keeps the baseline cumulative hazard and
# Harrell's concordance.

# The ways of handling tied event times (survival::coxph()'s names).
cox_ties <- c("efron", "breslow")

# The ties of a Cox fit, checked: "efron" when not given; other families
# take none.
check_ties <- function(ties, traits) {
  if (!takes_parameter(ties, traits, "survival", "ties", "the %s family")) return(NULL)
  if (is.null(ties)) return("efron")
  check_choice(ties, cox_ties, "ties")
}

# A response of right-censored survival times, checked: a survival::Surv
# object of type "right" whose times are finite and events 0 or 1; the
# other kinds of censoring are refused, naming what they are.
check_surv <- function(y, where) {
  if (!inherits(y, "Surv")) {
    fail("%s must be a survival::Surv(time, event) object of right-censored times for the \"cox\" family.", where)
  }
  type <- attr(y, "type")
  if (!identical(type, "right") || !is.matrix(y) || ncol(y) != 2L) {
    what <- switch(if (is.character(type) && length(type) == 1L) type else "",
                   counting = "counting-process (start, stop] times (Surv(start, stop, event))",
                   left = "left-censored times", interval = , interval2 = "interval-censored times",
                   mright = , mcounting = "multi-state events", "this kind of Surv object")
    fail("%s holds %s; the \"cox\" family takes right-censored times only, Surv(time, event).", where, what)
  }
  if (anyNA(y)) fail("%s must not contain NA.", where)
  if (any(!is.finite(y[, 1L]))) fail("%s must have finite times.", where)
  if (!all(y[, 2L] %in% c(0, 1))) fail("%s must have events 0 (censored) or 1.", where)
  y
}

# Refuses the survival package's special terms of coxph() formulas, which
# a model frame would otherwise take as predictors: strata(), cluster(),
# tt() and frailty() are not offered.
check_no_survival_terms <- function(formula) {
  if (!inherits(formula, "formula")) return(invisible())
  specials <- c("strata", "cluster", "tt", "frailty")
  # the functions the formula calls (a column may be named like one)
  called <- function(e) if (is.call(e)) c(as.character(e[[1L]]), unlist(lapply(as.list(e)[-1L], called)))
  used <- intersect(specials, called(formula))
  if (length(used) > 0L) {
    fail("`formula` uses %s(): rff_glm() offers no strata, clusters, time-varying terms or frailties; give such a column as an ordinary predictor, or fit the groups apart.",
         used[1L])
  }
}

# The distinct event times of the data's responses, increasing, from one
# read of every chunk (a function source starts again afterwards, as for
# every pass).
cox_event_times <- function(data) {
  reader <- chunk_reader(data$source, if (data$streamed) "x" else "x and y")
  times <- numeric()
  repeat {
    item <- reader()
    if (is.null(item)) break
    where <- if (data$streamed) sprintf("`y` of chunk %d", item$index) else "`y`"
    y <- check_surv(item$chunk$y, where)
    times <- unique(c(times, y[y[, 2L] == 1, 1L]))
  }
  if (length(times) == 0L) fail("`y` has no events (every time is censored): the Cox model has nothing to fit.", class = "data")
  sort(times)
}

# A chunk's Surv response as the core reads it: the event indicators (one
# column) and the rows' time ranks, the number of event `times` at or
# before each row's time.
cox_response <- function(y, n, where, times) {
  if (is.matrix(y) && !inherits(y, "Surv")) y <- y[, 1L]
  y <- check_surv(y, where)
  if (nrow(y) != n) fail("%s must have one entry per row of x (%d), not %d.", where, n, nrow(y))
  list(y = matrix(as.double(y[, 2L])), rank = findInterval(y[, 1L], times),
       response = list(kind = "survival", levels = character()))
}

# One chunk's risk sums (.cpp_cox_risk_pass) at the models and references
# of the path solver's `request`, for `n_times` event times.
cox_risk_work <- function(model, shift, n_times, nfolds, fold_seed, request, n_threads) {
  force(model)
  force(shift)
  force(request)
  function(chunk) {
    input <- core_input(model$map, chunk$x, "left", n_threads)
    core(.cpp_cox_risk_pass(input$map, model$fun, input$x, chunk$y, chunk$w, glm_offset_columns(chunk), chunk$rank,
                            n_times, chunk$first_row, nfolds, fold_seed, shift, request$coefficients, request$fold,
                            request$references, n_threads))
  }
}

# One pass of the path solver for a Cox model, two over the data: the risk
# sums at its request, from which the core gives the partial likelihoods
# and the offsets log Lambda0; then `glm_work(request)`'s Poisson rows at
# those offsets, whose gradient and Hessians are the solver's, with the
# partial likelihoods' deviances in place of the rows'. The `first` pass is
# at b = 0, where the partial likelihood must be finite.
cox_engine_pass <- function(request, run_pass, risk_work, glm_work, ties, model, first) {
  risk <- run_pass(risk_work(request), add_sums, model)
  baseline <- core(.cpp_cox_baseline(risk, c(request$fold, integer(ncol(request$references))), ties))
  if (first && any(!is.finite(baseline$deviance))) {
    fail("The Cox model at b = 0 has no finite partial likelihood with this offset: exp(offset) overflows. The partial likelihood does not change when a constant is subtracted from every row's offset; check that `offset` is on the scale of the linear predictor.",
         class = "data")
  }
  request$log_hazard <- baseline$log_hazard
  sums <- run_pass(glm_work(request), add_glm_sums, model)
  models <- seq_along(request$fold)
  sums$deviance <- baseline$deviance[models]
  sums$exact <- sums$deviance
  sums$heldout <- baseline$heldout[models]
  sums
}

# The fit's baseline: the cumulative hazard Lambda0 at each event time for
# the linear predictors z'b (+ offset), Breslow's or Efron's (as
# survival::survfit() takes it after coxph() with the same ties), and the
# partial likelihood's bound l_sat in the given weights (so that logLik()
# is coxph()'s l), from one more pass of risk sums at the fit's
# coefficients `b` with no intercept. `unit` is the passes' weight unit.
cox_baseline <- function(b, shift, times, ties, risk_work, run_pass, model, unit) {
  request <- list(coefficients = matrix(c(sum(shift * b), b)), fold = 0L, references = matrix(0, length(b) + 1L, 0L))
  risk <- run_pass(risk_work(request), add_sums, model)
  hazard <- core(.cpp_cox_baseline(risk, 0L, ties))$log_hazard[seq_along(times) + 1L, 1L]
  d <- rowSums(risk$event_weight) * unit
  n <- rowSums(risk$event_count)
  tied <- if (ties == "efron") n else pmin(n, 1)
  efron <- vapply(seq_along(d), function(k) if (tied[k] > 1) sum(log1p(-seq_len(tied[k] - 1L) / tied[k])) else 0, 0)
  saturated <- -sum(ifelse(d > 0, d * log(d) + d / pmax(tied, 1) * efron, 0))
  list(hazard = data.frame(time = times, hazard = exp(hazard)), saturated = saturated)
}

# Harrell's concordance of the linear predictors `eta` with the survival
# times `y` (weights `w`): the share of comparable pairs whose earlier
# event has the higher risk, by survival::concordance().
cox_concordance <- function(y, eta, w) {
  require_suggested("survival", "the Cox model's concordance")
  survival::concordance(y ~ eta, weights = w, reverse = TRUE)$concordance[[1L]]
}

# The survival probabilities exp(-Lambda0(t) exp(eta)) of rows with linear
# predictors `eta` at `times` (rows by times), Lambda0 the fit's baseline
# step function (0 before its first event time).
cox_survival <- function(fit, eta, times) {
  if (!is.numeric(times) || is.object(times) || length(times) < 1L || anyNA(times) || any(!is.finite(times))) {
    fail("`times` must be one or more finite times at which to give the survival probabilities.")
  }
  risk <- exp(eta)
  if (any(is.infinite(risk))) {
    fail("The predicted risks overflow (linear predictors up to %s); the fit's `coefficients` are too large for these data.",
         format(max(eta, na.rm = TRUE), digits = 3))
  }
  at <- findInterval(times, fit$baseline$time)
  hazard <- c(0, fit$baseline$hazard)[at + 1L]
  out <- exp(-outer(risk, hazard))
  dimnames(out) <- list(names(eta), paste0("t=", format(times)))
  out
}

# A fit's baseline, checked: increasing finite times and a nondecreasing
# nonnegative cumulative hazard at each.
validate_cox_baseline <- function(baseline, where) {
  if (!is.data.frame(baseline) || !identical(names(baseline), c("time", "hazard")) || nrow(baseline) < 1L ||
      !is.double(baseline$time) || any(!is.finite(baseline$time)) || is.unsorted(baseline$time, strictly = TRUE) ||
      !is.double(baseline$hazard) || any(!is.finite(baseline$hazard)) || any(baseline$hazard < 0) ||
      is.unsorted(baseline$hazard)) {
    fail("`%s` must be a data frame of increasing event `time`s and the nondecreasing cumulative `hazard` at each, as rff_glm() makes.",
         where)
  }
}

# Whether a fit of rff_glm() is a Cox model's.
is_cox_fit <- function(fit) model_family_traits(fit$family)$response == "survival"

# A fit's Cox fields, checked: a Cox model's `ties`, its zero `intercept`,
# its `baseline` and its `concordance` (NULL for streamed data) or, for the
# other families, none of them.
validate_cox_fit <- function(fit, traits, arg) {
  if (traits$response != "survival") {
    given <- intersect(c("ties", "baseline", "concordance"), names(fit))
    if (length(given) > 0L) fail("`%s` must be NULL: it belongs to Cox fits.", field(arg, given[1L]))
    return(invisible())
  }
  if (!is.character(fit$ties) || length(fit$ties) != 1L || !fit$ties %in% cox_ties) {
    fail("`%s` must be one of %s.", field(arg, "ties"), paste0('"', cox_ties, '"', collapse = ", "))
  }
  if (!identical(unname(fit$intercept), 0)) fail("`%s` must be 0: a Cox model has no intercept.", field(arg, "intercept"))
  validate_cox_baseline(fit$baseline, field(arg, "baseline"))
  c_index <- fit$concordance
  if (!is.null(c_index) && (!is_single_number(c_index) || !(c_index >= 0 && c_index <= 1))) {
    fail("`%s` must be NULL or a number between 0 and 1.", field(arg, "concordance"))
  }
}
