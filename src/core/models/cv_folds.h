// Cross-validation folds fixed by the row's index in the data, so that every
// way of cutting the rows into chunks gives the same folds. Rows are taken in
// consecutive groups of n_folds; each group is spread over the folds by its
// own random permutation, drawn from the stream keyed by (seed, group), so
// the folds differ in size by at most one row and a sorted response does not
// end up in one fold.
#pragma once
#include <cstdint>

namespace askrff {

// The fold, 1..n_folds, of the row with 0-based index `row`; n_folds >= 2.
int cv_fold(std::uint64_t seed, std::uint64_t row, int n_folds);

// Whether a Hessian sampled at one row in `every` (glm_pass.h) sums this
// row: one row of each consecutive group of `every`, drawn as folds are
// but from a stream of its own, so that the sample is no fold; every row
// for every <= 1.
bool hessian_row(std::uint64_t seed, std::uint64_t row, int every);

}  // namespace askrff
