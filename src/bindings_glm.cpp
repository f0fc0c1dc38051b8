// Penalized generalized linear models on features that are never stored:
// one pass over a block of rows for many models at once, and the path
// solver (glm_path.h) that R feeds with the passes' sums.
#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "adapters.h"
#include "core/models/cv_folds.h"
#include "core/models/glm_null.h"
#include "core/models/glm_path.h"
#include "core/models/glm_path_hessian.h"
#include "core/models/model_passes.h"
#include "guards.h"
#include "model_glue.h"
#include "parallel.h"
#include "progress.h"

// The sums of glm_pass.h (model_passes.h) over the rows of x (whose first row is row
// `first_row` of the data, counted from 0, which fixes its fold), with
// responses y (one column per class), weights w, offsets (as y, or no
// columns for none) and the models' coefficients (one column per model and
// class) and model_fold, and the
// Hessians at the columns of `references`. Folds need n_folds >= 2 (0: no
// folds, every model_fold 0). A pass of no models for several classes is the
// whole Hessian's (glm_path_hessian.h): its Hessians are the blocks of the
// softmax's. The family's rows take its levels tau (a family of values),
// its tube's epsilon (of real numbers) and the pass's smoothing width. With `directions` (else no columns), the
// pass also sums each model's line search (glm_pass.h: its coefficients
// are its last point plus `steps` times its direction) at the `probes`.
// The Hessians sum one row in every `hessian_every` (GlmModels), drawn
// under the fold seed. Every pass also sums, as `saturated`, w
// times each row's log-likelihood under the saturated model (NA for a
// family without a likelihood). A Cox model's pass takes the rows' time
// ranks `rank` and per model and reference the offsets log Lambda0 of the
// risk sums' pass (cox_risk.h: `log_hazard`, 2 (T + 1) rows); the other
// families take none (an empty `rank`, no columns).
// [[Rcpp::export(.cpp_glm_pass)]]
Rcpp::List cpp_glm_pass(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x, Rcpp::NumericMatrix y,
                        Rcpp::NumericVector w, Rcpp::NumericMatrix offset, double first_row, int n_folds,
                        Rcpp::NumericVector fold_seed,
                        Rcpp::NumericVector z_shift, std::string family, Rcpp::NumericVector tau, double epsilon, double width,
                        Rcpp::NumericMatrix coefficients, Rcpp::IntegerVector model_fold,
                        Rcpp::NumericMatrix references, Rcpp::NumericMatrix directions, Rcpp::NumericVector steps,
                        Rcpp::NumericVector probes, int hessian_every, Rcpp::IntegerVector rank,
                        Rcpp::NumericMatrix log_hazard, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> left = askrff::feature_map(map, askrff::Side::left, fun);
  askrff::require_data(x, left->dimension(), "x");
  askrff::require_whole(y, "y");
  askrff::require_whole(offset, "the offsets");
  askrff::require_whole(coefficients, "the coefficients");
  askrff::require_whole(references, "the references");
  askrff::require_whole(directions, "the directions");
  const int columns = left->n_columns(), classes = y.ncol();
  askrff::GlmModels models;
  const askrff::ModelFamily& model_family = askrff::model_family(family);
  const bool whole_hessian = coefficients.ncol() == 0 && classes > 1;
  models.family = whole_hessian ? &askrff::class_hessian_rows() : &model_family;
  models.classes = classes;
  askrff::require(askrff::takes_predictors(model_family, classes),
                  "y must have one column, or one per class or level for a family of several predictors");
  models.parameters = askrff::family_parameters(model_family, tau, epsilon, width, classes);
  askrff::require(!whole_hessian || std::string(model_family.mean_name) == "probability",
                  "the whole Hessian of a family of classes is the softmax's");
  askrff::require(y.nrow() == x.nrow() && askrff::all_finite(y), "y must be finite, one row per row of x");
  askrff::require_pass_input(x, w, offset, classes, first_row, n_folds, z_shift, columns, coefficients, model_fold,
                             references);
  askrff::require(directions.ncol() == 0 || (directions.nrow() == coefficients.nrow() &&
                                             directions.ncol() == coefficients.ncol() && askrff::all_finite(directions) &&
                                             steps.size() == model_fold.size() && askrff::all_finite(steps) && askrff::all_finite(probes)),
                  "the directions must be finite, one per model and class, with a finite step per model and finite probes");
  askrff::require(hessian_every >= 1, "hessian_every must be at least 1");

  models.coefficients = Eigen::Map<const Eigen::MatrixXd>(coefficients.begin(), 1 + columns, coefficients.ncol());
  models.references = Eigen::Map<const Eigen::MatrixXd>(references.begin(), 1 + columns, references.ncol());
  models.fold.assign(model_fold.begin(), model_fold.end());
  models.rotated_references = whole_hessian;
  models.hessian_every = hessian_every;
  if (directions.ncol() > 0) {
    models.directions = Eigen::Map<const Eigen::MatrixXd>(directions.begin(), 1 + columns, directions.ncol());
    models.steps.assign(steps.begin(), steps.end());
    models.probes.assign(probes.begin(), probes.end());
  }
  std::vector<int> ranks;
  const bool survival = model_family.response == askrff::ResponseKind::survival;
  askrff::require(survival == (log_hazard.ncol() > 0), "a Cox model's pass needs its baseline hazards, the others none");
  if (survival) {
    askrff::require(log_hazard.nrow() >= 2 && log_hazard.nrow() % 2 == 0 &&
                        log_hazard.ncol() == coefficients.ncol() + references.ncol() && directions.ncol() == 0,
                    "the baseline hazards must have 2 (T + 1) rows and a column per model and reference");
    askrff::require(std::none_of(log_hazard.begin(), log_hazard.end(), [](double v) { return std::isnan(v) || v == R_PosInf; }),
                    "the baseline hazards' logarithms must be below Inf");
    ranks = askrff::survival_ranks(y, rank, log_hazard.nrow() / 2 - 1);
    models.log_hazard = Eigen::Map<const Eigen::MatrixXd>(log_hazard.begin(), log_hazard.nrow(), log_hazard.ncol());
  }
  const askrff::RowFolds folds{static_cast<std::uint64_t>(first_row), n_folds, askrff::seed_from_words(fold_seed)};
  const askrff::GlmSums sums = askrff::glm_pass(*left, x.begin(), x.nrow(), models, askrff::as_matrix(y),
                                                askrff::as_vector(w), askrff::as_matrix(offset), ranks, folds,
                                                askrff::as_vector(z_shift),
                                                askrff::thread_runner(n_threads));
  Rcpp::List hessians(sums.hessians.size());
  for (std::size_t i = 0; i < sums.hessians.size(); ++i) hessians[i] = askrff::to_r(sums.hessians[i]);
  double saturated = 0.0;
  for (int i = 0; i < x.nrow(); ++i) {
    if (w[i] == 0.0) continue;
    const double y_row = y(i, 0);  // classes' saturated rows do not read y
    saturated += w[i] * askrff::saturated_log_likelihood(model_family, &y_row);
  }
  return Rcpp::List::create(Rcpp::Named("gradient") = askrff::to_r(sums.gradient),
                            Rcpp::Named("deviance") = askrff::to_r(sums.deviance),
                            Rcpp::Named("exact") = askrff::to_r(sums.exact),
                            Rcpp::Named("heldout") = askrff::to_r(sums.heldout),
                            Rcpp::Named("heldout_weight") = askrff::to_r(sums.heldout_weight),
                            Rcpp::Named("hessians") = hessians,
                            Rcpp::Named("probe_slope") = askrff::to_r(sums.probe_slope),
                            Rcpp::Named("saturated") = std::isnan(saturated) ? NA_REAL : saturated);
}

