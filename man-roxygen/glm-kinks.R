#' @section Hinge, quantile and expectile losses:
#' `"hinge"` is the L1-loss support vector machine, the loss
#' \eqn{\max(0, 1 - s\eta)} for the class \eqn{s = \pm 1}; `"quantile"`
#' is quantile regression, the check (pinball) loss \eqn{\rho_\tau(r) =
#' r(\tau - 1\{r < 0\})} of the residual \eqn{r = y - \eta}; `"expectile"`
#' is asymmetric least squares (Newey and Powell 1987), the loss
#' \eqn{|\tau - 1\{r < 0\}| r^2}, so that \eqn{\tau = 1/2} is
#' [rff_ridge()] at twice the penalty. The criterion is the sum of the
#' weighted losses plus \eqn{\lambda \|b\|^2}; its "deviance" is that sum,
#' which is no likelihood: print() and summary() call it the loss, and
#' [logLik()], [AIC()] and [vcov()] refuse these fits.
#'
#' **Several levels at once.** `tau` may hold several levels: the fit has
#' a linear predictor per level on the same features, each with its own
#' intercept and coefficients (the criterion is the sum of the levels'),
#' fitted in the same passes over the data and cross-validated together
#' (\eqn{\lambda} by the summed held-out check loss). `coef()` and
#' `predict()` give a column per level, named `"tau=0.1"` and so on, in
#' increasing order of \eqn{\tau}. Levels fitted apart may cross;
#' `predict(type = "response")` sorts each row's predictions so that they
#' do not (see [predict.askrff_glm()]).
#'
#' **Kinks.** The hinge and the check loss have kinks, where the engine's
#' Newton-type steps need a second derivative. Each is smoothed within a
#' band of half-width \eqn{h} around its kink by the parabola that meets
#' its two lines with their slopes, and is exact outside the band: a row's
#' loss rises by \eqn{(h - |r|)^2 / (4h)}, at most \eqn{h / 4}. So the
#' smoothed criterion's minimiser has an exact criterion within \eqn{h/4}
#' times the weight of the rows within \eqn{h} of a kink at the exact
#' minimiser (the interpolated rows) of the exact minimum. The path and its
#' cross-validation run at \eqn{h} a quarter of the residuals' scale (the
#' margin, 1, for the hinge; the responses' standard deviation for
#' quantiles), comparing the exact held-out losses; the chosen
#' \eqn{\lambda}'s fit then continues by Newton's method at shrinking
#' widths (a third of the last, up to a thirtieth once the fit settles),
#' each started from the last two widths' fits extrapolated to it, until
#' the exact criterion changes by less than \eqn{10^{-9}} of itself from
#' one width to the next (its error is then at most half that change). On
#' a few hundred rows the fits agree with a quadratic program of the same
#' objective to about \eqn{10^{-11}}; the continuation takes some 50 to 150
#' passes, each with a Hessian of the rows within the band. The fit keeps
#' the widths and the passes each took (`smoothing`); the deviances it
#' reports are exact. The intercept-only model (the null deviance) is
#' fitted the same way.
#' @references Newey, W. K. and Powell, J. L. (1987). Asymmetric least
#'   squares estimation and testing. *Econometrica*, 55(4), 819-847.
#'
#'   Chernozhukov, V., Fernandez-Val, I. and Galichon, A. (2010). Quantile
#'   and probability curves without crossing. *Econometrica*, 78(3),
#'   1093-1125.
