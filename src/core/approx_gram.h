// Approximate Gram matrices L(x) R(y)' a block of rows at a time, so only the
// right features and one block of left features exist besides the result.
#pragma once
#include <Eigen/Dense>
#include <cstddef>

#include "feature_map.h"

namespace askrff {

// Rows [row_begin, row_end) of L(x) R(y)' into out (column-major, leading
// dimension ld_out, row i of x at row i of out). right_features is n_y by
// left.n_columns().
void approx_gram_rows(const FeatureMap& left, const double* x, std::size_t ld_x,
                      std::size_t row_begin, std::size_t row_end,
                      const Eigen::Map<const Eigen::MatrixXd>& right_features, double* out,
                      std::size_t ld_out);

}  // namespace askrff
