// Frequencies for one positive part, in blocks of d columns. Block b draws
// from Stream(seed, part_index, b), so the result depends on the seed only.
#pragma once
#include <Eigen/Dense>
#include <cstdint>

#include "measure.h"

namespace askrff {

enum class Method { iid, orthogonal };

// Returns the d by n_features matrix of frequencies (one per column).
// Orthogonal: each block is a Haar-distributed orthogonal d by d matrix (QR of
// a Gaussian matrix, columns multiplied by sign(diag R) so the law is exactly
// Haar), each column completed to a frequency by the part's law: scaled by an
// independent radius for a rotation-invariant law (Yu et al. 2016; SPEC 4.3),
// used as the Gaussian direction of the lift for the asymmetric kernels'
// parts. Every frequency keeps its exact marginal law, so the estimator is
// unbiased for any n_features, below or above d. Radial mixtures (the LP
// measures) are sampled stratified instead: see sampling.cpp.
Eigen::MatrixXd sample_frequencies(const PartSampler& law, int d, int n_features, Method method,
                                   std::uint64_t seed, int part_index);

}  // namespace askrff
