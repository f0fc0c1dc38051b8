#include "core/numerics/spectral_norm.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/numerics/symmetric_eigen.h"

namespace askrff {
namespace {

// The lower triangle of A'A when A has at least as many rows as columns,
// else of AA': rank updates by blocks of A's rows (or columns) of about
// 1e8 flops each, with a poll between.
Eigen::MatrixXd smaller_gram(const Eigen::Ref<const Eigen::MatrixXd>& a, const Poll& poll) {
  const bool by_rows = a.rows() >= a.cols();
  const Eigen::Index size = by_rows ? a.cols() : a.rows(), length = by_rows ? a.rows() : a.cols();
  const double per_update = 1e8 / (static_cast<double>(size) * static_cast<double>(size));
  const Eigen::Index block = static_cast<Eigen::Index>(std::clamp(per_update, 8.0, 256.0));
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(size, size);
  for (Eigen::Index begin = 0; begin < length; begin += block) {
    const Eigen::Index width = std::min(block, length - begin);
    if (by_rows) {
      gram.selfadjointView<Eigen::Lower>().rankUpdate(a.middleRows(begin, width).transpose());
    } else {
      gram.selfadjointView<Eigen::Lower>().rankUpdate(a.middleCols(begin, width));
    }
    poll();
  }
  return gram;
}

}  // namespace

double spectral_norm(const Eigen::Ref<const Eigen::MatrixXd>& a, const Poll& poll) {
  if (a.size() == 0) throw std::invalid_argument("the matrix of a spectral norm must not be empty");
  if (!a.allFinite()) throw std::invalid_argument("the matrix of a spectral norm must be finite");
  // entries in [-1, 1], so that norms and A'A neither overflow nor underflow
  const double scale = a.cwiseAbs().maxCoeff();
  if (scale == 0.0) return 0.0;
  const Eigen::MatrixXd b = a / scale;
  if (b.rows() == b.cols()) {
    // For B = S + K, S symmetric and K skew: |sigma_1(B) - max |lambda(S)||
    // <= ||K||_2 <= ||K||_F, and max |lambda(S)| >= ||S||_F / sqrt(n).
    Eigen::MatrixXd symmetric = (b + b.transpose()) / 2.0;
    const double skew = (b - b.transpose()).norm() / 2.0;
    if (skew <= 1e-12 * symmetric.norm() / std::sqrt(static_cast<double>(b.rows()))) {
      const Eigen::VectorXd values = symmetric_eigen(std::move(symmetric), false, poll).values;
      return scale * std::max(-values(0), values(values.size() - 1));
    }
  }
  const Eigen::VectorXd values = symmetric_eigen(smaller_gram(b, poll), false, poll).values;
  return scale * std::sqrt(std::max(values(values.size() - 1), 0.0));
}

}  // namespace askrff
