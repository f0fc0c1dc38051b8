// Randomized quasi-Monte Carlo points (Yang et al. 2014 use them for random
// features): Halton points in [0, 1)^s, coordinate j in the j-th prime
// base with its digits scrambled by a random permutation (which keeps 0 at
// 0, so the points stay a (t, s)-like net in each base), then shifted by a
// random vector modulo 1 (Cranley-Patterson). After the shift every point is
// exactly uniform on the cube, so an estimator built from each point alone
// stays unbiased, while the points together cover the cube more evenly
// than independent ones.
#pragma once
#include <cstdint>
#include <vector>

#include "core/numerics/random.h"

namespace askrff {

class RandomizedHalton {
 public:
  RandomizedHalton(int dimension, Stream& stream);
  int dimension() const { return static_cast<int>(bases_.size()); }
  // Point `index` (from 0: the shift makes the sequence's origin a point
  // like any other, and the first b^k points of coordinate j then fall one
  // in each cell of width b^-k) into u, every coordinate in (0, 1).
  void point(std::uint64_t index, double* u) const;

 private:
  std::vector<int> bases_;
  std::vector<std::vector<int>> permutations_;
  std::vector<double> shift_;
};

// The first n primes.
std::vector<int> first_primes(int n);

}  // namespace askrff