// The folds (1..n_folds) of rows first_row, ..., first_row + n - 1 (counted
// from 0) under the seed, as the passes assign them.
// [[Rcpp::export(.cpp_cv_folds)]]
Rcpp::IntegerVector cpp_cv_folds(double first_row, int n, int n_folds, Rcpp::NumericVector fold_seed) {
  askrff::require(std::isfinite(first_row) && first_row >= 0.0 && first_row == std::floor(first_row) && first_row < 9e15,
                  "first_row must be a whole number");
  askrff::require(n >= 0 && n_folds >= 2 && n_folds <= 1000, "n must be nonnegative and n_folds between 2 and 1000");
  const std::uint64_t seed = askrff::seed_from_words(fold_seed);
  Rcpp::IntegerVector out(n);
  for (int i = 0; i < n; ++i) out[i] = askrff::cv_fold(seed, static_cast<std::uint64_t>(first_row) + i, n_folds);
  return out;
}

// Whether each of rows first_row, ..., first_row + n - 1 (counted from 0)
// is in the sample of one row in `every` that the passes' sampled Hessians
// sum under the seed (hessian_row() of cv_folds.h).
// [[Rcpp::export(.cpp_hessian_rows)]]
Rcpp::LogicalVector cpp_hessian_rows(double first_row, int n, int every, Rcpp::NumericVector fold_seed) {
  askrff::require(std::isfinite(first_row) && first_row >= 0.0 && first_row == std::floor(first_row) && first_row < 9e15,
                  "first_row must be a whole number");
  askrff::require(n >= 0 && every >= 1, "n must be nonnegative and every positive");
  const std::uint64_t seed = askrff::seed_from_words(fold_seed);
  Rcpp::LogicalVector out(n);
  for (int i = 0; i < n; ++i) out[i] = askrff::hessian_row(seed, static_cast<std::uint64_t>(first_row) + i, every);
  return out;
}

