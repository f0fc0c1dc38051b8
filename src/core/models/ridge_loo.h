// Exact leave-one-out along a ridge path, from the path's eigendecomposition
// and one more pass over the rows. For weighted ridge regression with an
// unpenalized intercept, row i's leave-one-out residual is e_i / (1 - h_i)
// with its residual e_i and leverage
//   h_i = w_i (1 / sum w + q_i),  q_i = (z_i - m)' (G + lambda I)^{-1} (z_i - m),
// G = V diag(s) V' the centered weighted cross-product matrix and m the
// weighted mean of the features (q_i as in ridge_posterior.h), so that with
// c = V' (centered Z'Wy) and a_i = V'(z_i - m) every lambda costs O(r) a row:
// the fit is mean(y) + a_i' (c / (s + lambda)). PRESS = sum w (e / (1 - h))^2
// per response (responses that share a lambda pool theirs in R); a row of
// zero weight adds nothing. Each response is evaluated on its own group's
// lambdas (ridge.h's RidgePath); the leverages, which depend on lambda
// alone, once per distinct lambda of the paths, which share their grid.
#pragma once
#include <Eigen/Dense>

namespace askrff {

struct RidgeLoo {
  Eigen::MatrixXd vectors;      // columns by r
  Eigen::VectorXd values;       // r eigenvalues, nonnegative
  Eigen::MatrixXd projections;  // c: r by responses
  Eigen::VectorXd z_mean;       // weighted means of the features and responses
  Eigen::VectorXd y_mean;
  double weight = 1.0;          // sum w
  // A path per group of responses, as RidgePath's lambda: L by 1 (one
  // lambda for all) or L by responses.
  Eigen::MatrixXd lambda;
};

// Each row's terms for every lambda and response: w (e / (1 - h))^2
// (infinite where h reaches 1) and w e^2, rows by (L x responses), row l of
// the responses' paths in columns l q to l q + q - 1.
struct LooTerms {
  Eigen::MatrixXd press, rss;
};

LooTerms loo_terms(const Eigen::MatrixXd& z, const Eigen::MatrixXd& y, const Eigen::VectorXd& w, const RidgeLoo& model);

}  // namespace askrff
