// One pass over rows whose features are never stored: each row's features
// times g, and the features' sums over the rows weighted by 1 and by each
// column of a. Each block of rows
// computes its features and their products while they are in cache, and
// the blocks' sums are added in row order (feature_blocks.h), so the
// results do not depend on the runner. The effects of fits are such
// passes over the maps of weighted_map_sum.h: their estimates (g the
// coefficients), the average gradients (the sums weighted by the rows'
// Jacobians or the inverse link's slopes) and the pointwise variances (g
// a factor of the coefficients' covariance).
#pragma once
#include <Eigen/Dense>
#include <cstddef>

#include "core/features/feature_map.h"
#include "core/numerics/block_runner.h"

namespace askrff {

struct RowProjections {
  Eigen::MatrixXd projections;  // rows by g's columns: z_i' g
  Eigen::MatrixXd sums;         // feature columns by 1 + a's columns: the sums of z_i and of a_ij z_i
};

// The pass over rows x (n by the map's dimension, column-major) with g
// (feature columns by any number of columns) and a (n by any number).
RowProjections project_rows(const FeatureMap& map, const double* x, std::size_t n,
                            const Eigen::Ref<const Eigen::MatrixXd>& g, const Eigen::Ref<const Eigen::MatrixXd>& a,
                            const BlockRunner& run);

}  // namespace askrff
