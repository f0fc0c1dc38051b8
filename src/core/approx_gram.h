// Approximate Gram matrices L(x) R(y)' a block of rows at a time, so only the
// right features and one block of left features exist besides the result.
#pragma once
#include <Eigen/Dense>
#include <cstddef>

#include "features.h"

namespace askrff {

// Rows [row_begin, row_end) of L(x) R(y)' into out (column-major, leading
// dimension ld_out, row i of x at row i of out). right_features is n_y by 2F.
void approx_gram_rows(const PackedFeatureMap& left, const double* x, std::size_t ld_x,
                      std::size_t row_begin, std::size_t row_end,
                      const Eigen::Map<const Eigen::MatrixXd>& right_features, double* out,
                      std::size_t ld_out);

}  // namespace askrff
