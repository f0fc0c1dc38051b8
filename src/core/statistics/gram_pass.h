// One pass of a subspace iteration on the features' second moments, over
// rows whose features are never stored: with u_i = z_i - s (the features
// shifted by fixed values s), the sums over rows of w_i u_i u_i' g, of
// w_i u_i and of w_i |u_i|^2, and, when asked, each row's u_i' g. Each
// block of rows computes its features, their products with g and its
// share of the sums while they are in cache; the blocks are fixed by the
// sizes and their shares added in row order, so the results do not depend
// on the runner.
#pragma once
#include <Eigen/Dense>
#include <cstddef>

#include "core/features/feature_map.h"
#include "core/numerics/block_runner.h"

namespace askrff {

struct GramProducts {
  Eigen::MatrixXd products;     // columns by g's columns: the sum of w_i u_i u_i' g
  Eigen::VectorXd sum;          // the sum of w_i u_i
  double squares = 0.0;         // the sum of w_i |u_i|^2
  Eigen::MatrixXd projections;  // rows by g's columns: u_i' g, if kept (else empty)
};

// The pass over rows x (n by the map's dimension, column-major) with
// weights w, shift s and g (feature columns by any number of columns).
GramProducts sum_gram_products(const FeatureMap& map, const double* x, std::size_t n,
                               const Eigen::Ref<const Eigen::MatrixXd>& g, const Eigen::Ref<const Eigen::VectorXd>& w,
                               const Eigen::Ref<const Eigen::VectorXd>& shift, bool keep_projections,
                               const BlockRunner& run);

}  // namespace askrff
