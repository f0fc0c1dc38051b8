// The permutation nulls of the kernel tests, from the rows' features and
// never from an n x n matrix. Permutation b comes from the random stream
// (seed, kPermutationPart, b) and is one block of the runner, so the
// statistics are the same for any number of threads. Each permutation
// sums its rows in blocks of kGramBlockRows through the dispatched gemm().
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <vector>

#include "core/numerics/block_runner.h"

namespace askrff {

using ConstMatrixView = Eigen::Ref<const Eigen::MatrixXd>;

// A uniform permutation of 0..n-1 (Fisher-Yates) from stream (seed, b).
void random_permutation(std::uint64_t seed, std::uint64_t b, std::vector<int>& out);

// For each permutation P_b of the rows, ||A' P_b B||_F^2: the squared
// Frobenius norm of the cross-products of A's rows, permuted, with B's (A
// n by p, B n by q, both centered, so that it is n^2 times the HSIC of the
// permuted pairs).
Eigen::VectorXd permuted_cross_norms(const ConstMatrixView& a, const ConstMatrixView& b, std::uint64_t seed,
                                     int n_permutations, const BlockRunner& run);

// For each permutation, ||mean of the first n1 permuted rows - mean of the
// others||^2 of z (the squared MMD of the permuted samples).
Eigen::VectorXd permuted_mean_distances(const ConstMatrixView& z, int n1, std::uint64_t seed, int n_permutations,
                                        const BlockRunner& run);

// For each draw, the rows of parts 1.. permuted independently (part 0
// kept), the squared distance sum_f |mean_a prod_j zeta_j(a, f) -
// prod_j mean_a zeta_j(a, f)|^2 between the mean of the product features and
// the product of their means, zeta_j = cos + i sin the complex features of
// part j (n by 2F: F cosine columns, then F sine columns, the same F for all).
// With independent rows of the parts it is the dHSIC of the product kernel
// (Pfister et al. 2018) on F joint frequencies, times F^(1 - d).
Eigen::VectorXd permuted_joint_distances(const std::vector<ConstMatrixView>& parts, std::uint64_t seed,
                                         int n_permutations, const BlockRunner& run);

}  // namespace askrff
