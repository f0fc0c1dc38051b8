#include "core/models/glm_path_hessian.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/numerics/dense_product.h"

namespace askrff {

namespace {

// The first row of diag(p) - pp' for p the softmax of eta, with p_0 (1 -
// p_0) from the other classes' share so that it keeps its precision as p_0
// approaches 1.
double hessian_row(const double* eta, const double*, int k, const FamilyParameters&, double* residual, double* curvature) {
  const double top = *std::max_element(eta, eta + k);
  double total = 0.0;
  for (int j = 0; j < k; ++j) total += std::exp(eta[j] - top);
  const double first = std::exp(eta[0] - top), p0 = first / total;
  for (int j = 0; j < k; ++j) {
    residual[j] = 0.0;
    if (curvature) curvature[j] = j == 0 ? p0 * ((total - first) / total) : -p0 * (std::exp(eta[j] - top) / total);
  }
  return 0.0;
}

// The factorizations below work in blocks of this many columns, so that
// their O(n^3) parts are products on the dispatched kernels.
constexpr Eigen::Index kBlock = 192;

// The Cholesky factor L of m (lower triangle read, L written over it; the
// upper triangle is left as it was) by columns of blocks; false when m is
// not positive definite.
bool cholesky(Eigen::MatrixXd& m, const Poll& poll) {
  const Eigen::Index n = m.rows();
  for (Eigen::Index j = 0; j < n; j += kBlock) {
    const Eigen::Index b = std::min(kBlock, n - j), rest = n - j - b;
    const Eigen::LLT<Eigen::MatrixXd> diagonal(m.block(j, j, b, b));
    if (diagonal.info() != Eigen::Success) return false;
    m.block(j, j, b, b).triangularView<Eigen::Lower>() = diagonal.matrixL();
    if (rest > 0) {
      Eigen::Block<Eigen::MatrixXd> below = m.block(j + b, j, rest, b);
      diagonal.matrixU().solveInPlace<Eigen::OnTheRight>(below);  // below L^-T
      gemm_lower(-1.0, strided(below), strided(below).transpose(), 1.0, &m(j + b, j + b), n);
    }
    poll();
  }
  return true;
}

// L^-1 of the lower triangle L of m, by rows of blocks: X_ii = L_ii^-1 and
// X_i,<i = -L_ii^-1 L_i,<i X_<i,<i.
Eigen::MatrixXd lower_inverse(const Eigen::MatrixXd& m, const Poll& poll) {
  const Eigen::Index n = m.rows();
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(n, n), product;
  for (Eigen::Index i = 0; i < n; i += kBlock) {
    const Eigen::Index b = std::min(kBlock, n - i);
    const auto diagonal = m.block(i, i, b, b).triangularView<Eigen::Lower>();
    x.block(i, i, b, b).triangularView<Eigen::Lower>() = diagonal.solve(Eigen::MatrixXd::Identity(b, b));
    if (i > 0) {
      product.resize(b, i);
      gemm(1.0, strided(m.block(i, 0, b, i)), strided(x.topLeftCorner(i, i)), 0.0, product.data(), b);
      x.block(i, 0, b, i) = -diagonal.solve(product);
    }
    poll();
  }
  return x;
}

}  // namespace

const ModelFamily& class_hessian_rows() {
  static const ModelFamily family{"class_hessian", "softmax Hessian", ResponseKind::classes, "", false, false,
                                  hessian_row, nullptr, nullptr};
  return family;
}

Eigen::MatrixXd class_hessian_references(const Eigen::MatrixXd& coefficients) {
  const Eigen::Index k = coefficients.cols();
  Eigen::MatrixXd out(coefficients.rows(), k * k);
  for (Eigen::Index r = 0; r < k; ++r) {
    for (Eigen::Index j = 0; j < k; ++j) out.col(r * k + j) = coefficients.col((j + r) % k);
  }
  return out;
}

Eigen::MatrixXd whole_hessian(const std::vector<CrossProducts>& sums, int classes) {
  const std::size_t k = static_cast<std::size_t>(classes);
  if (classes < 1 || sums.size() != (k == 1 ? 1 : k * k)) {
    throw std::invalid_argument("the whole Hessian needs one sum for one class and K^2 for K classes");
  }
  const Eigen::Index d = sums[0].zz.rows(), p = 1 + d;
  Eigen::MatrixXd h(static_cast<Eigen::Index>(k) * p, static_cast<Eigen::Index>(k) * p);
  for (std::size_t r = 0; r < k; ++r) {
    for (std::size_t j = 0; j < k; ++j) {
      const CrossProducts& c = sums[r * k + j];
      if (c.zz.rows() != d) throw std::invalid_argument("the Hessian's sums must have one size");
      Eigen::MatrixXd block(p, p);
      block(0, 0) = c.weight;
      block.col(0).tail(d) = c.z_sum;
      block.row(0).tail(d) = c.z_sum.transpose();
      block.bottomRightCorner(d, d) = c.zz.selfadjointView<Eigen::Lower>();
      const Eigen::Index a = static_cast<Eigen::Index>(r), b = static_cast<Eigen::Index>((j + r) % k);
      h.block(a * p, b * p, p, p) = block;
    }
  }
  // blocks (a, b) and (b, a) come from two references, equal up to rounding
  return (h + h.transpose()) / 2.0;
}

GlmCovariance laplace_covariance(const Eigen::MatrixXd& hessian, int classes, double lambda, const Poll& poll) {
  const Eigen::Index n = hessian.rows(), k = classes, p = k > 0 ? n / k : 0;
  if (k < 1 || p < 1 || n != k * p || hessian.cols() != n || !(lambda > 0.0)) {
    throw std::invalid_argument("the Hessian must be square with one block per class, and lambda positive");
  }
  const GlmCovariance undefined{Eigen::MatrixXd(), std::numeric_limits<double>::quiet_NaN()};
  Eigen::MatrixXd m = hessian;
  double intercepts = 0.0;
  for (Eigen::Index c = 0; c < k; ++c) {
    m.diagonal().segment(c * p + 1, p - 1).array() += lambda;
    intercepts += hessian(c * p, c * p) / static_cast<double>(k);
  }
  // c u u' with c of the intercepts' scale, which keeps m's condition
  const double c = intercepts > 0.0 ? intercepts : 1.0;
  if (k > 1) {
    for (Eigen::Index a = 0; a < k; ++a) {
      for (Eigen::Index b = 0; b < k; ++b) m(a * p, b * p) += c / static_cast<double>(k);
    }
  }
  if (!m.allFinite() || !cholesky(m, poll)) return undefined;
  // m^-1 = L^-T L^-1
  const Eigen::MatrixXd inverse_factor = lower_inverse(m, poll);
  GlmCovariance out{Eigen::MatrixXd(n, n), 0.0};
  gemm_lower(1.0, strided(inverse_factor).transpose(), strided(inverse_factor), 0.0, out.covariance.data(), n);
  mirror_lower(out.covariance.data(), n, n);
  if (k > 1) {
    for (Eigen::Index a = 0; a < k; ++a) {
      for (Eigen::Index b = 0; b < k; ++b) out.covariance(a * p, b * p) -= 1.0 / (c * static_cast<double>(k));
    }
  }
  // tr(C H) of symmetric C and H (u'H = 0 drops the u u' term)
  out.df = out.covariance.cwiseProduct(hessian).sum();
  if (!out.covariance.allFinite() || !std::isfinite(out.df)) return undefined;
  return out;
}

GlmCovariance laplace_covariance(const GlmReference& reference, double lambda) {
  const Eigen::Index d = reference.vectors.rows();
  if (!(lambda > 0.0) || !(reference.weight > 0.0)) {
    throw std::invalid_argument("lambda and the weight must be positive");
  }
  const Eigen::ArrayXd shrink = (reference.values.array() + lambda).inverse();
  const Eigen::MatrixXd scaled = reference.vectors * shrink.matrix().asDiagonal();
  GlmCovariance out{Eigen::MatrixXd(1 + d, 1 + d), 1.0 + (reference.values.array() * shrink).sum()};
  Eigen::Ref<Eigen::MatrixXd> features = out.covariance.bottomRightCorner(d, d);
  const std::ptrdiff_t stride = features.outerStride();
  gemm_lower(1.0, strided(scaled), strided(reference.vectors).transpose(), 0.0, features.data(), stride);
  mirror_lower(features.data(), d, stride);
  const Eigen::VectorXd cross = -(features * reference.mean);
  out.covariance(0, 0) = 1.0 / reference.weight - reference.mean.dot(cross);
  out.covariance.col(0).tail(d) = cross;
  out.covariance.row(0).tail(d) = cross.transpose();
  if (!out.covariance.allFinite()) return GlmCovariance{Eigen::MatrixXd(), std::numeric_limits<double>::quiet_NaN()};
  return out;
}

double saturated_log_likelihood(const ModelFamily& family, const double* y) {
  if (!family.likelihood) return std::numeric_limits<double>::quiet_NaN();
  switch (family.response) {
    case ResponseKind::two_classes:
    case ResponseKind::classes:
    case ResponseKind::survival:  // the partial likelihood's deviance is -2 l
      return 0.0;
    case ResponseKind::counts:
      return (y[0] > 0.0 ? y[0] * std::log(y[0]) : 0.0) - y[0] - std::lgamma(y[0] + 1.0);
    case ResponseKind::values:
    case ResponseKind::real:
      break;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace askrff
