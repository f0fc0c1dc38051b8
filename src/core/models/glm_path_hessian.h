// What a fit of the GLM path (glm_path.h) keeps for its likelihood and its
// uncertainty: the covariance of the Laplace approximation to the
// posterior at the final coefficients, (H + lambda P)^+ with H the Hessian
// of half the deviance and P = diag(0, I) per class (the intercepts are
// not penalized), its effective degrees of freedom tr((H + lambda P)^+ H),
// and each row's log-likelihood under the saturated model, which with the
// deviance gives the log-likelihood.
//
// For one predictor H is the reference the final Newton steps take at the
// coefficients, already eigendecomposed. For K classes those steps take
// each class's diagonal block only, so one more pass takes every block
// (a, b) of the softmax's Hessian,
//   sum w (delta_ab p_a - p_a p_b) [1, z - s][1, z - s]',
// with the pass's machinery of per-class sums (glm_pass.h): the pass's
// family is then class_hessian_rows(), whose K weights are the first row of
// diag(p) - pp', and reference r is the coefficients with their columns
// rotated by r (column j is class (j + r) mod K), so its K sums are the
// blocks (r, (r + j) mod K): the whole Hessian in K references.
#pragma once
#include <Eigen/Dense>

#include <vector>

#include "core/models/cross_products.h"
#include "core/models/glm_solve.h"
#include "core/models/model_family.h"
#include "core/numerics/poll.h"

namespace askrff {

// The family of the whole Hessian's pass for K classes: no loss, and as
// curvature the first row of the softmax's Hessian in eta.
const ModelFamily& class_hessian_rows();

// The references of that pass: (1 + D) x K^2 from the coefficients (1 + D) x K.
Eigen::MatrixXd class_hessian_references(const Eigen::MatrixXd& coefficients);

// The whole Hessian, K (1 + D) square, class-major with the intercept first
// in each class's block, on the shifted features: for one class from its one
// sum, for K classes from the K^2 sums of the pass above.
Eigen::MatrixXd whole_hessian(const std::vector<CrossProducts>& sums, int classes);

struct GlmCovariance {
  Eigen::MatrixXd covariance;  // (H + lambda P)^+, K (1 + D) square; empty when undefined
  double df;                   // tr((H + lambda P)^+ H); NaN when undefined
};

// From the whole Hessian. For K classes H + lambda P is singular along the
// intercepts' common shift u, which the softmax ignores (H u = 0); the
// pseudo-inverse is (H + lambda P + c u u')^-1 - u u' / c for any c > 0.
// Undefined where H + lambda P is not positive definite otherwise (no row
// with curvature left). The degrees of freedom are 1 + sum s / (s + lambda)
// over the eigenvalues s of the centered feature block for one class, and
// tend to the unpenalized model's number of coefficients as lambda -> 0
// ((K - 1)(1 + D) for K classes). Polls between its steps.
GlmCovariance laplace_covariance(const Eigen::MatrixXd& hessian, int classes, double lambda, const Poll& poll);

// The same for one class from the eigendecomposition of the Hessian's
// centered feature block (glm_solve.h): with C = V (S + lambda)^-1 V', the
// covariance is [1 / h + m'C m, -m'C; -C m, C] and the degrees of freedom
// 1 + sum S / (S + lambda).
GlmCovariance laplace_covariance(const GlmReference& reference, double lambda);

// A row's log-likelihood under the saturated model (mu = y), so that the
// log-likelihood is this summed with the weights minus half the deviance:
// 0 for responses of classes (0/1 indicators) whose mean is a probability,
// y log y - y - log Gamma(y + 1) for counts whose mean is the Poisson's (the
// one such family); NaN for a family without a likelihood.
double saturated_log_likelihood(const ModelFamily& family, const double* y);

}  // namespace askrff
