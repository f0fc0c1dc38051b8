// Structured orthogonal random features (Yu et al. 2016, SORF): the rows of
// sqrt(D) H D1 H D2 H D3 / sqrt(D), with H the normalized Walsh-Hadamard
// matrix of size D (d padded to a power of two) and D1, D2, D3 random
// diagonals of signs, take the place of a Haar block's directions at
// O(D log D) per row instead of O(d^2). For d a power of two the rows of a
// block are exactly orthonormal; otherwise they are cut to their first d
// coordinates and normalized. Three HD products make each row close to a
// uniform direction (the law of a row is not exactly uniform on the sphere,
// so the estimator has a small bias that vanishes as d grows).
#pragma once
#include <Eigen/Dense>

#include "core/numerics/random.h"

namespace askrff {

// `count` <= d unit directions of R^d as the columns of a d by count matrix:
// rows of one SORF block, its signs drawn from stream.
Eigen::MatrixXd structured_directions(int d, int count, Stream& stream);

}  // namespace askrff
