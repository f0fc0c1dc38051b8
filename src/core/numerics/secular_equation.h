// The eigenproblem of a diagonal matrix plus a rank-one update,
// diag(d) + rho z z', at the heart of Cuppen's divide and conquer: its
// eigenvalues are the roots of the secular equation
//   1 + rho sum_j z_j^2 / (d_j - lambda) = 0,
// one in each interval (d_i, d_i+1) and the last in (d_k-1, d_k-1 + rho |z|^2),
// and its eigenvectors are (z_j / (d_j - lambda))_j, normalized.
#pragma once
#include <Eigen/Dense>
#include <vector>

#include "core/numerics/poll.h"

namespace askrff {

// The roots as lambda_i = d[origin_i] + tau_i, origin_i the nearer of i and
// i + 1, so that the differences d_j - lambda_i = (d_j - d[origin_i]) - tau_i
// keep their relative accuracy however close lambda_i is to a pole.
struct SecularRoots {
  std::vector<Eigen::Index> origin;
  Eigen::VectorXd tau;
  double difference(const Eigen::VectorXd& d, Eigen::Index j, Eigen::Index i) const {
    return (d[j] - d[origin[i]]) - tau[i];
  }
  double value(const Eigen::VectorXd& d, Eigen::Index i) const { return d[origin[i]] + tau[i]; }
};

// Requires d strictly increasing, every z_j nonzero and rho > 0. Each root
// is found by the rational interpolation of the "middle way" (Li 1994),
// safeguarded by bisection, to the accuracy LAPACK's dlaed4 asks.
SecularRoots solve_secular_equation(const Eigen::VectorXd& d, const Eigen::VectorXd& z, double rho,
                                    const Poll& poll);

// Gu and Eisenstat's (1995) z: the vector, up to a positive factor, for which
// the computed roots are the exact eigenvalues of diag(d) + rho z z' (from
// Loewner's formula), with the signs of `z`. Eigenvectors made from it are
// orthogonal to working precision however close the roots are.
Eigen::VectorXd gu_eisenstat_weights(const Eigen::VectorXd& d, const Eigen::VectorXd& z, const SecularRoots& roots);

}  // namespace askrff
