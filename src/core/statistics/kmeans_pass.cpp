#include "core/statistics/kmeans_pass.h"

#include <algorithm>
#include <limits>

#include "core/models/model_passes.h"

namespace askrff {

namespace {

constexpr Eigen::Index kPanelColumns = 64;

// Rows [b, e) of the block z: each row's nearest centre in every group
// (`best`, rows by groups) and its squared distance to it (`distance`).
void nearest_centers(const Eigen::MatrixXd& z, const Eigen::MatrixXd& centers, const Eigen::VectorXd& center_squares,
                     int k, Eigen::Index b, Eigen::Index e, Eigen::MatrixXi& best, Eigen::MatrixXd& distance) {
  const Eigen::Index rows = e - b, groups = centers.rows() / k;
  // ||z - c||^2 = ||z||^2 - 2 z'c + ||c||^2: the first term is common to a row's centres
  const Eigen::MatrixXd cross = z.middleRows(b, rows) * centers.transpose();
  for (Eigen::Index i = 0; i < rows; ++i) {
    for (Eigen::Index g = 0; g < groups; ++g) {
      Eigen::Index chosen = g * k;
      double smallest = std::numeric_limits<double>::infinity();
      for (Eigen::Index j = g * k; j < (g + 1) * k; ++j) {
        const double score = center_squares(j) - 2.0 * cross(i, j);
        if (score < smallest) {
          smallest = score;
          chosen = j;
        }
      }
      best(b + i, g) = static_cast<int>(chosen);
      // the chosen centre's distance directly, free of the expansion's cancellation
      distance(b + i, g) = (z.row(b + i) - centers.row(chosen)).squaredNorm();
    }
  }
}

}  // namespace

KmeansSums kmeans_pass(const FeatureMap& map, const double* x, std::size_t n, const Eigen::Ref<const Eigen::VectorXd>& w,
                       const Eigen::Ref<const Eigen::MatrixXd>& centers, int k,
                       const Eigen::Ref<const Eigen::VectorXd>& shift, bool keep_clusters, const BlockRunner& run) {
  const Eigen::Index columns = map.n_columns(), clusters = centers.rows(), groups = clusters / k;
  const Eigen::MatrixXd shifted = centers.rowwise() - shift.transpose();
  const Eigen::VectorXd center_squares = shifted.rowwise().squaredNorm();
  KmeansSums out;
  out.sums = Eigen::MatrixXd::Zero(clusters, columns);
  out.weight = out.withinss = out.size = Eigen::VectorXd::Zero(clusters);
  out.total = Eigen::VectorXd::Zero(columns);
  if (keep_clusters) out.cluster.assign(n * static_cast<std::size_t>(groups), 0);
  const std::size_t block = pass_rows(static_cast<int>(columns));
  const Eigen::Index panels = (columns + kPanelColumns - 1) / kPanelColumns;
  Eigen::MatrixXd z, distance;
  Eigen::MatrixXi best;
  for (std::size_t begin = 0; begin < n; begin += block) {
    const std::size_t rows = std::min(block, n - begin);
    const Eigen::Index r = static_cast<Eigen::Index>(rows), first = static_cast<Eigen::Index>(begin);
    shifted_features(map, x, n, begin, rows, shift, run, z);
    best.resize(r, groups);
    distance.resize(r, groups);
    const double row_cost = 2.0 * static_cast<double>(columns) * static_cast<double>(clusters + groups);
    run_row_blocks(rows, row_cost, kFeatureBlockRows, run, [&](std::size_t b, std::size_t e) {
      nearest_centers(z, shifted, center_squares, k, static_cast<Eigen::Index>(b), static_cast<Eigen::Index>(e), best,
                      distance);
    });
    const auto wb = w.segment(first, r);
    run(static_cast<std::size_t>(panels), [&](std::size_t p) {
      const Eigen::Index from = static_cast<Eigen::Index>(p) * kPanelColumns;
      const Eigen::Index to = std::min(columns, from + kPanelColumns);
      for (Eigen::Index c = from; c < to; ++c) {
        for (Eigen::Index i = 0; i < r; ++i) {
          if (wb(i) == 0.0) continue;
          const double value = wb(i) * z(i, c);
          out.total(c) += value;
          for (Eigen::Index g = 0; g < groups; ++g) out.sums(best(i, g), c) += value;
        }
      }
    });
    for (Eigen::Index i = 0; i < r; ++i) {
      if (keep_clusters) {
        for (Eigen::Index g = 0; g < groups; ++g) {
          out.cluster[begin + static_cast<std::size_t>(i) + n * static_cast<std::size_t>(g)] =
              best(i, g) - static_cast<int>(g * k);
        }
      }
      if (wb(i) == 0.0) continue;
      out.squares += wb(i) * z.row(i).squaredNorm();
      for (Eigen::Index g = 0; g < groups; ++g) {
        const int j = best(i, g);
        out.weight(j) += wb(i);
        out.withinss(j) += wb(i) * distance(i, g);
        out.size(j) += 1.0;
      }
    }
  }
  return out;
}

}  // namespace askrff
