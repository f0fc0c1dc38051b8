// Eigenvalues and eigenvectors of a symmetric tridiagonal matrix by Cuppen's
// (1981) divide and conquer, as LAPACK's dstedc: the matrix is torn in two by
// a rank-one change, the halves are solved recursively (implicit QR below
// kLeaf rows) and their solutions merged through the secular equation, with
// deflation of negligible components and of close eigenvalues, Gu and
// Eisenstat's (1995) eigenvectors, and the children's eigenvector blocks
// multiplied by the merge's eigenvectors as matrix products.
#pragma once
#include <Eigen/Dense>

#include "core/numerics/poll.h"

namespace askrff {

struct TridiagonalEigen {
  Eigen::VectorXd values;   // increasing
  Eigen::MatrixXd vectors;  // orthonormal eigenvectors as columns; empty unless asked for
};

// The eigenvalues are the same with and without vectors, to the last bit.
// Throws std::runtime_error when the QR steps of a leaf do not converge.
TridiagonalEigen tridiagonal_eigen(Eigen::VectorXd diagonal, Eigen::VectorXd subdiagonal, bool vectors,
                                   const Poll& poll, const Progress& done);

}  // namespace askrff
