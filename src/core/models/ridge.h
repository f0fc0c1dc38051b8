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
#pragma once
#include <Eigen/Dense>

#include "core/models/cross_products.h"
#include "core/numerics/symmetric_eigen.h"

namespace askrff {

struct RidgePath {
  Eigen::VectorXd lambda;       // decreasing
  Eigen::VectorXd df;           // effective degrees of freedom, intercept included
  Eigen::VectorXd gcv;          // RSS / (n q) / (1 - df / n)^2, pooled over the q responses
  Eigen::VectorXd eigenvalues;  // of the centered cross-product matrix, decreasing
  Eigen::Index chosen = 0;      // the lambda of least GCV (the largest such)
  Eigen::MatrixXd coefficients; // columns by responses, at the chosen lambda
  Eigen::VectorXd intercept;    // per response
  Eigen::VectorXd rss;          // per response, at the chosen lambda
  // What the posterior of the coefficients needs besides lambda: the
  // eigenvectors of the first `rank` eigenvalues (columns by rank), the
  // weighted mean of the features, and the sum of the weights.
  Eigen::MatrixXd vectors;
  Eigen::VectorXd z_mean;
  double weight = 0.0;
};

// Grid used when no lambda is given: kGridSize values, log-spaced from
// 10 max(s) down to 1e-10 max(s).
constexpr int kGridSize = 100;

// `sums` of features shifted by z_shift and responses shifted by y_shift
// (weighted: the means, the centering and the intercept are weighted; n in
// GCV is the number of rows of positive weight);
// `lambda` positive (sorted here), or empty for the grid. n must be at least 2.
// The eigendecomposition, O(D^3) for D columns, polls and reports its progress.
RidgePath ridge_path(const CrossProducts& sums, const Eigen::VectorXd& z_shift, const Eigen::VectorXd& y_shift,
                     Eigen::VectorXd lambda, const Poll& poll = no_poll, const Progress& progress = no_progress);

}  // namespace askrff
