// Ridge regression in its dual form, for rows in memory fewer than the
// feature columns. With A = W^(1/2) (Z - 1 m') the centered weighted
// features of the n rows of positive weight (m their weighted mean), the
// primal's cross-product matrix G = A'A (D x D, ridge.h) and the rows' Gram
// matrix K = A A' (n x n) share their nonzero eigenvalues s: with K = U
// diag(s) U', G's eigenvectors are V = A' U diag(s)^(-1/2), and with the
// centered weighted responses t = W^(1/2) (y - mean y), c = V' A' t =
// diag(s)^(1/2) U' t. So the path of ridge.h (its grid, criteria and
// choice, ridge_path_of()) follows from U and s at a cost of O(n^2 D) for K
// and O(n^3) for its eigendecomposition, instead of O(n D^2) and O(D^3),
// holding the n x D features in memory. The evidence's log-determinant
// over D dimensions, sum log(1 + s / lambda) over G's eigenvalues, is the
// same sum over K's, G's other D - n eigenvalues being zeros. K is
// decomposed in the complement of the centering direction sqrt(w / sum w),
// its null vector by construction, so that rounding there cannot mix into
// the vectors of the smallest eigenvalues. Eigenvalues that rounding
// decides (resolved_eigenvalues()) are left out of V, the posterior's
// eigenvectors: dividing by their square roots would turn rounding into
// directions. The coefficients keep their part along them (the remainder
// of ridge.h's RidgePath), and the path counts what they fit as unexplained.
//
// Leave-one-out (ridge_loo.h) takes no pass over the rows: row i's a_i =
// V'(z_i - m) = diag(s)^(1/2) U_i' / sqrt(w_i), so that, z_i - m lying in
// the span of V, its leverage and weighted residual are
//   h_i = w_i / sum w + sum_k s_k U_ik^2 / (s_k + lambda),
//   sqrt(w_i) e_i = t_i - sum_k U_ik s_k (U't)_k / (s_k + lambda),
// which ridge_dual.cpp sums from nonnegative terms. Likewise the residual
// sum of squares the path starts from, what no direction of V fits, is the
// sum of the squared projections of t on K's other eigenvectors: it keeps
// its digits where the fit nearly interpolates, where the primal's y'y -
// sum c^2 / s is a difference of nearly equal numbers.
#pragma once
#include <Eigen/Dense>
#include <cstddef>

#include "core/features/feature_map.h"
#include "core/models/ridge.h"
#include "core/numerics/block_runner.h"

namespace askrff {

struct RidgeDual {
  // As ridge_path() gives it; the eigenvectors, coefficients and intercepts
  // only with `solution` (a scale search's candidates need the criteria alone).
  RidgePath path;
  double n = 0.0;           // rows of positive weight
  double log_weight = 0.0;  // sum log w over them
  // With `loo`, per row of the paths and response, responses by rows:
  // PRESS = sum w (e / (1 - h))^2 over the rows (infinite where some h
  // reaches 1), and the weighted residual sums of squares.
  Eigen::MatrixXd press;
  Eigen::MatrixXd rss;
};

struct DualRequest {
  Criterion criterion = Criterion::gcv;
  Sharing sharing = Sharing::shared;
  bool loo = false;
  bool solution = true;
};

// The dual path on the features of the n rows of x (column-major) with
// responses y (one column per response) and weights w (finite,
// nonnegative); `lambda` positive, or empty for the grid. The products run
// on `run`'s blocks; the eigendecomposition polls and reports its progress.
RidgeDual ridge_dual_path(const FeatureMap& map, const double* x, std::size_t n,
                          const Eigen::Ref<const Eigen::MatrixXd>& y, const Eigen::Ref<const Eigen::VectorXd>& w,
                          Eigen::VectorXd lambda, const DualRequest& request, const BlockRunner& run,
                          const Poll& poll = no_poll, const Progress& progress = no_progress);

}  // namespace askrff
