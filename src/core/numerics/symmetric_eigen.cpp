// The eigendecomposition of a symmetric matrix as LAPACK's dsyevd computes
// it: reduction to tridiagonal form by blocked Householder reflectors,
// Cuppen's divide and conquer on the tridiagonal matrix, and the reflectors
// applied to its eigenvectors by blocks. Matrix products do most of the
// work; the rest is the reduction's matrix-vector products.
#include "core/numerics/symmetric_eigen.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/numerics/tridiagonal_divide_conquer.h"
#include "core/numerics/tridiagonal_reduction.h"

namespace askrff {
namespace {

using Eigen::Index;

// Shares of the work of each phase in the progress reported, from timings
// at a few thousand columns.
constexpr double kReductionShare = 0.38, kDivideShare = 0.24;

// Reports `fraction` of the phase that spans [begin, begin + width).
struct Phase {
  const Progress& progress;
  double begin, width;
  void operator()(double fraction) const { progress(begin + width * std::min(1.0, std::max(0.0, fraction))); }
};

}  // namespace

SymmetricEigen symmetric_eigen(Eigen::MatrixXd a, bool vectors, const Poll& poll, const Progress& progress) {
  const Index n = a.rows();
  if (a.cols() != n) throw std::invalid_argument("the matrix of a symmetric eigendecomposition must be square");
  // entries in [-1, 1] against overflow and underflow
  double scale = 0.0;
  for (Index j = 0; j < n; ++j) {
    const auto column = a.col(j).tail(n - j);
    if (!column.allFinite()) throw std::invalid_argument("the matrix of a symmetric eigendecomposition must be finite");
    scale = std::max(scale, column.cwiseAbs().maxCoeff());
    if (j % 256 == 255) poll();
  }
  SymmetricEigen out;
  if (n <= 1) {
    out.values = a.diagonal();
    if (vectors) out.vectors = Eigen::MatrixXd::Ones(n, n);
    progress(1.0);
    return out;
  }
  if (scale == 0.0) scale = 1.0;
  for (Index j = 0; j < n; ++j) {
    a.col(j).tail(n - j) /= scale;
    if (j % 256 == 255) poll();
  }

  const double reduction_share = vectors ? kReductionShare : 0.9, divide_share = vectors ? kDivideShare : 0.1;
  const TridiagonalForm form = reduce_to_tridiagonal(a, poll, Phase{progress, 0.0, reduction_share});
  TridiagonalEigen tridiagonal = tridiagonal_eigen(form.diagonal, form.subdiagonal, vectors, poll,
                                                   Phase{progress, reduction_share, divide_share});
  if (vectors) {
    apply_tridiagonal_factor(a, form.tau, tridiagonal.vectors, poll,
                             Phase{progress, reduction_share + divide_share, 1.0 - reduction_share - divide_share});
    out.vectors = std::move(tridiagonal.vectors);
  }
  out.values = tridiagonal.values * scale;
  progress(1.0);
  return out;
}

}  // namespace askrff