namespace {

askrff::GlmSums glm_sums_from_r(const Rcpp::List& sums) {
  askrff::GlmSums out;
  const Rcpp::NumericMatrix gradient = sums["gradient"];
  askrff::require_whole(gradient, "the gradient");
  out.gradient = Eigen::Map<const Eigen::MatrixXd>(gradient.begin(), gradient.nrow(), gradient.ncol());
  const Rcpp::NumericVector deviance = sums["deviance"], exact = sums["exact"], heldout = sums["heldout"],
                            heldout_weight = sums["heldout_weight"];
  out.deviance = Eigen::Map<const Eigen::VectorXd>(deviance.begin(), deviance.size());
  out.exact = Eigen::Map<const Eigen::VectorXd>(exact.begin(), exact.size());
  out.heldout = Eigen::Map<const Eigen::VectorXd>(heldout.begin(), heldout.size());
  out.heldout_weight = Eigen::Map<const Eigen::VectorXd>(heldout_weight.begin(), heldout_weight.size());
  const Rcpp::List hessians = sums["hessians"];
  for (R_xlen_t i = 0; i < hessians.size(); ++i) out.hessians.push_back(askrff::cross_products_from_r(hessians[i]));
  const Rcpp::NumericMatrix probe_slope = sums["probe_slope"];
  askrff::require_whole(probe_slope, "the probes' slopes");
  out.probe_slope = Eigen::Map<const Eigen::MatrixXd>(probe_slope.begin(), probe_slope.nrow(), probe_slope.ncol());
  return out;
}

}  // namespace

// A path solver (glm_path.h) for `family` with its levels `tau` (a family of
// values), tube `epsilon` (of real numbers) and smoothing `width` (a loss with kinks), from the first pass's
// sums `gram` (of .cpp_cross_products, weights w), the responses' weighted
// means (one per predictor), with
// an offset the intercept-only fit's `intercept` and `curvature` (NULL
// without; glm_null.h), the lambdas (empty: chosen), the number of folds,
// whether a cross-validated path ends with the chosen lambda's fit
// (GlmPathSetup::fit_chosen), where one lambda's fit starts (NULL: at the
// intercept-only model; GlmPathSetup::start), whether to end with the
// Laplace covariance and degrees of freedom at the fit
// (glm_path_hessian.h), and the sample of rows its preconditioners'
// Hessians take (GlmPathSetup::hessian_every). The eigendecomposition stops on a user
// interrupt and reports its percents to `progress`.
// [[Rcpp::export(.cpp_glm_path)]]
SEXP cpp_glm_path(std::string family, Rcpp::NumericVector tau, double epsilon, double width, Rcpp::List gram, Rcpp::NumericVector mean,
                  SEXP intercept, SEXP curvature, Rcpp::NumericVector lambda, int nfolds, bool fit_chosen,
                  SEXP start, bool hessian, int hessian_every, SEXP progress) {
  const askrff::CrossProducts sums = askrff::cross_products_from_r(gram);
  const askrff::ModelFamily& model_family = askrff::model_family(family);
  askrff::GlmPathSetup setup{model_family, askrff::family_parameters(model_family, tau, epsilon, width, static_cast<int>(mean.size())),
                             sums, Eigen::Map<const Eigen::VectorXd>(mean.begin(), mean.size()),
                             std::vector<double>(lambda.begin(), lambda.end()), nfolds, hessian};
  setup.hessian_every = hessian_every;
  setup.fit_chosen = fit_chosen;
  if (!Rf_isNull(start)) {
    const Rcpp::NumericMatrix b(start);
    askrff::require_whole(b, "the start");
    setup.start = askrff::as_matrix(b);
  }
  askrff::require(Rf_isNull(intercept) == Rf_isNull(curvature), "the intercept-only fit needs its intercepts and curvature");
  if (!Rf_isNull(intercept)) {
    const Rcpp::NumericVector b(intercept);
    const Rcpp::NumericMatrix a(curvature);
    askrff::require_whole(a, "the curvature");
    setup.intercept = askrff::as_vector(b);
    setup.curvature = askrff::as_matrix(a);
  }
  return Rcpp::XPtr<askrff::GlmPath>(new askrff::GlmPath(setup, askrff::InterruptPoll(), askrff::RProgress(progress)),
                                     true);
}

