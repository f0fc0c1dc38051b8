#include "core/statistics/kmeans_pass.h"

#include <limits>

#include "core/numerics/dense_product.h"
#include "core/statistics/feature_blocks.h"

namespace askrff {

namespace {

// A block's share of the sums: the clusters' weighted sums of z and, in
// one more column, the total's (feature columns by clusters + 1), and
// each cluster's weight, within sum of squares and size.
struct KmeansShare {
  Eigen::MatrixXd sums;
  Eigen::VectorXd weight, withinss, size;
  double squares = 0.0, total_weight = 0.0;
};

// Each row's nearest centre in every group (rows by groups), from
// ||z - c||^2 = ||z||^2 - 2 z'c + ||c||^2, whose first term is common to a
// row's centres; ties go to the first.
Eigen::MatrixXi nearest_centers(const Eigen::MatrixXd& z, const Eigen::Ref<const Eigen::MatrixXd>& centers,
                                const Eigen::VectorXd& center_squares, int k) {
  const Eigen::Index rows = z.rows(), clusters = centers.rows(), groups = clusters / k;
  Eigen::MatrixXd cross(rows, clusters);
  gemm(1.0, strided(z), strided(centers).transpose(), 0.0, cross.data(), rows);
  Eigen::MatrixXi best(rows, groups);
  for (Eigen::Index g = 0; g < groups; ++g) {
    for (Eigen::Index i = 0; i < rows; ++i) {
      Eigen::Index chosen = g * k;
      double smallest = std::numeric_limits<double>::infinity();
      for (Eigen::Index j = g * k; j < (g + 1) * k; ++j) {
        const double score = center_squares(j) - 2.0 * cross(i, j);
        if (score < smallest) {
          smallest = score;
          chosen = j;
        }
      }
      best(i, g) = static_cast<int>(chosen);
    }
  }
  return best;
}

// Each row's squared distance to its centre in every group (rows by
// groups), summed directly, free of the expansion's cancellation, and to
// the shift (the last column); the columns run over contiguous rows of z.
Eigen::MatrixXd center_distances(const Eigen::MatrixXd& z, const Eigen::Ref<const Eigen::MatrixXd>& centers,
                                 const Eigen::MatrixXi& best,
                                 const Eigen::Ref<const Eigen::VectorXd>& shift) {
  const Eigen::Index rows = z.rows(), groups = best.cols();
  Eigen::MatrixXd distances = Eigen::MatrixXd::Zero(rows, groups + 1);
  for (Eigen::Index c = 0; c < z.cols(); ++c) {
    const double* column = z.col(c).data();
    const double* center = centers.col(c).data();
    for (Eigen::Index g = 0; g < groups; ++g) {
      const int* chosen = best.col(g).data();
      double* out = distances.col(g).data();
      for (Eigen::Index i = 0; i < rows; ++i) {
        const double difference = column[i] - center[chosen[i]];
        out[i] += difference * difference;
      }
    }
    double* out = distances.col(groups).data();
    for (Eigen::Index i = 0; i < rows; ++i) {
      const double difference = column[i] - shift(c);
      out[i] += difference * difference;
    }
  }
  return distances;
}

}  // namespace

KmeansSums kmeans_pass(const FeatureMap& map, const double* x, std::size_t n, const Eigen::Ref<const Eigen::VectorXd>& w,
                       const Eigen::Ref<const Eigen::MatrixXd>& centers, int k,
                       const Eigen::Ref<const Eigen::VectorXd>& shift, bool keep_clusters, const BlockRunner& run) {
  const Eigen::Index columns = map.n_columns(), clusters = centers.rows(), groups = clusters / k;
  // the features are not shifted: distances are the same either way, and
  // the sums are shifted as they are added
  const Eigen::VectorXd center_squares = centers.rowwise().squaredNorm();
  KmeansSums out;
  out.sums = Eigen::MatrixXd::Zero(clusters, columns);
  out.weight = out.withinss = out.size = Eigen::VectorXd::Zero(clusters);
  out.total = Eigen::VectorXd::Zero(columns);
  if (keep_clusters) out.cluster.assign(n * static_cast<std::size_t>(groups), 0);
  const auto fill = [&](std::size_t begin, std::size_t end, KmeansShare& share) {
    const Eigen::Index r = static_cast<Eigen::Index>(end - begin);
    Eigen::MatrixXd z;
    block_features(map, x, n, begin, end, z);
    const Eigen::MatrixXi best = nearest_centers(z, centers, center_squares, k);
    const Eigen::MatrixXd distances = center_distances(z, centers, best, shift);
    const auto wb = w.segment(static_cast<Eigen::Index>(begin), r);
    // the rows' weights in their clusters' columns and in the total's: the
    // sums are then one product by the core's kernels (dense_product.h)
    Eigen::MatrixXd membership = Eigen::MatrixXd::Zero(r, clusters + 1);
    share.weight = share.withinss = share.size = Eigen::VectorXd::Zero(clusters);
    share.squares = share.total_weight = 0.0;
    for (Eigen::Index i = 0; i < r; ++i) {
      for (Eigen::Index g = 0; g < groups; ++g) {
        const int j = best(i, g);
        if (keep_clusters) out.cluster[begin + static_cast<std::size_t>(i) + n * static_cast<std::size_t>(g)] = j - static_cast<int>(g * k);
        if (wb(i) == 0.0) continue;
        membership(i, j) = wb(i);
        share.weight(j) += wb(i);
        share.withinss(j) += wb(i) * distances(i, g);
        share.size(j) += 1.0;
      }
      membership(i, clusters) = wb(i);
      share.squares += wb(i) * distances(i, groups);
      share.total_weight += wb(i);
    }
    share.sums.resize(columns, clusters + 1);
    gemm(1.0, strided(z).transpose(), strided(membership), 0.0, share.sums.data(), columns);
  };
  const auto add = [&](const KmeansShare& share) {
    out.sums += (share.sums.leftCols(clusters) - shift * share.weight.transpose()).transpose();
    out.total += share.sums.col(clusters) - share.total_weight * shift;
    out.weight += share.weight;
    out.withinss += share.withinss;
    out.size += share.size;
    out.squares += share.squares;
  };
  ordered_block_shares<KmeansShare>(n, cache_block_rows(static_cast<int>(columns)), run, fill, add);
  return out;
}

}  // namespace askrff
