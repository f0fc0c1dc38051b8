#' @section Support vector regression:
#' `"epsilon_insensitive"` is the L1-loss support vector regression of
#' kernlab's `"eps-svr"` (LIBLINEAR's type 13), the loss \eqn{\max(0, |r| -
#' \epsilon)} of the residual \eqn{r = y - \eta}, which ignores residuals
#' within the tube \eqn{|r| \le \epsilon}; `"squared_epsilon_insensitive"`
#' the L2-loss one (LIBLINEAR's types 11 and 12), \eqn{\max(0, |r| -
#' \epsilon)^2}. Each fit minimises the sum of the weighted losses plus
#' \eqn{\lambda \|b\|^2}, as for the hinge losses: the minimiser of
#' kernlab's and LIBLINEAR's \eqn{\|w\|^2 / 2 + C \sum_i \ell_i} at
#' \eqn{\lambda = 1 / (2C)} (see [rff_svm_train()]). With \eqn{\epsilon = 0} the L1 loss is the
#' absolute error, twice the check loss of the median: the fit equals
#' `"quantile"`'s at \eqn{\tau = 1/2} and half the penalty. `epsilon` is in
#' the units of `y`; predictions (`type = "response"` or `"link"`) are the
#' fitted values \eqn{\eta}. The L1 loss has two kinks, at \eqn{r = \pm
#' \epsilon}, each smoothed as the hinge's (see "Kinks") at the quantiles'
#' width, a quarter of the responses' standard deviation; where
#' \eqn{\epsilon} is below it the two bands overlap and a row's loss may
#' rise by up to \eqn{(h^2 + \max(0, h - 2\epsilon)^2) / (4h)}, at most
#' \eqn{h / 2} (the hinge's \eqn{h / 4} once \eqn{\epsilon \ge h / 2}),
#' which the shrinking widths remove as for the other kinked losses. The squared loss is once
#' differentiable and needs no smoothing. The deviance is the sum of the
#' losses, no likelihood.
