// Implicit QR steps with Wilkinson shifts on a symmetric tridiagonal matrix
// (Golub and Van Loan's algorithm 8.3.2, as Eigen 3.4's
// computeFromTridiagonal_impl), for matrices small enough that O(n^3)
// rotations of the eigenvectors cost little: the leaves of the divide and
// conquer, whose eigenvalues must not depend on whether vectors are asked for.
#pragma once
#include <Eigen/Dense>

#include "core/numerics/poll.h"

namespace askrff {

// Replaces `diagonal` by the eigenvalues, increasing, and, when `q` is given,
// q by q V for the eigenvectors V as columns (the identity on entry gives V).
// `subdiagonal` is overwritten. The eigenvalues are the same with and
// without q. Throws std::runtime_error when the steps do not converge.
void tridiagonal_qr(Eigen::VectorXd& diagonal, Eigen::VectorXd& subdiagonal, Eigen::MatrixXd* q, const Poll& poll,
                    const Progress& done);

}  // namespace askrff
