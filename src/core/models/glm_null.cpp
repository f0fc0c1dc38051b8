#include "core/models/glm_null.h"

#include <stdexcept>
#include <vector>

#include "core/models/glm_path_hessian.h"

namespace askrff {

GlmNullSums glm_null_sums(const ModelFamily& family, const FamilyParameters& parameters,
                          const Eigen::Ref<const Eigen::MatrixXd>& offset,
                          const Eigen::Ref<const Eigen::MatrixXd>& y, const Eigen::Ref<const Eigen::VectorXd>& w,
                          const Eigen::VectorXd& intercept) {
  const int k = static_cast<int>(intercept.size());
  const Eigen::Index n = y.rows();
  if (k < 1 || y.cols() != k || offset.cols() != k || offset.rows() != n || w.size() != n) {
    throw std::invalid_argument("the offsets, responses and intercepts must have one column per predictor and one row per row");
  }
  const ModelFamily& curvatures = class_hessian_rows();
  GlmNullSums sums;
  sums.residual = Eigen::VectorXd::Zero(k);
  sums.hessian = Eigen::MatrixXd::Zero(k, k);
  sums.mean = Eigen::VectorXd::Zero(k);
  std::vector<double> buffer(5 * static_cast<std::size_t>(k));
  double *eta = buffer.data(), *y_row = eta + k, *r = y_row + k, *c = r + k, *rotated = c + k;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double weight = w(i);
    if (weight == 0.0) continue;
    for (int j = 0; j < k; ++j) {
      eta[j] = intercept(j) + offset(i, j);
      y_row[j] = y(i, j);
    }
    sums.half += weight * family.row(eta, y_row, k, parameters, r, c);
    sums.weight += weight;
    for (int j = 0; j < k; ++j) sums.residual(j) += weight * r[j];
    if (family.mean != nullptr) {
      family.mean(eta, k, r);
      for (int j = 0; j < k; ++j) sums.mean(j) += weight * r[j];
    }
    if (family.response != ResponseKind::classes) {
      for (int j = 0; j < k; ++j) sums.hessian(j, j) += weight * c[j];
      continue;
    }
    // row a of diag(p) - pp': the first row of the classes rotated to start at a
    for (int a = 0; a < k; ++a) {
      for (int j = 0; j < k; ++j) rotated[j] = eta[(a + j) % k];
      curvatures.row(rotated, nullptr, k, parameters, r, c);
      for (int j = 0; j < k; ++j) sums.hessian(a, (a + j) % k) += weight * c[j];
    }
  }
  return sums;
}

Eigen::VectorXd glm_null_start(const ModelFamily& family, const FamilyParameters& parameters, const Eigen::VectorXd& mean,
                               const Eigen::VectorXd& offset_mean) {
  const int k = static_cast<int>(mean.size());
  if (k < 1 || offset_mean.size() != k) throw std::invalid_argument("the offsets' means must have one entry per predictor");
  Eigen::VectorXd intercept(k);
  Eigen::MatrixXd a(k, k);
  family.null_model(mean.data(), k, parameters, intercept.data(), a.data());
  intercept -= offset_mean;
  if (family.response == ResponseKind::classes) intercept.array() -= intercept.mean();
  return intercept;
}

}  // namespace askrff
