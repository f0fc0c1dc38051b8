// Exact leave-one-out along a ridge path, from the path's eigendecomposition
// and one more pass over the rows. For weighted ridge regression with an
// unpenalized intercept, row i's leave-one-out residual is e_i / (1 - h_i)
// with its residual e_i and leverage
//   h_i = w_i (1 / sum w + q_i),  q_i = (z_i - m)' (G + lambda I)^{-1} (z_i - m),
// G = V diag(s) V' the centered weighted cross-product matrix and m the
// weighted mean of the features (q_i as in ridge_posterior.h), so that with
// c = V' (centered Z'Wy) and a_i = V'(z_i - m) every lambda costs O(r) a row:
// the fit is mean(y) + a_i' (c / (s + lambda)). PRESS = sum w (e / (1 - h))^2,
// pooled over the responses; a row of zero weight adds nothing.
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
  Eigen::VectorXd lambda;
};

// Each row's terms for every lambda: w (e / (1 - h))^2 summed over the
// responses (infinite where h reaches 1), rows by lambdas; and w e^2 per
// response, rows by (lambdas x responses), lambda l's responses in columns
// l q to l q + q - 1.
struct LooTerms {
  Eigen::MatrixXd press, rss;
};

LooTerms loo_terms(const Eigen::MatrixXd& z, const Eigen::MatrixXd& y, const Eigen::VectorXd& w, const RidgeLoo& model);

}  // namespace askrff
