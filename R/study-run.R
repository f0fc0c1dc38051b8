# approximation_study(): the papers' convergence experiments as one call.
# Trials are the units of parallel work (R/model-chunks.R); each draws its maps
# from seeds fixed by the study's seed and the trial's index, so the study
# is the same under every future plan.

#' Convergence study of kernel approximations
#'
#' For every number of features, method and trial, draws a map, forms the
#' approximate Gram matrix \eqn{\hat K} of `x` against `y`, and measures it
#' against the exact \eqn{K}: the relative Frobenius error \eqn{\|K - \hat
#' K\|_F / \|K\|_F}, the relative spectral error \eqn{\|K - \hat K\|_2 /
#' \|K\|_2} and the largest absolute error. Across trials it also measures
#' each pair's bias and variance, and reports beside the variance its closed
#' form where one exists (see "Theory" below).
#'
#' **Methods.** `methods` is a character vector or a named list. A string
#' names a frequency source of [rff_map()] (`"iid"`, `"orthogonal"`,
#' `"structured"`, `"qmc"`), or `"rpf"` (random periodic features, a square
#' wave against a cosine), `"nystrom"` (uniform landmarks), or, for
#' dot-product kernels, `"maclaurin"` or `"tensor_sketch"`
#' ([maclaurin_map()], [tensor_sketch_map()]). A list element
#' is a list of arguments with a `type`: `"rff"` (the default) takes
#' `method`, `allocation` and the kernel's settings, such as `decomposition
#' = "phase"`, as [rff_map()] does; `"rpf"` takes `method`, `left` and
#' `right` as [rpf_map()] and [rpf_kernel_matrix()] do; `"nystrom"` takes
#' `landmarks` (`"uniform"` or `"kmeans++"`, drawn from the rows of `x`),
#' `rank` and `tolerance` as [nystrom_map()] does; `"custom"` takes `draw`,
#' a `function(n_features, seed)` that returns a map (for instance one with
#' masses from [estimate_total_masses()], or a map of a method of your own),
#' and optionally `gram`, a `function(map, x, y)` that returns its
#' approximate Gram matrix (by default [rff_kernel_matrix()], or
#' [rpf_kernel_matrix()] for a map of [rpf_map()]). The list's names label the
#' methods. For a map of [rff_map()] `n_features` counts frequencies (two
#' feature columns each for trigonometric features); for [rpf_map()] it
#' counts frequencies (one column each); for Nyström it counts landmarks;
#' for Random Maclaurin and Tensor Sketch, columns; a custom method reads it
#' as it likes. The
#' column `n_columns` gives the feature columns of each side, for comparing
#' at equal storage.
#'
#' **Seeds and parallel trials.** The maps of trial \eqn{t} are drawn from
#' seeds derived from `seed` and \eqn{t} alone, so the study is identical
#' whether trials run here or on the workers of a [future::plan()] (when the
#' future package is installed and the plan is not sequential, trials run
#' as futures, at most as many at a time as there are workers). Progress is
#' reported through progressr, a step per trial. `seconds` is the elapsed
#' time of drawing the map and forming \eqn{\hat K}, not of the metrics.
#'
#' **Theory.** For a map of \eqn{n} frequencies whose parts \eqn{p} (sign
#' and factor \eqn{c_p}, mass \eqn{m_p}, share \eqn{s_p}) each sample a
#' symmetric law with no phase, the estimator of one entry is \eqn{\hat
#' K(\delta) = \sum_p (n s_p)^{-1} \sum_{f \in p} c_p m_p \cos(w_f'\delta)}
#' with \eqn{N_p} frequencies in part \eqn{p}. With \eqn{\kappa_p(\delta) =
#' E_p \cos(w'\delta)}, \eqn{T_p = c_p m_p \kappa_p} and
#' \eqn{\cos^2 a = (1 + \cos 2a)/2}, one draw of part \eqn{p} has variance
#' \eqn{V_p(\delta) = c_p^2 m_p^2 (1 + \kappa_p(2\delta))/2 - T_p(\delta)^2},
#' so that for i.i.d. frequencies
#' \deqn{\mathrm{Var}\,\hat K(\delta) = \sum_p \frac{V_p(\delta)}{n s_p} +
#' \mathrm{Var}\Big(\sum_p \frac{N_p T_p(\delta)}{n s_p}\Big),}
#' the second term being the variance of the counts: zero for `allocation =
#' "equal"`, and for `"mass"` (systematic sampling with one uniform offset
#' \eqn{u}, \eqn{N_p} a step function of \eqn{u}) an exact integral over
#' \eqn{u}. For a positive definite kernel (one part, \eqn{m = k(0)}) this is
#' \eqn{(k(0)^2 + k(0) k(2\delta) - 2k(\delta)^2) / (2n)}; for a signed
#' measure `k1 - k2` split per term, \eqn{\kappa_p} is term \eqn{p}'s kernel
#' over its value at 0. A complex measure adds right phases \eqn{\theta_p}
#' (\eqn{\pi/2} for the imaginary parts): one draw is \eqn{c_p m_p
#' \cos(w'\delta - \theta_p)}, with second moment \eqn{c_p^2 m_p^2 (1 +
#' E_p\cos(2w'\delta - 2\theta_p))/2}. For the Shift-, Sinh- and
#' Cosh-Gaussian every part is \eqn{A\,\mu_g(w)\,h(a'w)} with \eqn{h} one
#' of \eqn{1}, \eqn{\max(\pm\cos, 0)}, \eqn{\max(\sin, 0)} (see
#' [spectral_measure()]); under \eqn{\mu_g = N(0, \sigma^{-2} I)},
#' \eqn{w'\delta = \beta T + G} with \eqn{T = a'w \sim N(0, s^2)}, \eqn{s =
#' \|a\|/\sigma}, \eqn{\beta = a'\delta/\|a\|^2}, and \eqn{G \sim N(0,
#' \|\delta_\perp\|^2/\sigma^2)} independent of \eqn{T}, so
#' \deqn{m_p E_p \cos(j w'\delta - \vartheta) = A\, e^{-j^2
#' \|\delta_\perp\|^2 / (2\sigma^2)}\, E[h(T) \cos(j\beta T - \vartheta)],}
#' and the last expectation is a closed-form series from the Fourier series
#' of \eqn{h}, each term a Gaussian characteristic function
#' (\eqn{E\cos(uT - \vartheta) = \cos\vartheta\, e^{-u^2 s^2/2}}). With
#' `decomposition = "phase"`, the Shift- and Cosh-Gaussian sample \eqn{A
#' \mu_g} with left phase \eqn{a'w}, so a draw is \eqn{A \cos(w'(\delta +
#' a))} with second moment \eqn{A^2 (1 + e^{-2\|\delta + a\|^2/\sigma^2})/2}.
#' The Sinh-Gaussian's \eqn{|\mu| = \mu_g \sqrt{1 + A^2\sin^2(a'w)}} has
#' left phase \eqn{\phi = \arctan(A \sin a'w)}, so the second moment's
#' \eqn{|\mu| e^{2i\phi} = \mu_g\, g(a'w)} with \eqn{g(t) = (1 + iA\sin
#' t)^2/\sqrt{1 + A^2\sin^2 t}}, analytic and periodic: its Fourier
#' coefficients (by the FFT, to rounding) give the series as above.
#' In general one draw's moments follow from the characteristic function
#' of the part's law, \eqn{\Phi_p(\delta) = E_p e^{i w'\delta}} (with the
#' left phase, \eqn{E_p e^{i j (w'\delta + \phi(w))}} at \eqn{j = 1, 2}):
#' \eqn{T_p = c_p m_p \mathrm{Re}(e^{-i\theta_p}\Phi_p(\delta))} and second
#' moment \eqn{c_p^2 m_p^2 (1 + \mathrm{Re}(e^{-2i\theta_p}\Phi_p(2\delta)))/2}.
#' Every law a part samples gives its own: in closed form for the Gaussian,
#' Cauchy, scale-mixture (Matérn, rational quadratic, generalized Gaussian)
#' and per-coordinate scaled laws (the kernel itself) and for the
#' per-component split of a Gaussian mixture; as above for the lifted laws
#' of the asymmetric kernels; as the product of its factors' for a product's
#' part, which samples \eqn{w_1 \pm w_2 \pm \dots} from one part of each
#' factor (conjugated for a difference frequency); and by quadrature for a
#' rotation-invariant law known only by its radial density (the
#' Delta-Gaussian's minimal Jordan parts, the tabulated parts of
#' [radial_kernel()] and of `split = "jordan"`): \eqn{\Phi_p(\delta) =
#' E\,\Omega_d(R\|\delta\|)} over its radius \eqn{R}, with
#' \eqn{\Omega_d(t) = \Gamma(d/2)(2/t)^{d/2-1}J_{d/2-1}(t)}: Gauss-Legendre
#' panels over the density, split where a Jordan part starts or stops, then
#' a Chebyshev interpolant in \eqn{\|\delta\|}. So sums and products of
#' every such kernel are covered. The parts' \eqn{T_p} must add up to the
#' kernel (within the bias bound of a tabulated or LP measure, or of the
#' terms of an expression holding one), or the study reports `NA` rather
#' than a number from moments gone wrong.
#' The study reports `NA` where a shift or skew is so small against
#' \eqn{\sigma} that a kinked profile's series needs over 5000 terms per
#' pair (or \eqn{g}'s over \eqn{2^{16}} points), for radial laws with tails
#' too heavy for the quadrature or scales outside \eqn{[2^{-12}, 2^{24}]},
#' and for data so wide against such a law that its interpolant would need
#' a degree above 1000, for the LP measures' parts (their frequencies are
#' allocated to the atoms systematically, not drawn independently) and the
#' sphere kernels' projection features, as for orthogonal,
#' structured and quasi-Monte Carlo frequencies,
#' whose draws are dependent, and for Nyström, Tensor Sketch and custom maps. Random
#' Maclaurin's closed form is on [maclaurin_map()]'s page. For random periodic features with
#' periodic maps \eqn{f, g} and scale \eqn{s = k(0)/\langle f, g\rangle}, one
#' frequency's product has second moment \eqn{s^2 \sum_j (f^2)_j (g^2)_j
#' \kappa(j\delta)} over the Fourier coefficients of \eqn{f^2} and \eqn{g^2}
#' (\eqn{\kappa = k / k(0)}):
#' \eqn{s^2/4 \cdot (1 + \kappa(2\delta)/2)} for two cosines, \eqn{s^2/2}
#' for a binary map against a cosine (the \eqn{\pi^2/8 - \kappa^2} of
#' Schellekens and Jacques (2020) for the square wave), \eqn{s^2} for two binary maps; the variance subtracts the
#' square of the expected kernel ([rpf_expected_kernel()]) and divides by
#' \eqn{n}. The maps change sign over half a period, so \eqn{f^2} has period
#' \eqn{\pi} and only even \eqn{j} enter. For the \eqn{b}-bit quantizers
#' ([rpf_quantizer()]) \eqn{f^2} is a step function with coefficients in
#' closed form from its jumps and levels; against a cosine the sum ends at
#' \eqn{j = 2}, and between two quantizers it runs until its tail, at most
#' \eqn{\sum_{j > J} |(f^2)_j (g^2)_j|\, \kappa(J\delta)} because
#' \eqn{\kappa} does not increase along rays, is below \eqn{10^{-6}} of its
#' leading term for every pair at a positive distance; pairs at distance 0
#' take the exact sum \eqn{\langle f^2, g^2\rangle}. (`NA` if that needs
#' over 2000 terms, for points almost but not exactly equal.)
#'
#' @param kernel A kernel object.
#' @param x Numeric matrix or data frame of points, one per row.
#' @param y Second set of points; defaults to `x`.
#' @param n_features Numbers of features to study (see "Methods").
#' @param methods The approximations to compare (see "Methods").
#' @param trials Number of independent trials per method and size; at least
#'   2 for the bias and variance.
#' @param metrics Which of `"frobenius"`, `"spectral"` and `"max_abs"` to
#'   compute; the spectral error costs an eigendecomposition, eigenvalues
#'   only, of an `nrow(x)` by `nrow(y)` matrix (when symmetric) or of the
#'   smaller of its two Gram matrices, per method, size and trial: about 1 s
#'   and 3 s at 2,000 points on one core; it stops on a user interrupt.
#' @param seed `NULL` (drawn from R's random number generator, so
#'   [set.seed()] makes the study reproducible) or a whole number.
#' @param per_pair `TRUE` to keep each pair's mean and variance across
#'   trials (attributes `"pair_mean"` and `"pair_variance"`), for
#'   bias and variance as functions of the pair, such as of the distance.
#' @inheritParams kernel_matrix
#' @return An object of class `"askrff_study"`: a data frame with one row
#'   per method, number of features and trial, and the columns `method`,
#'   `n_features`, `trial`, `n_columns`, the chosen metrics, `seconds` and
#'   `error`. A method that fails at some size (a Nyström map asked for more
#'   landmarks than `x` has distinct rows) leaves `NA` in that row's numbers
#'   and the reason in its `error` (otherwise `NA`), with a warning, and the
#'   study goes on; a method that fails at the smallest size is an error.
#'   Its attribute `"pairs"` holds, per method and number of features, the
#'   per-pair summaries across trials: `mean_error` (the mean over all pairs
#'   of \eqn{\bar K - K}, a scalar bias), `rms_bias`, `variance` (the mean
#'   over pairs of each pair's variance across trials) and `theory_variance`
#'   (its closed form, or `NA`). With `per_pair = TRUE`, the attributes
#'   `"pair_mean"` and `"pair_variance"` are arrays indexed by the row of
#'   `x`, the row of `y`, the number of features and the method, holding
#'   each pair's mean of \eqn{\hat K} and its variance across trials.
#'   Methods: `print`, `summary` (means and spreads by method and size,
#'   with the pairs' summaries), and `plot`
#'   (log-log error against the number of features, with fitted slopes, or
#'   the variance beside its closed form).
#' @template ref-rahimi2007
#' @template ref-schellekens2020
#' @family experiments
#' @examples
#' x <- matrix(runif(100 * 3), 100)
#' study <- approximation_study(gaussian_kernel(1), x, n_features = c(16, 64),
#'                              methods = c("iid", "orthogonal", "nystrom"),
#'                              trials = 3, seed = 1)
#' summary(study)
#' plot(study)
#' @export
approximation_study <- function(kernel, x, y = x, n_features, methods = "iid", trials = 10,
                                metrics = c("frobenius", "spectral", "max_abs"), seed = NULL, per_pair = FALSE,
                                n_threads = NULL) {
  kernel <- validate_kernel(kernel)
  x <- check_data(x, "x")
  y <- check_data(y, "y", ncol(x))
  n_features <- check_feature_counts(n_features)
  trials <- check_count(trials, "trials", max = 1e6)
  metrics <- check_metrics(metrics)
  per_pair <- check_flag(per_pair, "per_pair")
  n_threads <- resolve_threads(n_threads)
  methods <- study_methods(methods)
  n_configs <- length(methods) * length(n_features)
  check_output_size(nrow(x), nrow(y), "the study's Gram matrices",
                    extra = 8 * as.double(nrow(x)) * nrow(y) * (2 * n_configs + 4))
  K <- kernel_matrix(kernel, x, y, n_threads)
  reference <- study_reference(K, metrics)
  seeds <- study_seeds(resolve_seed(seed), trials, n_configs)
  # a map of rff_map() is designed once per method; each method is tried
  # once, at the smallest size, so a bad setting fails here with the
  # method's name rather than in a worker. A method that fails only at
  # some sizes (more landmarks than distinct points) leaves NA rows there.
  methods <- lapply(methods, study_design, kernel = kernel, d = ncol(x))
  for (method in methods) study_draw(method, kernel, x, y, n_features[1L], seeds[1L], n_threads)
  work <- study_trial_work(kernel, x, y, K, reference, n_features, methods, metrics, seeds, n_threads)
  trial <- 0L
  reader <- function() if (trial >= trials) NULL else list(index = trial <<- trial + 1L, chunk = trial)
  prepare <- function(chunk, index) list(trial = index, where = sprintf("trial %d", index))
  totals <- map_reduce_chunks(reader, prepare, work, add_trial, steps = trials, unit = "trial")
  rows <- study_rows(totals$rows, totals$errors, methods, n_features, metrics)
  warn_failures(rows)
  configs <- expand.grid(n_features = n_features, method = names(methods), stringsAsFactors = FALSE)
  moments <- pair_moments(totals$sums, totals$squares, trials)
  pairs <- pair_summaries(configs, moments, K, trials)
  # configs run through the sizes within each method
  # the closed form is a companion to the measurement: where it cannot be
  # formed (numbers beyond what its quadrature or series handle), NA
  pairs$theory_variance <- unlist(lapply(seq_along(methods), function(m) {
    tryCatch(theory_variance(methods[[m]], kernel, x, y, K, n_features, n_threads),
             error = function(e) rep(NA_real_, length(n_features)))
  }))
  pairs$method <- factor(pairs$method, levels = names(methods))
  study <- structure(rows, class = c("askrff_study", "data.frame"), pairs = pairs, kernel = kernel_label(kernel),
                     points = c(nrow(x), nrow(y)))
  if (per_pair) {
    arrays <- pair_arrays(moments, x, y, n_features, methods)
    attr(study, "pair_mean") <- arrays$mean
    attr(study, "pair_variance") <- arrays$variance
  }
  study
}
