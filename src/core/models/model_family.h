// A model family is a loss on the linear predictors, one entry of the table
// in model_families.cpp; that entry is all the engine (glm_pass.h,
// glm_path.h) and R (through .cpp_model_families()) know of it. The engine
// minimises the sum over rows of w times half the loss plus lambda / 2
// ||b||^2 by steps from reference Hessians, so a family gives each row's
// half loss, its gradient in eta and its curvature: the Hessian's diagonal
// for a smooth loss, a generalized Hessian (the second derivative where it
// exists, a one-sided value at the kinks) for a piecewise-quadratic one, as
// the trust-region Newton method of LIBLINEAR takes for the squared hinge
// (Lin, Weng and Keerthi 2008). A loss without a second derivative almost
// everywhere (hinge, pinball) needs smoothing first.
#pragma once
#include <string>
#include <vector>

namespace askrff {

// The responses a family takes, as R encodes them for the core:
// `two_classes` one column, 1 for the second level and 0 for the first;
// `classes` one indicator column per class (K >= 2); `counts` one column of
// nonnegative numbers; `one_vs_rest` classes whose losses are separate
// binary problems, one per class: one 0/1 column (one predictor) for two
// classes, as `two_classes`, and one indicator column per class for more.
enum class ResponseKind { two_classes, classes, counts, one_vs_rest };

struct ModelFamily {
  const char* name;
  const char* label;      // what print() calls the model
  ResponseKind response;
  // what predict(type = "response") gives: "probability" (of the second
  // level, or of each class), "mean", or "" (scores and classes only)
  const char* mean_name;
  // One row: half its loss at the linear predictors eta (K of them for
  // `classes`, else one) and the encoded response y, +Inf where it
  // overflows; writes the residuals, minus the gradient of the half loss in
  // eta, and when `curvature` is not null the diagonal of its (generalized)
  // Hessian in eta. Computed from eta without rounding a mean first, so a
  // row fitted almost perfectly keeps its loss to full relative precision.
  double (*row)(const double* eta, const double* y, int k, double* residual, double* curvature);
  // The K means from eta (null when mean_name is "").
  void (*mean)(const double* eta, int k, double* mu);
  // The intercept-only fit from the responses' weighted means m (each in
  // (0, 1) for classes, positive for counts): its K intercepts and the K x K
  // matrix A with which its Hessian in (b0, b) is A (x) sum w [1, z][1, z]'.
  void (*null_model)(const double* m, int k, double* intercept, double* a);
};

// Throws std::invalid_argument for a name the table lacks.
const ModelFamily& model_family(const std::string& name);
const std::vector<ModelFamily>& model_families();
const char* response_kind_name(ResponseKind kind);
// Whether a family of this kind takes k linear predictors: several only for
// classes (K >= 2), and for one-vs-rest when there are three or more.
bool takes_predictors(const ModelFamily& family, int k);

}  // namespace askrff
