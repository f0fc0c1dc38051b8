// The posterior of a ridge fit read as Bayesian linear regression: with
// y = b0 + z'b + e, e ~ N(0, s2 / w), b ~ N(0, (s2 / lambda) I) and a flat
// prior on b0, the posterior mean of b0 + z'b is the ridge prediction, and
// its variance is s2 (1 / sum w + q(z)), where, with the centered weighted
// cross-product matrix G = V diag(s) V' (rank r) and the weighted mean m of
// the features,
//   q(z) = (z - m)' (G + lambda I)^{-1} (z - m)
//        = sum_k a_k^2 / (s_k + lambda) + (|z - m|^2 - sum_k a_k^2) / lambda,
// a = V'(z - m). The last term is the part of z - m outside the span of the
// r eigenvectors, where the data say nothing and the prior stays.
#pragma once
#include <Eigen/Dense>

namespace askrff {

struct RidgePosterior {
  Eigen::MatrixXd vectors;  // columns by r
  Eigen::VectorXd values;   // r eigenvalues, nonnegative
  Eigen::VectorXd z_mean;   // weighted mean of the features
  Eigen::VectorXd lambda;   // positive; responses with their own penalties need several
};

// q(z) for each row of the feature rows z (rows by columns) and each
// lambda: rows by lambdas.
Eigen::MatrixXd posterior_quadratic_form(const Eigen::MatrixXd& z, const RidgePosterior& posterior);

}  // namespace askrff
