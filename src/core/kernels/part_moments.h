// What approximation_study()'s closed-form variance takes of each part p of
// a measure, over the pairs (x_i, y_j) with delta = x_i - y_j: one
// frequency's first and second moments
//   T_p = c m E cos(w'delta + phi(w) - theta),
//   S_p = c^2 m^2 E cos^2(w'delta + phi(w) - theta)
//       = c^2 m^2 (1 + Re(exp(-2 i theta) E exp(2 i (w'delta + phi(w))))) / 2,
// from E exp(i j (w'delta + phi(w))), j = 1, 2: the characteristic function
// of the part's law at j delta (PartSampler::characteristic()), or for a part
// with a left phase phi its Part::phased_characteristic. R turns them into
// variances (R/study-theory.R).
#pragma once
#include <vector>

#include "core/kernels/kernels.h"
#include "core/laws/measure.h"
#include "core/numerics/poll.h"

namespace askrff {

class PartMoments {
 public:
  // Prepares every part for ||delta|| up to reach / 2 (j = 2 doubles it).
  PartMoments(const Measure& measure, double reach, const Poll& poll = no_poll);
  std::size_t size() const { return parts_.size(); }
  // Unknown: features other than cos and sin, a stratified law (its
  // frequencies are allocated to its strata systematically, not drawn
  // independently), or no characteristic function.
  bool known(std::size_t p) const { return parts_[p].known; }
  // T_p and S_p of the pairs of x's rows [begin, end) with every row of y,
  // into the column-major n_x by n_y matrices first[p] and second[p] of the
  // known parts.
  void rows(const ConstMatrixMap& x, const ConstMatrixMap& y, Eigen::Index begin, Eigen::Index end,
            const std::vector<double*>& first, const std::vector<double*>& second) const;
  // Flops per pair, about, for blocks of bounded time.
  double pair_cost(int d) const;

 private:
  struct Prepared {
    bool known = false;
    double coefficient = 0.0, mass = 0.0, right_phase = 0.0;
    Characteristic plain;
    PhasedCharacteristic phased;
  };
  std::vector<Prepared> parts_;
};

// The largest ||x_i - y_j|| over the pairs (+Inf when it overflows).
double largest_distance(const ConstMatrixMap& x, const ConstMatrixMap& y, const Poll& poll = no_poll);

}  // namespace askrff
