// Cuppen's divide and conquer as LAPACK's dstedc, dlaed0 to dlaed3 arrange
// it. T is first split where a subdiagonal entry is negligible. An unreduced
// block is torn in the middle: with beta its coupling entry,
//   T = diag(T1 - |beta| e_last e_last', T2 - |beta| e_1 e_1') + |beta| w w',
// w = e_last + sign(beta) e_first. With T1 = Q1 D1 Q1' and T2 = Q2 D2 Q2',
// T = Q (D + rho z z') Q' for Q = diag(Q1, Q2), z = Q' w / sqrt(2) and
// rho = 2 |beta|, whose rank-one problem the secular equation solves.
//
// Each node keeps its eigenvalues by column, its columns by increasing
// eigenvalue, and the first and last rows of its eigenvectors, which are all
// its parent needs to form z. The merge computes those rows from the
// children's with the same operations whether or not the eigenvectors are
// formed, so the eigenvalues do not depend on it.
#include "core/numerics/tridiagonal_divide_conquer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "core/numerics/dense_product.h"
#include "core/numerics/secular_equation.h"
#include "core/numerics/tridiagonal_qr.h"

namespace askrff {
namespace {

using Eigen::Index;
using Eigen::Map;
using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr Index kLeaf = 32;                 // blocks at most this large are solved by QR steps
constexpr double kFlopsPerProduct = 1e9;   // a product's size between polls, 0.02 to 0.07 s
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// Columns of the children's eigenvectors by the rows where they may be
// nonzero: the first child's, the second's, or both after a rotation of
// deflation mixed them (LAPACK's column types 1, 3 and 2).
enum Rows { kUpper = 0, kBoth = 1, kLower = 2 };

class DivideConquer {
 public:
  DivideConquer(VectorXd diagonal, VectorXd subdiagonal, bool vectors, const Poll& poll, const Progress& done)
      : d_(std::move(diagonal)), e_(std::move(subdiagonal)), vectors_(vectors), poll_(poll), done_(done) {}

  TridiagonalEigen run();

 private:
  void solve(Index lo, Index hi, bool has_parent);
  void leaf(Index lo, Index hi, bool has_parent);
  void merge(Index lo, Index mid, Index hi, double coupling, bool has_parent);
  void finished(double work) {
    work_ += work;
    done_(std::min(1.0, work_ / total_));
    poll_();
  }

  // the work of a block of m rows, for progress: m^3 for a leaf's rotations
  // or a merge's products
  static double cost(Index m) {
    const double cube = static_cast<double>(m) * static_cast<double>(m) * static_cast<double>(m);
    return m <= kLeaf ? cube : cost(m / 2) + cost(m - m / 2) + cube;
  }

  VectorXd d_, e_;
  bool vectors_;
  const Poll& poll_;
  const Progress& done_;
  MatrixXd z_;                             // a node's eigenvectors in its rows and columns (zero elsewhere, unwritten)
  VectorXd values_, first_, last_;         // by column: eigenvalue, first and last entry of its vector in its node
  std::vector<Index> order_;               // a node's columns by increasing eigenvalue
  std::vector<double> workspace_;
  double work_ = 0.0, total_ = 0.0;
};

TridiagonalEigen DivideConquer::run() {
  const Index n = d_.size();
  if (n == 0) return {VectorXd(0), MatrixXd(0, 0)};
  values_.resize(n);
  first_.resize(n);
  last_.resize(n);
  order_.resize(n);
  if (vectors_) z_.resize(n, n);
  // independent blocks where |e_i| <= epsilon sqrt(|d_i| |d_i+1|)
  std::vector<Index> starts{0};
  for (Index i = 0; i + 1 < n; ++i) {
    if (std::abs(e_[i]) <= kEpsilon * std::sqrt(std::abs(d_[i])) * std::sqrt(std::abs(d_[i + 1]))) {
      e_[i] = 0.0;
      starts.push_back(i + 1);
    }
  }
  starts.push_back(n);
  // the blocks' eigenvectors are zero outside their rows; within, the
  // leaves and merges write every entry
  if (vectors_) {
    for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
      for (Index c = starts[b]; c < starts[b + 1]; ++c) {
        z_.col(c).head(starts[b]).setZero();
        z_.col(c).tail(n - starts[b + 1]).setZero();
        if (c % 64 == 63) poll_();
      }
    }
  }
  for (std::size_t b = 0; b + 1 < starts.size(); ++b) total_ += cost(starts[b + 1] - starts[b]);
  for (std::size_t b = 0; b + 1 < starts.size(); ++b) solve(starts[b], starts[b + 1], false);

