// Fastfood features (Le, Sarlos and Smola 2013) of a rotation-invariant
// kernel: each block of frequencies is the rows of S H G P H B, with the
// data padded from d to size D = 2^l coordinates, B a diagonal of signs, H
// the Walsh-Hadamard matrix, P a permutation, G a diagonal of standard
// normals and S the diagonal r_i / (sqrt(D) ||G||). Given B and P, a row of
// H G P H B is N(0, D I) (the rows of P H B are orthogonal of norm sqrt(D))
// and its norm is sqrt(D) ||G||; so with radii r_i from the kernel's radial
// law in D dimensions every frequency has exactly that law, its first d
// coordinates the law in d dimensions, and the features are unbiased. A
// row's projections on a block's D frequencies cost two transforms,
// O(D log D), instead of O(D d), and the map keeps O(D) numbers per block.
// The features are a [cos(w_1'x), ..., cos(w_n'x), sin(w_1'x), ...,
// sin(w_n'x)] with a = sqrt(mass / n), the same on both sides.
#pragma once
#include <memory>
#include <vector>

#include "core/features/feature_map.h"

namespace askrff {

struct FastfoodBlock {
  std::vector<double> sign, gaussian, scale;  // B, G and S, D entries each
  std::vector<int> permutation;               // (P v)_k = v[permutation[k]], 0-based
};

// The first n_frequencies rows of the blocks, stacked.
std::unique_ptr<FeatureMap> make_fastfood_feature_map(int d, int size, int n_frequencies, double amplitude,
                                                      std::vector<FastfoodBlock> blocks);

}  // namespace askrff
