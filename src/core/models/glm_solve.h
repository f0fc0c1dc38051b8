// The Newton-type steps of a ridge-penalized generalized linear model from a
// reference Hessian. With weights w v at reference coefficients, the
// Hessian of half the deviance in (b0, b) is
//   H = [h, h m'; h m, G + h m m'],
// h = sum w v, m the weighted mean of the shifted features and G the
// centered weighted cross-products. One eigendecomposition G = V S V' then
// solves (a H + lambda P) d = q, P = diag(0, I) (the intercept is not
// penalized), for any scale a >= 0 and lambda > 0 at the cost of two
// products with V:
//   (a G + lambda I) d_b = q_b - m q_0,   d_0 = q_0 / (a h) - m'd_b,
// so one reference serves every lambda of a path and every fold (whose
// training rows carry a share a of the weight).
#pragma once
#include <Eigen/Dense>

#include "core/models/cross_products.h"
#include "core/numerics/poll.h"

namespace askrff {

struct GlmReference {
  Eigen::MatrixXd vectors;  // V, D x D
  Eigen::VectorXd values;   // S, nonnegative, decreasing
  Eigen::VectorXd mean;     // m
  double weight = 0.0;      // h
  // a reference for one lambda and a = 1 (factored_lambda > 0) holds, in
  // its lower triangle, the Cholesky factor L of G + lambda I = L L' instead
  // of V and S (a plain matrix: Eigen's LLT object leaves its status
  // unset until computed, and copying it reads that)
  Eigen::MatrixXd factor;
  double factored_lambda = 0.0;
};

// From sums of cross_products.h with the weights w v; h must be positive.
// The eigendecomposition polls and reports its progress.
GlmReference glm_reference(const CrossProducts& sums, const Poll& poll = no_poll, const Progress& progress = no_progress);

// The same for one lambda and a = 1 only (a final fit's Newton steps): a
// Cholesky factorization, a twenty-fifth of the eigendecomposition's
// arithmetic; the eigendecomposition where the factorization fails (G's
// rounding below -lambda).
GlmReference glm_factored_reference(const CrossProducts& sums, double lambda, const Poll& poll = no_poll,
                                    const Progress& progress = no_progress);

// The reference of a loss with no curvature at the point (every row of a
// loss with kinks outside its smoothing band): G = 0 and m = 0, so that the
// coefficients' step is the penalty's alone, q_b / lambda, the exact Newton
// step of the piece; the intercept, on which such a loss is linear, keeps
// the last reference's h, a finite step that the line search then bounds.
GlmReference penalty_reference(const GlmReference& last);

// d for each column of q ((1 + D) x columns), with its scale a (a = 0: only
// the penalty, and d_0 = 0) and its lambda (a factored reference's own, at
// a = 1).
Eigen::MatrixXd glm_solve(const GlmReference& reference, const Eigen::MatrixXd& q, const Eigen::VectorXd& scale,
                          const Eigen::VectorXd& lambda);

}  // namespace askrff