  std::vector<Index> all(n);
  std::iota(all.begin(), all.end(), Index(0));
  std::stable_sort(all.begin(), all.end(), [&](Index a, Index b) { return values_[a] < values_[b]; });
  TridiagonalEigen out;
  out.values.resize(n);
  for (Index i = 0; i < n; ++i) out.values[i] = values_[all[i]];
  if (vectors_) {
    // column i becomes column all[i], by cycles
    std::vector<bool> placed(n, false);
    VectorXd held(n);
    Index moved = 0;
    for (Index i = 0; i < n; ++i) {
      if (placed[i] || all[i] == i) continue;
      held = z_.col(i);
      Index j = i;
      while (all[j] != i) {
        z_.col(j) = z_.col(all[j]);
        placed[j] = true;
        j = all[j];
        if (++moved % 64 == 0) poll_();
      }
      z_.col(j) = held;
      placed[j] = true;
    }
    out.vectors = std::move(z_);
  }
  return out;
}

void DivideConquer::solve(Index lo, Index hi, bool has_parent) {
  const Index m = hi - lo;
  if (m <= kLeaf) {
    leaf(lo, hi, has_parent);
    return;
  }
  const Index mid = lo + m / 2;
  const double coupling = e_[mid - 1];
  d_[mid - 1] -= std::abs(coupling);
  d_[mid] -= std::abs(coupling);
  solve(lo, mid, true);
  solve(mid, hi, true);
  merge(lo, mid, hi, coupling, has_parent);
}

void DivideConquer::leaf(Index lo, Index hi, bool has_parent) {
  const Index m = hi - lo;
  VectorXd diagonal = d_.segment(lo, m), subdiagonal = e_.segment(lo, m - 1);
  if (vectors_ || has_parent) {
    MatrixXd q = MatrixXd::Identity(m, m);
    tridiagonal_qr(diagonal, subdiagonal, &q, poll_, no_progress);
    if (vectors_) z_.block(lo, lo, m, m) = q;
    first_.segment(lo, m) = q.row(0).transpose();
    last_.segment(lo, m) = q.row(m - 1).transpose();
  } else {
    tridiagonal_qr(diagonal, subdiagonal, nullptr, poll_, no_progress);
  }
  values_.segment(lo, m) = diagonal;
  std::iota(order_.begin() + lo, order_.begin() + hi, lo);
  finished(cost(m));
}

void DivideConquer::merge(Index lo, Index mid, Index hi, double coupling, bool has_parent) {
  const Index m = hi - lo, n1 = mid - lo, n2 = hi - mid, n = d_.size();
  // the poles: both children's eigenvalues in increasing order
  std::vector<Index> cols(m);
  std::merge(order_.begin() + lo, order_.begin() + mid, order_.begin() + mid, order_.begin() + hi, cols.begin(),
             [&](Index a, Index b) { return values_[a] < values_[b]; });
  const double sign = coupling >= 0.0 ? 1.0 : -1.0, rho = 2.0 * std::abs(coupling);
  VectorXd d(m), z(m), first(m), last(m);
  std::vector<Rows> rows(m);
  for (Index s = 0; s < m; ++s) {
    const Index c = cols[s];
    const bool upper = c < mid;
    d[s] = values_[c];
    z[s] = (upper ? last_[c] : sign * first_[c]) * std::sqrt(0.5);
    first[s] = upper ? first_[c] : 0.0;
    last[s] = upper ? 0.0 : last_[c];
    rows[s] = upper ? kUpper : kLower;
  }

  // Deflation (dlaed2): a pole whose z component is negligible is an
  // eigenvalue with its column as eigenvector; of two poles closer than the
  // tolerance allows, a rotation zeroes one's z component.
  const double tol = 8.0 * kEpsilon * std::max(d.cwiseAbs().maxCoeff(), z.cwiseAbs().maxCoeff());
  std::vector<Index> kept, deflated;
  Index previous = -1;
  for (Index s = 0; s < m; ++s) {
    if (rho * std::abs(z[s]) <= tol) {
      deflated.push_back(s);
      continue;
    }
    if (previous >= 0) {
      const double radius = std::hypot(z[s], z[previous]);
      const double c = z[s] / radius, sn = -z[previous] / radius;
      if (std::abs((d[s] - d[previous]) * c * sn) <= tol) {
        z[s] = radius;
        z[previous] = 0.0;
        const auto rotate = [&](double& x, double& y) {
          const double rx = c * x + sn * y;
          y = c * y - sn * x;
          x = rx;
        };
        rotate(first[previous], first[s]);
        rotate(last[previous], last[s]);
        if (rows[previous] != rows[s]) {
          // a child's column is zero in the other child's rows, where z_
          // holds nothing yet: write the zeros the rotation mixes in
          for (const Index t : {previous, s}) {
            if (vectors_ && rows[t] == kUpper) z_.col(cols[t]).segment(mid, n2).setZero();
            if (vectors_ && rows[t] == kLower) z_.col(cols[t]).segment(lo, n1).setZero();
          }
          rows[previous] = rows[s] = kBoth;
        }
        if (vectors_) {
          const Index begin = rows[s] == kLower ? mid : lo, length = rows[s] == kBoth ? m : rows[s] == kUpper ? n1 : n2;
          auto x = z_.col(cols[previous]).segment(begin, length), y = z_.col(cols[s]).segment(begin, length);
          for (Index r = 0; r < length; ++r) rotate(x[r], y[r]);
        }
        const double dp = d[previous] * c * c + d[s] * sn * sn;
        d[s] = d[previous] * sn * sn + d[s] * c * c;
        d[previous] = dp;
        deflated.push_back(previous);
        previous = s;
        continue;
      }
      kept.push_back(previous);
    }
    previous = s;
  }
  if (previous >= 0) kept.push_back(previous);

  const Index k = static_cast<Index>(kept.size());
  VectorXd dk(k), zk(k);
  for (Index r = 0; r < k; ++r) {
    dk[r] = d[kept[r]];
    zk[r] = z[kept[r]];
  }
  SecularRoots roots;
  VectorXd weights;
  if (k > 0) {
    roots = solve_secular_equation(dk, zk, rho, poll_);
    weights = gu_eisenstat_weights(dk, zk, roots);
  }

  // The kept poles by their columns' rows, so that the product with the
  // merge's eigenvectors skips the children's zero blocks.
  std::vector<Index> by_rows;
  Index count[3] = {0, 0, 0};
  for (const Rows t : {kUpper, kBoth, kLower}) {
    for (Index r = 0; r < k; ++r) {
      if (rows[kept[r]] == t) {
        by_rows.push_back(r);
        count[t]++;
      }
    }
  }
  const Index top = count[kUpper] + count[kBoth], bottom = count[kBoth] + count[kLower];
  // copies of the children's columns: the kept ones' nonzero blocks, then the deflated ones
  const Index top_size = n1 * top, bottom_size = n2 * bottom;
  if (vectors_) {
    workspace_.resize(static_cast<std::size_t>(top_size + bottom_size + m * (m - k)));
    Map<MatrixXd> q_top(workspace_.data(), n1, top), q_bottom(workspace_.data() + top_size, n2, bottom),
        q_deflated(workspace_.data() + top_size + bottom_size, m, m - k);
    for (Index i = 0; i < top; ++i) {
      q_top.col(i) = z_.col(cols[kept[by_rows[i]]]).segment(lo, n1);
      if (i % 64 == 63) poll_();
    }
    for (Index i = 0; i < bottom; ++i) {
      q_bottom.col(i) = z_.col(cols[kept[by_rows[count[kUpper] + i]]]).segment(mid, n2);
      if (i % 64 == 63) poll_();
    }
    for (Index t = 0; t < m - k; ++t) {
      const Rows these = rows[deflated[t]];
      const auto column = z_.col(cols[deflated[t]]);
      if (these == kLower) q_deflated.col(t).head(n1).setZero(); else q_deflated.col(t).head(n1) = column.segment(lo, n1);
      if (these == kUpper) q_deflated.col(t).tail(n2).setZero(); else q_deflated.col(t).tail(n2) = column.segment(mid, n2);
      if (t % 64 == 63) poll_();
    }
  }

  // The merge's eigenvectors, a panel of columns at a time (rows in the
  // order by_rows), and their products with the children's.
  VectorXd first_kept(k), last_kept(k), poles(k), numerators(k), new_first(m), new_last(m);
  for (Index i = 0; i < k; ++i) {
    first_kept[i] = first[kept[by_rows[i]]];
    last_kept[i] = last[kept[by_rows[i]]];
    poles[i] = dk[by_rows[i]];
    numerators[i] = weights[by_rows[i]];
  }
  if (k > 0 && (vectors_ || has_parent)) {
    const double per_column = 2.0 * static_cast<double>(n1 * top + n2 * bottom);
    const Index panel = std::min(k, std::max<Index>(64, static_cast<Index>(kFlopsPerProduct / std::max(per_column, 1.0))));
    MatrixXd u(k, panel);
    for (Index j0 = 0; j0 < k; j0 += panel) {
      const Index width = std::min(panel, k - j0);
      for (Index j = 0; j < width; ++j) {
        // (d_i - lambda_j) as (d_i - d[origin_j]) - tau_j, see SecularRoots
        const Index root = j0 + j;
        u.col(j).array() = numerators.array() / ((poles.array() - dk[roots.origin[root]]) - roots.tau[root]);
        u.col(j) /= u.col(j).norm();
        new_first[root] = first_kept.dot(u.col(j));
        new_last[root] = last_kept.dot(u.col(j));
      }
      if (vectors_) {
        if (top > 0) {
          const Map<const MatrixXd> q_top(workspace_.data(), n1, top);
          gemm(1.0, strided(q_top), strided(u.topLeftCorner(top, width)), 0.0, &z_(lo, lo + j0), n);
        } else {
          z_.block(lo, lo + j0, n1, width).setZero();
        }
        if (bottom > 0) {
          const Map<const MatrixXd> q_bottom(workspace_.data() + top_size, n2, bottom);
          gemm(1.0, strided(q_bottom), strided(u.block(count[kUpper], 0, bottom, width)), 0.0, &z_(mid, lo + j0), n);
        } else {
          z_.block(mid, lo + j0, n2, width).setZero();
        }
      }
      poll_();
    }
  }
  for (Index j = 0; j < k; ++j) values_[lo + j] = roots.value(dk, j);
  for (Index t = 0; t < m - k; ++t) {
    values_[lo + k + t] = d[deflated[t]];
    new_first[k + t] = first[deflated[t]];
    new_last[k + t] = last[deflated[t]];
    if (vectors_) {
      z_.col(lo + k + t).segment(lo, m) = Map<const VectorXd>(workspace_.data() + top_size + bottom_size + t * m, m);
      if (t % 64 == 63) poll_();
    }
  }
  first_.segment(lo, m) = new_first;
  last_.segment(lo, m) = new_last;
  std::iota(order_.begin() + lo, order_.begin() + hi, lo);
  std::stable_sort(order_.begin() + lo, order_.begin() + hi, [&](Index a, Index b) { return values_[a] < values_[b]; });
  const double size = static_cast<double>(m);
  finished(size * size * size);
}

}  // namespace

TridiagonalEigen tridiagonal_eigen(VectorXd diagonal, VectorXd subdiagonal, bool vectors, const Poll& poll,
                                   const Progress& done) {
  return DivideConquer(std::move(diagonal), std::move(subdiagonal), vectors, poll, done).run();
}

}  // namespace askrff
