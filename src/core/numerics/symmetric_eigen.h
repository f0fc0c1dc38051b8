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

#include "core/numerics/poll.h"

namespace askrff {

struct SymmetricEigen {
  Eigen::VectorXd values;   // increasing
  Eigen::MatrixXd vectors;  // orthonormal eigenvectors as columns; empty unless asked for
};

// Only the lower triangle of `a` is read (move it in to spare a copy). Throws
// std::invalid_argument for a matrix that is not square or not finite and
// std::runtime_error when the QR steps do not converge.
SymmetricEigen symmetric_eigen(Eigen::MatrixXd a, bool vectors, const Poll& poll = no_poll,
                               const Progress& progress = no_progress);

}  // namespace askrff
