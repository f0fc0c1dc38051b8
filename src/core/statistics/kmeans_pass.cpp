#include "core/statistics/kmeans_pass.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "core/models/model_passes.h"

namespace askrff {

namespace {

constexpr Eigen::Index kPanelColumns = 64;

// Rows [b, e) of the block z: each row's nearest centre in every group
// (`best`, rows by groups), from ||z - c||^2 = ||z||^2 - 2 z'c + ||c||^2,
// whose first term is common to a row's centres.
void nearest_centers(const Eigen::MatrixXd& z, const Eigen::MatrixXd& centers, const Eigen::VectorXd& center_squares,
                     int k, Eigen::Index b, Eigen::Index e, Eigen::MatrixXi& best) {
  const Eigen::Index rows = e - b, groups = centers.rows() / k;
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
    }
  }
}

// What the columns [from, to) of the block add: the centres' and the total's
// weighted sums (their own columns), and each row's partial squared norm
// and squared distance to its centres (`squares`, rows by 1 + groups, summed
// over the panels afterwards), the latter directly, free of the expansion's
// cancellation. Columns run over contiguous rows of z.
void add_panel_columns(const Eigen::MatrixXd& z, const Eigen::Ref<const Eigen::VectorXd>& w,
                       const Eigen::MatrixXd& centers, const Eigen::MatrixXi& best, Eigen::Index from, Eigen::Index to,
                       KmeansSums& out, Eigen::MatrixXd& squares) {
  const Eigen::Index r = z.rows(), groups = best.cols();
  squares.setZero(r, 1 + groups);
  for (Eigen::Index c = from; c < to; ++c) {
    for (Eigen::Index i = 0; i < r; ++i) {
      if (w(i) == 0.0) continue;
      const double v = z(i, c), value = w(i) * v;
      out.total(c) += value;
      squares(i, 0) += v * v;
      for (Eigen::Index g = 0; g < groups; ++g) {
        const int j = best(i, g);
        out.sums(j, c) += value;
        const double difference = v - centers(j, c);
        squares(i, 1 + g) += difference * difference;
      }
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
  Eigen::MatrixXd z;
  Eigen::MatrixXi best;
  std::vector<Eigen::MatrixXd> panel_squares(static_cast<std::size_t>(panels));
  for (std::size_t begin = 0; begin < n; begin += block) {
    const std::size_t rows = std::min(block, n - begin);
    const Eigen::Index r = static_cast<Eigen::Index>(rows), first = static_cast<Eigen::Index>(begin);
    shifted_features(map, x, n, begin, rows, shift, run, z);
    best.resize(r, groups);
    const double row_cost = 2.0 * static_cast<double>(columns) * static_cast<double>(clusters);
    run_row_blocks(rows, row_cost, kFeatureBlockRows, run, [&](std::size_t b, std::size_t e) {
      nearest_centers(z, shifted, center_squares, k, static_cast<Eigen::Index>(b), static_cast<Eigen::Index>(e), best);
    });
    const auto wb = w.segment(first, r);
    run(static_cast<std::size_t>(panels), [&](std::size_t p) {
      const Eigen::Index from = static_cast<Eigen::Index>(p) * kPanelColumns;
      add_panel_columns(z, wb, shifted, best, from, std::min(columns, from + kPanelColumns), out, panel_squares[p]);
    });
    for (Eigen::Index i = 0; i < r; ++i) {
      if (keep_clusters) {
        for (Eigen::Index g = 0; g < groups; ++g) {
          out.cluster[begin + static_cast<std::size_t>(i) + n * static_cast<std::size_t>(g)] =
              best(i, g) - static_cast<int>(g * k);
        }
      }
      if (wb(i) == 0.0) continue;
      // the panels' parts in panel order: the same for any runner
      Eigen::RowVectorXd row = Eigen::RowVectorXd::Zero(1 + groups);
      for (const Eigen::MatrixXd& part : panel_squares) row += part.row(i);
      out.squares += wb(i) * row(0);
      for (Eigen::Index g = 0; g < groups; ++g) {
        const int j = best(i, g);
        out.weight(j) += wb(i);
        out.withinss(j) += wb(i) * row(1 + g);
        out.size(j) += 1.0;
      }
    }
  }
  return out;
}

}  // namespace askrff
