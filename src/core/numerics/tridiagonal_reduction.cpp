// Golub and Van Loan's Householder tridiagonalization (section 8.3.1) by
// panels, as LAPACK's dsytrd: within a panel of kPanel columns each column
// receives the updates of the panel's earlier reflectors as they are needed
// (A - V W' - W V' applied to one column), and the rest of the matrix gets
// them all at once by a rank-2k matrix product. The symmetric matrix-vector
// product with the trailing matrix, one per column, is the other half of the
// work and is limited by memory bandwidth.
#include "core/numerics/tridiagonal_reduction.h"

#include <algorithm>
#include <vector>

#include "core/numerics/dense_product.h"
#include "core/numerics/symmetric_matrix_vector.h"

namespace askrff {
namespace {

using Eigen::Index;

constexpr Index kPanel = 32;      // columns of a panel of the reduction
constexpr Index kBlock = 128;     // reflectors applied together by apply_tridiagonal_factor()
constexpr double kFlopsPerProduct = 5e8;  // a product's size between polls, 0.01 to 0.05 s

// The trailing update A -= V W' + W V' of the lower triangle, as one
// product [V W] [W V]' of inner size 2k from a buffer holding [V W V].
void update_trailing(Eigen::Ref<Eigen::MatrixXd> trailing, const Eigen::Ref<const Eigen::MatrixXd>& v,
                     const Eigen::Ref<const Eigen::MatrixXd>& w, Eigen::MatrixXd& buffer) {
  const Index m = trailing.rows(), k = v.cols();
  buffer.resize(m, 3 * k);
  buffer.leftCols(k) = v;
  buffer.middleCols(k, k) = w;
  buffer.rightCols(k) = v;
  gemm_lower(-1.0, strided(buffer.leftCols(2 * k)), strided(buffer.rightCols(2 * k)).transpose(), 1.0,
             trailing.data(), trailing.outerStride());
}

}  // namespace

TridiagonalForm reduce_to_tridiagonal(Eigen::MatrixXd& a, const Poll& poll, const Progress& done) {
  const Index n = a.rows();
  TridiagonalForm out;
  out.diagonal.resize(n);
  out.subdiagonal.resize(std::max<Index>(n - 1, 0));
  out.tau.resize(std::max<Index>(n - 1, 0));
  Eigen::MatrixXd w(n, kPanel), buffer;
  Eigen::VectorXd t(kPanel);
  for (Index k = 0; k < n - 1; k += kPanel) {
    const Index b = std::min(kPanel, n - 1 - k), m = n - k;
    auto panel = a.bottomRightCorner(m, m);
    auto wp = w.topRows(m);
    for (Index i = 0; i < b; ++i) {
      // column i gets the updates of the panel's earlier reflectors
      if (i > 0) {
        panel.col(i).tail(m - i).noalias() -= panel.block(i, 0, m - i, i) * wp.row(i).head(i).transpose();
        panel.col(i).tail(m - i).noalias() -= wp.block(i, 0, m - i, i) * panel.row(i).head(i).transpose();
      }
      out.diagonal[k + i] = panel(i, i);
      const Index rest = m - i - 1;
      auto v = panel.col(i).tail(rest);
      double beta, tau;
      v.makeHouseholderInPlace(tau, beta);
      out.subdiagonal[k + i] = beta;
      out.tau[k + i] = tau;
      v[0] = 1.0;
      // p = tau (A - V W' - W V') v with A as at the panel's start, w = p - (tau / 2) (p'v) v
      auto wi = wp.col(i).tail(rest);
      symmetric_matrix_vector(&panel(i + 1, i + 1), rest, a.outerStride(), v.data(), wi.data());
      if (i > 0) {
        t.head(i).noalias() = wp.block(i + 1, 0, rest, i).transpose() * v;
        wi.noalias() -= panel.block(i + 1, 0, rest, i) * t.head(i);
        t.head(i).noalias() = panel.block(i + 1, 0, rest, i).transpose() * v;
        wi.noalias() -= wp.block(i + 1, 0, rest, i) * t.head(i);
      }
      wi *= tau;
      wi += (-0.5 * tau * wi.dot(v)) * v;
      poll();
    }
    if (m > b) update_trailing(panel.bottomRightCorner(m - b, m - b), panel.block(b, 0, m - b, b),
                               wp.block(b, 0, m - b, b), buffer);
    for (Index i = 0; i < b; ++i) panel(i + 1, i) = out.subdiagonal[k + i];
    const double left = static_cast<double>(m - b) / static_cast<double>(n);
    done(1.0 - left * left * left);
    poll();
  }
  if (n > 0) out.diagonal[n - 1] = a(n - 1, n - 1);
  return out;
}

void apply_tridiagonal_factor(const Eigen::MatrixXd& a, const Eigen::VectorXd& tau, Eigen::MatrixXd& z,
                              const Poll& poll, const Progress& done) {
  const Index n = a.rows(), reflectors = n - 1, cols = z.cols();
  Eigen::MatrixXd v, vt, t, g, w;
  const Index blocks = (reflectors + kBlock - 1) / kBlock;
  double work = 0.0;
  const double total = static_cast<double>(n) * static_cast<double>(n) / 2.0;
  // Q z = H_0 (H_1 (... H_{n-2} z)): the last block first
  for (Index block = blocks - 1; block >= 0; --block) {
    const Index j0 = block * kBlock, size = std::min(kBlock, reflectors - j0), rows = n - j0 - 1;
    // V, unit lower trapezoidal, and T, upper triangular, with
    // H_j0 ... H_j0+size-1 = I - V T V' (LAPACK's dlarft): column c of T
    // is -tau_c T V' v_c above the diagonal
    v = a.block(j0 + 1, j0, rows, size);
    v.triangularView<Eigen::StrictlyUpper>().setZero();
    v.diagonal().setOnes();
    g.resize(size, size);
    gemm(1.0, strided(v).transpose(), strided(v), 0.0, g.data(), size);
    t.setZero(size, size);
    for (Index c = 0; c < size; ++c) {
      t(c, c) = tau[j0 + c];
      t.col(c).head(c).noalias() = t.topLeftCorner(c, c).triangularView<Eigen::Upper>() * g.col(c).head(c);
      t.col(c).head(c) *= -tau[j0 + c];
    }
    vt.resize(rows, size);
    gemm(1.0, strided(v), strided(t), 0.0, vt.data(), rows);
    // z -= (V T) (V' z), a panel of columns at a time
    const double per_column = 4.0 * static_cast<double>(rows) * static_cast<double>(size);
    const Index panel = std::max<Index>(64, static_cast<Index>(kFlopsPerProduct / per_column));
    for (Index c0 = 0; c0 < cols; c0 += panel) {
      const Index width = std::min(panel, cols - c0);
      auto target = z.block(j0 + 1, c0, rows, width);
      w.resize(size, width);
      gemm(1.0, strided(v).transpose(), strided(target), 0.0, w.data(), size);
      gemm(-1.0, strided(vt), strided(w), 1.0, target.data(), z.outerStride());
      poll();
    }
    work += static_cast<double>(rows) * static_cast<double>(size);
    done(std::min(1.0, work / total));
  }
}

}  // namespace askrff