// Hands the solver the sums of the pass it asked for (NULL before the first)
// and returns what the next pass must evaluate: list(coefficients, fold,
// references, width (the smoothing width of its rows), hessian_every (the
// sample of rows its Hessians take), and for a loss with
// kinks the line search's directions, steps and probes), or NULL once the
// path is solved.
// [[Rcpp::export(.cpp_glm_path_next)]]
SEXP cpp_glm_path_next(SEXP solver, SEXP sums, SEXP progress) {
  Rcpp::XPtr<askrff::GlmPath> path(solver);
  askrff::require(path.get() != nullptr, "the path solver is gone (it cannot be saved and reloaded)");
  if (!Rf_isNull(sums)) path->advance(glm_sums_from_r(Rcpp::List(sums)), askrff::InterruptPoll(), askrff::RProgress(progress));
  if (path->done()) return R_NilValue;
  const askrff::GlmPassRequest& request = path->request();
  return Rcpp::List::create(Rcpp::Named("coefficients") = askrff::to_r(request.coefficients),
                            Rcpp::Named("fold") = Rcpp::IntegerVector(request.fold.begin(), request.fold.end()),
                            Rcpp::Named("references") = askrff::to_r(request.references),
                            Rcpp::Named("width") = request.width,
                            Rcpp::Named("hessian_every") = request.hessian_every,
                            Rcpp::Named("directions") = askrff::to_r(request.directions),
                            Rcpp::Named("steps") = Rcpp::NumericVector(request.steps.begin(), request.steps.end()),
                            Rcpp::Named("probes") = Rcpp::NumericVector(request.probes.begin(), request.probes.end()));
}

// The solved path: the chosen fit's coefficients ((1 + D) x K, intercept
// first), its lambda, deviance and the null deviance, the path's rows, how
// many lambdas it had and how many of them did not converge in at most
// max_passes passes; when the solver was asked for it and they are defined,
// the Laplace covariance (H + lambda P)^+ at the fit (K (1 + D) square, on
// the shifted features) and its effective degrees of freedom (NULL and NA
// otherwise); for a loss with kinks the smoothing widths of the final fit
// and the passes each took (NULL for the others).
// [[Rcpp::export(.cpp_glm_path_result)]]
Rcpp::List cpp_glm_path_result(SEXP solver) {
  Rcpp::XPtr<askrff::GlmPath> path(solver);
  askrff::require(path.get() != nullptr, "the path solver is gone (it cannot be saved and reloaded)");
  const askrff::GlmPathResult& r = path->result();
  const std::size_t n = r.path.size();
  Rcpp::NumericVector lambda(n), cv(n), cv_se(n), deviance(n);
  Rcpp::LogicalVector converged(n);
  for (std::size_t i = 0; i < n; ++i) {
    lambda[i] = r.path[i].lambda;
    cv[i] = r.path[i].cv;
    cv_se[i] = r.path[i].cv_se;
    deviance[i] = r.path[i].deviance;
    converged[i] = r.path[i].converged;
  }
  Rcpp::List rows = r.cross_validated
                        ? Rcpp::List::create(Rcpp::Named("lambda") = lambda, Rcpp::Named("cv") = cv,
                                             Rcpp::Named("cv_se") = cv_se, Rcpp::Named("deviance") = deviance,
                                             Rcpp::Named("converged") = converged)
                        : Rcpp::List::create(Rcpp::Named("lambda") = lambda, Rcpp::Named("deviance") = deviance,
                                             Rcpp::Named("converged") = converged);
  const SEXP covariance = r.covariance.size() > 0 ? SEXP(askrff::to_r(r.covariance)) : R_NilValue;
  SEXP smoothing = R_NilValue;
  if (!r.smoothing.empty()) {
    Rcpp::NumericVector width;
    Rcpp::IntegerVector passes;
    for (const askrff::GlmSmoothingStep& step : r.smoothing) {
      width.push_back(step.width);
      passes.push_back(step.passes);
    }
    smoothing = Rcpp::List::create(Rcpp::Named("width") = width, Rcpp::Named("passes") = passes);
  }
  return Rcpp::List::create(Rcpp::Named("coefficients") = askrff::to_r(r.coefficients), Rcpp::Named("lambda") = r.lambda,
                            Rcpp::Named("path") = rows, Rcpp::Named("deviance") = r.deviance,
                            Rcpp::Named("null_deviance") = r.null_deviance, Rcpp::Named("converged") = r.converged,
                            Rcpp::Named("grid_size") = r.grid_size, Rcpp::Named("unconverged") = r.unconverged,
                            Rcpp::Named("max_passes") = askrff::GlmPath::kMaxPasses,
                            Rcpp::Named("covariance") = covariance,
                            Rcpp::Named("df") = std::isnan(r.df) ? NA_REAL : r.df, Rcpp::Named("smoothing") = smoothing);
}

