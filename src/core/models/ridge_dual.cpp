#include "core/models/ridge_dual.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/numerics/dense_product.h"
#include "core/numerics/symmetric_eigen.h"

namespace askrff {

namespace {

using Index = Eigen::Index;

Index tile_count(Index n) { return (n + static_cast<Index>(kGramBlockRows) - 1) / static_cast<Index>(kGramBlockRows); }

// Rows [begin, begin + size) of the tiles of kGramBlockRows.
struct Tile {
  Index begin, size;
};

Tile tile(Index t, Index n) {
  const Index begin = t * static_cast<Index>(kGramBlockRows);
  return {begin, std::min<Index>(static_cast<Index>(kGramBlockRows), n - begin)};
}

// The features of the rows of positive weight (those of `kept`), n x D.
Eigen::MatrixXd kept_features(const FeatureMap& map, const double* x, std::size_t n, const std::vector<Index>& kept,
                              const BlockRunner& run) {
  Eigen::MatrixXd z(static_cast<Index>(n), map.n_columns());
  double* zp = z.data();
  run_row_blocks(n, map.row_cost(), kFeatureBlockRows, run,
                 [&](std::size_t b, std::size_t e) { map.rows(x, n, b, e, zp + b, n); });
  if (kept.size() == n) return z;
  Eigen::MatrixXd out(static_cast<Index>(kept.size()), z.cols());
  for (Index j = 0; j < z.cols(); ++j) {
    for (std::size_t i = 0; i < kept.size(); ++i) out(static_cast<Index>(i), j) = z(kept[i], j);
  }
  return out;
}

// The Householder reflection P = I - beta v v' that maps the unit vector
// c to a multiple of e_1: orthogonal and symmetric, so that its last n - 1
// rows span the complement of c exactly.
struct Reflection {
  Eigen::VectorXd v;
  double beta;
  explicit Reflection(const Eigen::VectorXd& c) : v(c) {
    v(0) += c(0) >= 0.0 ? 1.0 : -1.0;  // away from cancellation: v'v = 2 (1 + |c_1|)
    beta = 2.0 / v.squaredNorm();
  }
  // m = P m
  void apply(Eigen::MatrixXd& m) const {
    const Eigen::RowVectorXd along = v.transpose() * m;
    m.noalias() -= (beta * v) * along;
  }
  // P [0; m], one row longer than m
  Eigen::MatrixXd from_complement(const Eigen::MatrixXd& m) const {
    Eigen::MatrixXd out(m.rows() + 1, m.cols());
    out.row(0).setZero();
    out.bottomRows(m.rows()) = m;
    apply(out);
    return out;
  }
};

// The lower triangle of B B', a tile of kGramBlockRows squared a block (the
// upper triangle is zero and never read).
Eigen::MatrixXd lower_gram(const Eigen::Ref<const Eigen::MatrixXd>& b, const BlockRunner& run) {
  const Index n = b.rows(), tiles = tile_count(n);
  Eigen::MatrixXd k = Eigen::MatrixXd::Zero(n, n);
  // block j is tile (i, j), j <= i, in the order (0, 0), (1, 0), (1, 1), (2, 0), ...
  run(static_cast<std::size_t>(tiles * (tiles + 1) / 2), [&](std::size_t block) {
    Index i = 0;
    while ((i + 1) * (i + 2) / 2 <= static_cast<Index>(block)) ++i;
    const Tile rows = tile(i, n), cols = tile(static_cast<Index>(block) - i * (i + 1) / 2, n);
    const StridedMatrix left = strided(b.middleRows(rows.begin, rows.size));
    const StridedMatrix right = strided(b.middleRows(cols.begin, cols.size)).transpose();
    double* out = &k(rows.begin, cols.begin);
    if (rows.begin == cols.begin) {
      gemm_lower(1.0, left, right, 0.0, out, n);
    } else {
      gemm(1.0, left, right, 0.0, out, n);
    }
  });
  return k;
}

// Leave-one-out along the path (ridge_dual.h), a tile of rows a block, each
// row's terms summed in row order, from the rows of U and of K's other
// eigenvectors U_o (both orthogonal to the centering direction c0 =
// sqrt(w / sum w)), s, p = U't and p_o = U_o't. Since sum_k U_ik^2 over U,
// U_o and c0 is 1, the residual and 1 - h are sums of nonnegative terms:
//   sqrt(w_i) e_i = sum_k U_ik lambda / (s_k + lambda) p_k + (U_o p_o)_i,
//   1 - h_i = sum_k U_ik^2 lambda / (s_k + lambda) + sum_k (U_o)_ik^2,
// which keep their digits where the fit nearly interpolates. Each response
// at its group's lambdas (the path's columns).
void dual_loo(RidgeDual& out, const Eigen::MatrixXd& u, const Eigen::ArrayXd& s, const Eigen::MatrixXd& p,
              const Eigen::MatrixXd& u_other, const Eigen::MatrixXd& p_other, const BlockRunner& run) {
  const Eigen::MatrixXd& lambda = out.path.lambda;
  const Index n = u.rows(), r = u.cols(), lambdas = lambda.rows(), groups = lambda.cols(), q = p.cols();
  // lambda / (s + lambda): what the fit leaves of each direction, once per
  // distinct lambda of the paths (1 - h depends on lambda alone)
  const DistinctLambdas distinct = distinct_lambdas(lambda);
  Eigen::MatrixXd left(r, distinct.values.size());
  for (Index m = 0; m < distinct.values.size(); ++m) {
    left.col(m) = (distinct.values(m) / (s + distinct.values(m))).matrix();
  }
  // the residual projections of the responses, row l's in columns l q to l q + q - 1
  Eigen::MatrixXd shrunk(r, lambdas * q);
  for (Index l = 0; l < lambdas; ++l) {
    for (Index j = 0; j < q; ++j) {
      shrunk.col(l * q + j) = p.col(j).cwiseProduct(left.col(distinct.slot(l, response_group(groups, j))));
    }
  }
  const Eigen::MatrixXd u2 = u.array().square().matrix(), outside = u_other * p_other;
  const Eigen::VectorXd beside = u_other.rowwise().squaredNorm();
  Eigen::MatrixXd press(n, lambdas * q), rss(n, lambdas * q);
  run(static_cast<std::size_t>(tile_count(n)), [&](std::size_t b) {
    const Tile rows = tile(static_cast<Index>(b), n);
    Eigen::MatrixXd residual(rows.size, lambdas * q), slack(rows.size, distinct.values.size());
    gemm(1.0, strided(u.middleRows(rows.begin, rows.size)), strided(shrunk), 0.0, residual.data(), rows.size);
    gemm(1.0, strided(u2.middleRows(rows.begin, rows.size)), strided(left), 0.0, slack.data(), rows.size);
    for (Index l = 0; l < lambdas; ++l) {
      for (Index j = 0; j < q; ++j) {
        const Index column = l * q + j, g = response_group(groups, j);
        for (Index i = 0; i < rows.size; ++i) {
          const Index row = rows.begin + i;
          const double e = residual(i, column) + outside(row, j);
          const double rest = slack(i, distinct.slot(l, g)) + beside(row);  // 1 - h
          rss(row, column) = e * e;
          press(row, column) = rest > 0.0 ? e * e / (rest * rest) : std::numeric_limits<double>::infinity();
        }
      }
    }
  });
  const Eigen::VectorXd press_sums = press.colwise().sum().transpose(), rss_sums = rss.colwise().sum().transpose();
  out.press = Eigen::Map<const Eigen::MatrixXd>(press_sums.data(), q, lambdas);
  out.rss = Eigen::Map<const Eigen::MatrixXd>(rss_sums.data(), q, lambdas);
}

// B' M, D x M's columns, a tile of D's columns a block.
Eigen::MatrixXd transposed_product(const Eigen::Ref<const Eigen::MatrixXd>& b, const Eigen::MatrixXd& m,
                                   const BlockRunner& run) {
  const Index d = b.cols();
  Eigen::MatrixXd out(d, m.cols());
  // no column to write (no direction of that kind): out(0, 0) does not exist
  if (out.size() == 0) return out;
  run(static_cast<std::size_t>(tile_count(d)), [&](std::size_t block) {
    const Tile columns = tile(static_cast<Index>(block), d);
    gemm(1.0, strided(b.middleCols(columns.begin, columns.size)).transpose(), strided(m), 0.0, &out(columns.begin, 0),
         d);
  });
  return out;
}

}  // namespace

RidgeDual ridge_dual_path(const FeatureMap& map, const double* x, std::size_t n,
                          const Eigen::Ref<const Eigen::MatrixXd>& y, const Eigen::Ref<const Eigen::VectorXd>& w,
                          Eigen::VectorXd lambda, const DualRequest& request, const BlockRunner& run,
                          const Poll& poll, const Progress& progress) {
  std::vector<Index> kept;
  for (std::size_t i = 0; i < n; ++i) {
    if (w(static_cast<Index>(i)) > 0.0) kept.push_back(static_cast<Index>(i));
  }
  const Index rows = static_cast<Index>(kept.size()), q = y.cols();
  Eigen::VectorXd wk(rows);
  Eigen::MatrixXd yk(rows, q);
  for (Index i = 0; i < rows; ++i) {
    wk(i) = w(kept[static_cast<std::size_t>(i)]);
    yk.row(i) = y.row(kept[static_cast<std::size_t>(i)]);
  }
  RidgeDual out;
  out.n = static_cast<double>(rows);
  out.log_weight = wk.array().log().sum();
  const double total = wk.sum();
  require_ridge_rows(out.n, total);

  // A and t: centered on the weighted means, rows scaled by sqrt(w)
  Eigen::MatrixXd a = kept_features(map, x, n, kept, run);
  const Eigen::VectorXd z_mean = a.transpose() * wk / total, y_mean = yk.transpose() * wk / total;
  const Eigen::ArrayXd root_w = wk.array().sqrt();
  for (Index j = 0; j < a.cols(); ++j) a.col(j) = ((a.col(j).array() - z_mean(j)) * root_w).matrix();
  Eigen::MatrixXd t = ((yk.rowwise() - y_mean.transpose()).array().colwise() * root_w).matrix();
  // The centering makes A and t orthogonal to c0 = sqrt(w / sum w): in the
  // coordinates of the reflection that maps c0 to e_1, their first rows
  // are zeros (up to rounding, dropped) and the rest, B and t_B, carry them.
  // K = B B' then has no null direction of the centering, whose rounding
  // would mix with the smallest eigenvalues' vectors.
  const Reflection reflection((wk / total).cwiseSqrt());
  reflection.apply(a);
  reflection.apply(t);
  const auto b = a.bottomRows(rows - 1);
  const Eigen::MatrixXd tb = t.bottomRows(rows - 1);
  t.resize(0, 0);

  SymmetricEigen eigen = symmetric_eigen(lower_gram(b, run), true, poll, progress);
  // K's eigenvalues come increasing: G's rank is at most min(D, n - 1), and
  // only the resolved ones among those are kept
  const Index rank = std::min<Index>(b.cols(), rows - 1);
  const Eigen::ArrayXd top = eigen.values.reverse().head(rank).cwiseMax(0.0).array();
  const Index r = resolved_eigenvalues(top);
  // the eigenvectors of the resolved eigenvalues, decreasing, and the others
  Eigen::MatrixXd u = eigen.vectors.rightCols(r).rowwise().reverse();
  const Eigen::MatrixXd u_other = eigen.vectors.leftCols(rows - 1 - r);
  eigen.vectors.resize(0, 0);
  const Eigen::MatrixXd p = u.transpose() * tb, p_other = u_other.transpose() * tb;
  RidgeSpectrum spectrum;
  spectrum.values = top.head(r);
  spectrum.projections = (p.array().colwise() * spectrum.values.sqrt()).matrix();
  // what the resolved directions leave of t, a sum of squares (the primal's
  // y'y - sum c^2 / s cancels where the fit nearly interpolates)
  spectrum.unexplained = p_other.colwise().squaredNorm().transpose();
  spectrum.columns = b.cols();
  spectrum.n = out.n;
  spectrum.weight = total;
  spectrum.log_weight = out.log_weight;
  out.path = ridge_path_of(spectrum, std::move(lambda), request.criterion, request.sharing);
  if (request.loo) {
    dual_loo(out, reflection.from_complement(u), spectrum.values, p, reflection.from_complement(u_other), p_other, run);
  }
  if (request.solution) {
    // the remainder's W = B' U_u, and V = B' U diag(s)^(-1/2)
    out.path.remainder_vectors = transposed_product(b, u_other, run);
    out.path.remainder_projections = p_other;
    out.path.remainder_values = eigen.values.head(rows - 1 - r).cwiseMax(0.0);
    u.array().rowwise() *= spectrum.values.rsqrt().transpose();
    set_ridge_solution(out.path, transposed_product(b, u, run), z_mean, y_mean, total);
  } else {
    out.path.z_mean = z_mean;
    out.path.y_mean = y_mean;
    out.path.weight = total;
  }
  return out;
}

}  // namespace askrff
