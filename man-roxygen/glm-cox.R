#' @section Cox proportional hazards:
#' `family = "cox"` fits the Cox model (Cox 1972) to right-censored
#' survival times, a [survival::Surv()]`(time, event)` response (in a
#' formula, `Surv(time, event) ~ .`; a `Surv` response makes the family
#' `"cox"` when `family` is not given). The criterion is the deviance
#' \eqn{2(\ell_{sat} - \ell(b))} plus \eqn{\lambda \|b\|^2}, with
#' \eqn{\ell} the weighted partial log-likelihood, Efron's for tied event
#' times (`ties = "efron"`, the default, as [survival::coxph()]'s) or
#' Breslow's (`ties = "breslow"`, glmnet's), and \eqn{\ell_{sat}} the bound
#' of \eqn{\ell} that makes the deviance nonnegative (glmnet's: minus the
#' sum over event times of \eqn{d \log d} for the events' weight \eqn{d};
#' for Efron's ties less their shares' \eqn{\log(1 - j/n)}). There is no
#' intercept: the partial likelihood does not change with one, and the
#' baseline hazard holds it; `coef()` has the feature coefficients only.
#' So `rff_glm(x, y, family = "cox", ties = "breslow", lambda = N * s)`
#' equals `glmnet(rff_features(map, x), y, family = "cox", alpha = 0, lambda
#' = s, standardize = FALSE)` (the tests check it to 1e-6).
#'
#' **Passes.** No row's loss is its own: each row's risk set holds every
#' row of a later or equal time. The event times are read from every chunk
#' once before the fit, and each row is ranked among them, so the passes
#' need no sorting and chunks cut anywhere give the same fit. Each step of
#' the solver takes two passes over the data: the first sums, per model
#' and time rank, the weights times \eqn{e^\eta} (of the events and of the
#' other rows, on each model's training and held-out rows), from which the
#' partial likelihoods and the Breslow (or Efron) cumulative baseline
#' hazard \eqn{\Lambda_0} follow; the second sums the gradient
#' \eqn{Z'W(\delta - e^\eta \Lambda_0(t))} (the martingale residuals) and,
#' at the references, the Hessian bound \eqn{Z'W e^\eta \Lambda_0(t) Z},
#' from which the steps are taken. The memory of the first pass's sums is
#' about four doubles per distinct event time and model (each
#' \eqn{\lambda} and fold), which for hundreds of thousands of distinct
#' event times and a cross-validated path reaches gigabytes.
#'
#' **Choosing \eqn{\lambda}.** By cross-validated partial likelihood
#' (Verweij and van Houwelingen 1993, as glmnet's `cv.glmnet()` does): fold
#' \eqn{f}'s held-out deviance is that of the fit without it on all rows
#' less that on its training rows, \eqn{-2(\ell(b_{-f}) -
#' \ell_{-f}(b_{-f}))}; the path's `cv` is their sum per unit weight of
#' all rows (it may be negative). A scale search compares this criterion
#' (`scale_by = "cv"`): ridge regression's evidence has no survival times
#' to take.
#'
#' **What the fit has.** Its `baseline` (the cumulative hazard at each
#' event time for the linear predictors \eqn{z'b} plus offset, as
#' [survival::survfit()] gives it after [survival::coxph()] with the same
#' ties), its `ties`, and for data in memory its `concordance`, Harrell's
#' C of the rows fitted ([survival::concordance()]). [predict()] gives the
#' linear predictor, the relative risk and the survival curves
#' ([predict.askrff_glm()]); [logLik()] gives \eqn{\ell(b)} as
#' [survival::coxph()] does. The solver's steps take a bound of the partial
#' likelihood's Hessian; the Hessian itself is taken once after the fit,
#' for data in memory, by one more pass over the rows ordered by time (its
#' part from the risk sets' means is a sum over event times of rank-one
#' terms, for Efron's ties rank two, of sums the pass gives per time rank):
#' [vcov()] is the Laplace covariance \eqn{(H + \lambda I)^{-1}} and
#' `logLik()`'s `df` the effective degrees of freedom \eqn{tr(H (H +
#' \lambda I)^{-1})}, which [survival::coxph()] reports for its `ridge()`
#' term, so `AIC()` and `BIC()` apply. It costs about \eqn{n D^2 + T D^2}
#' multiply-adds for \eqn{T} distinct event times, and a Cholesky
#' factorization (1.4 s of a 3.8 s fit of 3,000 rows and 1,024 columns, 5 s of
#' 12 s at 100,000 rows, 63,000 event times and 256 columns, one thread).
#' A fit from chunks keeps neither
#' (`vcov()` refuses it and `df` is NA), nor does a fit whose
#' \eqn{D \times D} matrices and \eqn{D} sums per distinct event time do not fit in the
#' memory available. Counting-process (start, stop], left- and
#' interval-censored times are refused, and so are a formula's
#' `strata()`, `cluster()`, `tt()` and `frailty()` terms (which a model
#' frame would otherwise take as predictors).
