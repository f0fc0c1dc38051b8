// The eigendecomposition of a real symmetric matrix, as LAPACK's dsyevd
// computes it (blocked Householder tridiagonalization, Cuppen's divide and
// conquer, blocked back-transformation), written so that a user can stop it:
// its loops call poll() between columns, blocks and products, and report the
// fraction of the work done to progress(). Accurate as LAPACK's: eigenvalues
// to a small multiple of n epsilon max |lambda|, eigenvectors orthonormal to
// working precision.
#pragma once
#include <Eigen/Dense>

#include "core/numerics/poll.h"

namespace askrff {

struct SymmetricEigen {
  Eigen::VectorXd values;   // increasing
  Eigen::MatrixXd vectors;  // orthonormal eigenvectors as columns; empty unless asked for
};

// Only the lower triangle of `a` is read (move it in to spare a copy). The
// eigenvalues are the same, to the last bit, with and without vectors.
// Throws std::invalid_argument for a matrix that is not square or not finite
// and std::runtime_error when the QR steps of the small blocks do not converge.
SymmetricEigen symmetric_eigen(Eigen::MatrixXd a, bool vectors, const Poll& poll = no_poll,
                               const Progress& progress = no_progress);

}  // namespace askrff
