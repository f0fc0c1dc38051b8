// The intercept-only ("null") model of a penalized GLM whose rows carry an
// offset o: the K intercepts b minimising sum_i w_i l(b + o_i, y_i). Without
// an offset they follow from the responses' weighted means
// (ModelFamily::null_model); with one, Newton's method on b finds them from
// the sums below over the rows (R drives it, a pass over the data per step,
// computing no features), and the path (glm_path.h) starts from the fit.
#pragma once
#include <Eigen/Dense>

#include "core/models/model_family.h"

namespace askrff {

struct GlmNullSums {
  double half = 0.0;          // sum w times half the loss
  Eigen::VectorXd residual;   // sum w r: minus the gradient of the half loss in b
  Eigen::MatrixXd hessian;    // sum w H: its Hessian in b (K x K)
  Eigen::VectorXd mean;       // sum w mu: the means (zero for a family without)
  double weight = 0.0;        // sum w
};

// The sums at the intercepts b (K) over rows of offsets o (rows x K, or one
// column for a family of one predictor), encoded responses y (rows x K) and
// weights w. H is the family's curvature (diagonal for several predictors
// one-vs-rest or of values, whose predictors are separate) and the softmax's
// diag(p) - pp' for several classes (glm_path_hessian.h). `half` is the loss
// at the parameters' smoothing width.
GlmNullSums glm_null_sums(const ModelFamily& family, const FamilyParameters& parameters,
                          const Eigen::Ref<const Eigen::MatrixXd>& offset,
                          const Eigen::Ref<const Eigen::MatrixXd>& y, const Eigen::Ref<const Eigen::VectorXd>& w,
                          const Eigen::VectorXd& intercept);

// Where Newton's method starts: the intercepts of the responses' weighted
// means less the offsets' weighted means (exact for a constant offset; for
// several classes centred, as null_model() centres them; for values the
// mean, which Newton's steps move to the levels' quantiles or expectiles).
Eigen::VectorXd glm_null_start(const ModelFamily& family, const FamilyParameters& parameters, const Eigen::VectorXd& mean,
                               const Eigen::VectorXd& offset_mean);

}  // namespace askrff
