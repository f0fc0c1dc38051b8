// Householder reduction of a symmetric matrix to tridiagonal form, A = Q T Q',
// by panels whose reflectors update the rest of the matrix with a matrix
// product (LAPACK's dsytrd and dlatrd), and the product Q Z by blocks of
// reflectors in compact WY form (dormtr). Both call poll() between columns
// or products, and report the fraction of their work done to `done`.
#pragma once
#include <Eigen/Dense>

#include "core/numerics/poll.h"

namespace askrff {

// The reflectors H_j = I - tau_j v_j v_j', j = 0 .. n - 2, with Q = H_0 ... H_{n-2};
// v_j is 0 above row j + 1, 1 at row j + 1 and stored below it in column j
// of the reduced matrix.
struct TridiagonalForm {
  Eigen::VectorXd diagonal, subdiagonal, tau;
};

// Reduces `a`, of which only the lower triangle is read, leaving the
// reflectors below its subdiagonal; its other entries are left undefined.
TridiagonalForm reduce_to_tridiagonal(Eigen::MatrixXd& a, const Poll& poll, const Progress& done);

// z = Q z for the reflectors that reduce_to_tridiagonal() left in `a`.
void apply_tridiagonal_factor(const Eigen::MatrixXd& a, const Eigen::VectorXd& tau, Eigen::MatrixXd& z,
                              const Poll& poll, const Progress& done);

}  // namespace askrff
