// Ridge regression with an unpenalized intercept, from the sums of
// cross_products.h: minimizes sum (y - b0 - z'b)^2 + lambda ||b||^2 for each
// response column. One symmetric eigendecomposition G = V diag(s) V' of the
// centered cross-product matrix gives every lambda at the cost of a vector
// operation: with c = V' (centered Z'y), b = V diag(1 / (s + lambda)) c,
// the effective degrees of freedom df = 1 + sum s / (s + lambda), and
// RSS = y'y - sum c^2 (s + 2 lambda) / (s + lambda)^2 (centered y), so
// generalized cross-validation, GCV = (RSS / n) / (1 - df / n)^2, is exact
// on the whole path. RSS and n - df are summed from nonnegative terms
// (ridge.cpp), so GCV stays accurate where the fit nearly interpolates.
//
// The same decomposition gives the evidence: the log marginal likelihood of
// the Bayesian model y = b0 + Z b + e, e ~ N(0, s2 / w), b ~ N(0, (s2 /
// lambda) I), with a flat prior (of density 1) on b0 integrated out and s2
// profiled out (set to its maximizer P / (n - 1)):
//   E = -(n - 1) / 2 (log(2 pi P / (n - 1)) + 1) + (sum log w - log sum w) / 2
//       - sum log(1 + s / lambda) / 2,
// with P = min over b0, b of sum w (y - b0 - z'b)^2 + lambda ||b||^2 = y'y -
// sum c^2 / (s + lambda) (centered), n the rows of positive weight, and
// several responses adding their evidences (each with its own s2).
// Profiling s2 keeps E a likelihood that an exact Gaussian process's, with the
// same prior on b0, can be compared with; integrating s2 against the
// improper prior ds2 / s2 would change E by a term that depends on n alone.
#pragma once
#include <Eigen/Dense>

#include "core/models/cross_products.h"
#include "core/numerics/symmetric_eigen.h"

namespace askrff {

// What chooses lambda: least GCV, or largest evidence.
enum class Criterion { gcv, evidence };

struct RidgePath {
  Eigen::VectorXd lambda;       // decreasing
  Eigen::VectorXd df;           // effective degrees of freedom, intercept included
  Eigen::VectorXd gcv;          // RSS / (n q) / (1 - df / n)^2, pooled over the q responses
  Eigen::VectorXd evidence;     // log marginal likelihood, summed over the responses; -inf where P = 0
  Eigen::VectorXd eigenvalues;  // of the centered cross-product matrix, decreasing
  Eigen::Index chosen = 0;      // the lambda the criterion prefers (the largest such)
  Eigen::MatrixXd coefficients; // columns by responses, at the chosen lambda
  Eigen::VectorXd intercept;    // per response
  Eigen::VectorXd rss;          // per response, at the chosen lambda
  // What the posterior of the coefficients needs besides lambda: the
  // eigenvectors of the first `rank` eigenvalues (columns by rank), the
  // weighted mean of the features, and the sum of the weights.
  Eigen::MatrixXd vectors;
  Eigen::VectorXd z_mean;
  double weight = 0.0;
  // For leave-one-out (ridge_loo.h): c = V' (centered weighted Z'y), rank by
  // responses, and the weighted mean of the responses.
  Eigen::MatrixXd projections;
  Eigen::VectorXd y_mean;
};

// Grid used when no lambda is given: kGridSize values, log-spaced from
// 10 max(s) down to 1e-10 max(s). On the grid, a choice between two grid
// values is refined by golden-section search on log lambda between its
// neighbours and added to the path, so that the criterion at its optimum is
// a smooth function of the data and of the kernel's scale.
constexpr int kGridSize = 100;

// `sums` of features shifted by z_shift and responses shifted by y_shift
// (weighted: the means, the centering and the intercept are weighted; n in
// GCV is the number of rows of positive weight);
// `lambda` positive (sorted here), or empty for the grid. n must be at least 2.
// The eigendecomposition, O(D^3) for D columns, polls and reports its progress.
RidgePath ridge_path(const CrossProducts& sums, const Eigen::VectorXd& z_shift, const Eigen::VectorXd& y_shift,
                     Eigen::VectorXd lambda, Criterion criterion = Criterion::gcv, const Poll& poll = no_poll,
                     const Progress& progress = no_progress);

}  // namespace askrff
