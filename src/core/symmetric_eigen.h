// The eigendecomposition of a real symmetric matrix, Eigen's
// SelfAdjointEigenSolver taken apart so that a user can stop it: Householder
// tridiagonalization, the orthogonal factor formed by blocks of reflectors,
// and implicit QR steps with Wilkinson shifts on the tridiagonal matrix. Its
// loops call poll() between columns, blocks and steps, and report the
// fraction of the work done to progress(). Eigenvalues equal Eigen's to the
// last bit, eigenvectors to rounding (the blocked orthogonal factor sums in
// another order).
#pragma once
#include <Eigen/Dense>
#include <functional>

#include "poll.h"

namespace askrff {

// The fraction of a long computation's work done, in [0, 1], increasing.
using Progress = std::function<void(double)>;

inline void no_progress(double) {}

struct SymmetricEigen {
  Eigen::VectorXd values;   // increasing
  Eigen::MatrixXd vectors;  // orthonormal eigenvectors as columns; empty unless asked for
};

// The lower triangle of `a` is used (and overwritten: pass a copy). Throws
// std::invalid_argument for a matrix that is not square or not finite and
// std::runtime_error when the QR steps do not converge.
SymmetricEigen symmetric_eigen(Eigen::MatrixXd a, bool vectors, const Poll& poll = no_poll,
                               const Progress& progress = no_progress);

}  // namespace askrff
