// The largest singular value of a dense matrix through the interruptible
// symmetric eigendecomposition, eigenvalues only: the largest |eigenvalue|
// of A when A is symmetric (to within a skew part too small to move it by
// 1e-12 relative), else the square root of the largest eigenvalue of the
// smaller of A'A and AA', summed a block of rows at a time.
#pragma once
#include <Eigen/Dense>

#include "core/numerics/poll.h"

namespace askrff {

// Throws std::invalid_argument for a matrix that is empty or not finite.
double spectral_norm(const Eigen::Ref<const Eigen::MatrixXd>& a, const Poll& poll = no_poll);

}  // namespace askrff