// The sums of glm_null.h at the intercepts b over rows of offsets (one
// column per predictor), encoded responses y and weights w, with the
// family's levels tau, epsilon and smoothing width: list(half, residual, hessian,
// mean, weight).
// [[Rcpp::export(.cpp_glm_null_sums)]]
Rcpp::List cpp_glm_null_sums(std::string family, Rcpp::NumericVector tau, double epsilon, double width, Rcpp::NumericMatrix offset,
                             Rcpp::NumericMatrix y, Rcpp::NumericVector w, Rcpp::NumericVector intercept) {
  askrff::require_whole(offset, "the offsets");
  askrff::require_whole(y, "y");
  askrff::require(askrff::all_finite(offset) && askrff::all_finite(y) && askrff::all_finite(w) && askrff::all_finite(intercept) &&
                      std::all_of(w.begin(), w.end(), [](double v) { return v >= 0.0; }),
                  "the offsets, y, w and the intercepts must be finite and w nonnegative");
  const askrff::ModelFamily& model_family = askrff::model_family(family);
  const int k = static_cast<int>(intercept.size());
  askrff::require(askrff::takes_predictors(model_family, k),
                  "a family of several classes needs an intercept per class, of levels one per level, the others one");
  const askrff::GlmNullSums sums = askrff::glm_null_sums(model_family, askrff::family_parameters(model_family, tau, epsilon, width, k),
                                                         askrff::as_matrix(offset),
                                                         askrff::as_matrix(y), askrff::as_vector(w),
                                                         Eigen::VectorXd(askrff::as_vector(intercept)));
  return Rcpp::List::create(Rcpp::Named("half") = sums.half, Rcpp::Named("residual") = askrff::to_r(sums.residual),
                            Rcpp::Named("hessian") = askrff::to_r(sums.hessian), Rcpp::Named("mean") = askrff::to_r(sums.mean),
                            Rcpp::Named("weight") = sums.weight);
}

// Where the intercept-only fit with an offset starts (glm_null.h), from the
// responses' and the offsets' weighted means, with the family's levels tau,
// epsilon and smoothing width.
// [[Rcpp::export(.cpp_glm_null_start)]]
Rcpp::NumericVector cpp_glm_null_start(std::string family, Rcpp::NumericVector tau, double epsilon, double width,
                                       Rcpp::NumericVector mean, Rcpp::NumericVector offset_mean) {
  askrff::require(askrff::all_finite(mean) && askrff::all_finite(offset_mean), "the means must be finite");
  const askrff::ModelFamily& model_family = askrff::model_family(family);
  return askrff::to_r(askrff::glm_null_start(model_family,
                                             askrff::family_parameters(model_family, tau, epsilon, width, static_cast<int>(mean.size())),
                                             askrff::as_vector(mean), askrff::as_vector(offset_mean)));
}
