// A model family is a loss on the linear predictors, one entry of the table
// in model_families.cpp; that entry is all the engine (glm_pass.h,
// glm_path.h) and R (through .cpp_model_families()) know of it. The engine
// minimises the sum over rows of w times half the loss plus lambda / 2
// ||b||^2 by steps from reference Hessians, so a family gives each row's
// half loss, its gradient in eta and its curvature: the Hessian's diagonal
// for a smooth loss, a generalized Hessian (the second derivative where it
// exists, a one-sided value at the kinks) for a piecewise-quadratic one, as
// the trust-region Newton method of LIBLINEAR takes for the squared hinge
// (Lin, Weng and Keerthi 2008). A loss with kinks in its value (the hinge,
// the check loss of quantiles) is smoothed within a band of half-width h
// around each kink (FamilyParameters::width), exactly as it is outside, and
// the path solver lets h shrink to the exact fit (glm_path.h).
#pragma once
#include <string>
#include <vector>

namespace askrff {

// The responses a family takes, as R encodes them for the core:
// `two_classes` one column, 1 for the second level and 0 for the first;
// `classes` one indicator column per class (K >= 2); `counts` one column of
// nonnegative numbers; `one_vs_rest` classes whose losses are separate
// binary problems, one per class: one 0/1 column (one predictor) for two
// classes, as `two_classes`, and one indicator column per class for more;
// `values` any finite numbers, one response for K >= 1 predictors (one per
// level tau), repeated in a column per predictor; `real` any finite
// numbers, one response and one predictor (no levels); `survival` right-censored
// times, one column of event indicators (1 an event, 0 censored) beside the
// rows' time ranks, which the passes read apart (cox_risk.h): its loss is
// no sum of rows' losses, and its rows are Poisson rows at offsets that a
// pass of risk sums gives (the Cox model's partial likelihood).
enum class ResponseKind { two_classes, classes, counts, one_vs_rest, values, real, survival };

// What a row reads besides eta and y: the levels tau in (0, 1) of a family
// of `values`, one per predictor, increasing (empty for the others), and
// the half-width h >= 0 of the band around a kink within which a loss with
// kinks is smoothed (0: the exact loss, whose residual at a kink is a
// subgradient's and whose curvature there is not asked for), and the
// half-width epsilon >= 0 of the tube of the epsilon-insensitive losses
// (0 for the others, which ignore it).
struct FamilyParameters {
  std::vector<double> tau;
  double width = 0.0;
  double epsilon = 0.0;
};

struct ModelFamily {
  const char* name;
  const char* label;      // what print() calls the model
  ResponseKind response;
  // what predict(type = "response") gives: "probability" (of the second
  // level, or of each class), "mean", "risk" (a Cox model's relative risk
  // exp(eta)), "quantile" or "expectile" (the levels tau's, in increasing
  // order in each row), "value" (the predicted value, eta itself: support
  // vector regression's) or "" (scores and classes only)
  const char* mean_name;
  // whether the deviance is twice a negative log-likelihood (up to a
  // constant), which logLik(), AIC and the Laplace covariance need
  bool likelihood;
  // whether the loss has kinks in its value, smoothed within
  // FamilyParameters::width of each (the path solver then shrinks it)
  bool kinked;
  // One row: half its loss at the linear predictors eta (K of them for
  // `classes`, `values` and one-vs-rest's several, else one) and the
  // encoded response y, +Inf
  // where it overflows; writes the residuals, minus the gradient of the half
  // loss in eta, and when `curvature` is not null the diagonal of its
  // (generalized) Hessian in eta. Computed from eta without rounding a mean
  // first, so a row fitted almost perfectly keeps its loss to full relative
  // precision.
  double (*row)(const double* eta, const double* y, int k, const FamilyParameters& parameters, double* residual,
                double* curvature);
  // The K means from eta (null when mean_name is "").
  void (*mean)(const double* eta, int k, double* mu);
  // The intercept-only fit from the responses' weighted means m (each in
  // (0, 1) for classes, positive for counts): its K intercepts and the K x K
  // matrix A with which its Hessian in (b0, b) is A (x) sum w [1, z][1, z]'.
  // For `values` and `real` the intercept-only fit is no function of the
  // mean (a quantile, an expectile, support vector regression's): this is
  // where R's Newton steps for it start (glm_null.h), from the mean.
  void (*null_model)(const double* m, int k, const FamilyParameters& parameters, double* intercept, double* a);
};

// Throws std::invalid_argument for a name the table lacks.
const ModelFamily& model_family(const std::string& name);
const std::vector<ModelFamily>& model_families();
const char* response_kind_name(ResponseKind kind);
// Whether a family of this kind takes k linear predictors: several only for
// classes (K >= 2), for one-vs-rest when there are three or more, and for
// values one per level (K >= 1); one for real numbers.
bool takes_predictors(const ModelFamily& family, int k);

}  // namespace askrff
