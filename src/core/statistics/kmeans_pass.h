// One Lloyd step of k-means (Lloyd 1982) on the features of rows that are
// never stored: each row goes to the nearest of k centres in each of several
// groups (one group per start), and the pass sums what the next centres,
// the within-cluster sums of squares and the total sum of squares need.
// Features and centres are shifted by the same s (the shift cancels in
// every distance). Each block of rows computes its features, their nearest
// centres and its share of every sum while they are in cache, and the
// shares are added in row order (feature_blocks.h), so the results do not
// depend on the runner.
#pragma once
#include <Eigen/Dense>
#include <cstddef>
#include <vector>

#include "core/features/feature_map.h"
#include "core/numerics/block_runner.h"

namespace askrff {

struct KmeansSums {
  Eigen::MatrixXd sums;      // groups k by columns: each cluster's weighted sum of z - s
  Eigen::VectorXd weight;    // each cluster's total weight
  Eigen::VectorXd withinss;  // each cluster's weighted sum of ||z - c||^2
  Eigen::VectorXd size;      // each cluster's rows of positive weight
  Eigen::VectorXd total;     // the weighted sum of z - s over all rows
  double squares = 0.0;      // the weighted sum of ||z - s||^2 over all rows
  std::vector<int> cluster;  // row i's cluster in group g at i + n g (0 to k - 1), if kept
};

// The pass over rows x (n by the map's dimension, column-major) with weights
// w and centres (groups k by columns, in the features' coordinates, group g
// in rows g k to g k + k - 1); ties go to the first centre.
KmeansSums kmeans_pass(const FeatureMap& map, const double* x, std::size_t n, const Eigen::Ref<const Eigen::VectorXd>& w,
                       const Eigen::Ref<const Eigen::MatrixXd>& centers, int k,
                       const Eigen::Ref<const Eigen::VectorXd>& shift, bool keep_clusters, const BlockRunner& run);

}  // namespace askrff
