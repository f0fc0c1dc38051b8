#include "core/models/glm_pass.h"

#include <algorithm>

#include "core/numerics/dense_product.h"

namespace askrff {

GlmSums::GlmSums(const GlmModels& models, int n_columns)
    : gradient(Eigen::MatrixXd::Zero(1 + n_columns, models.coefficients.cols())),
      deviance(Eigen::VectorXd::Zero(models.n_models())),
      heldout(Eigen::VectorXd::Zero(models.n_models())),
      heldout_weight(Eigen::VectorXd::Zero(models.n_models())) {
  const int n_hessians = models.n_references() * models.classes;
  hessians.reserve(n_hessians);
  for (int i = 0; i < n_hessians; ++i) hessians.emplace_back(n_columns, 0);
}

int GlmModels::reference_class(Eigen::Index c) const {
  const int j = static_cast<int>(c % classes), r = static_cast<int>(c / classes);
  return rotated_references ? (j + r) % classes : j;
}

void glm_predictors(const GlmModels& models, const GlmBlock& block, Eigen::Index begin, Eigen::Index end,
                    Eigen::MatrixXd& eta) {
  const Eigen::Index rows = end - begin, d = block.z.cols();
  const Eigen::Index c = models.coefficients.cols(), r = models.references.cols();
  const StridedMatrix z = strided(block.z.middleRows(begin, rows));
  gemm(1.0, z, strided(models.coefficients.bottomRows(d)), 0.0, eta.data() + begin, eta.rows());
  eta.block(begin, 0, rows, c).rowwise() += models.coefficients.row(0);
  if (r > 0) {
    gemm(1.0, z, strided(models.references.bottomRows(d)), 0.0, eta.data() + begin + c * eta.rows(), eta.rows());
    eta.block(begin, c, rows, r).rowwise() += models.references.row(0);
  }
  if (block.offset.cols() == 0) return;
  const int k = models.classes;
  for (Eigen::Index j = 0; j < c; ++j) eta.col(j).segment(begin, rows) += block.offset.col(j % k).segment(begin, rows);
  for (Eigen::Index j = 0; j < r; ++j) {
    eta.col(c + j).segment(begin, rows) += block.offset.col(models.reference_class(j)).segment(begin, rows);
  }
}

void glm_model_rows(const GlmModels& models, const GlmBlock& block, const Eigen::MatrixXd& eta, int m,
                    Eigen::MatrixXd& residual, GlmSums& sums) {
  const int k = models.classes, fold = models.fold[static_cast<std::size_t>(m)];
  const Eigen::Index first = static_cast<Eigen::Index>(m) * k, rows = block.z.rows();
  std::vector<double> buffer(3 * static_cast<std::size_t>(k));
  double *eta_row = buffer.data(), *y_row = eta_row + k, *r_row = y_row + k;
  double deviance = 0.0, heldout = 0.0, heldout_weight = 0.0;
  for (Eigen::Index i = 0; i < rows; ++i) {
    const double w = block.w(i);
    for (int j = 0; j < k; ++j) residual(i, first + j) = 0.0;
    if (w == 0.0) continue;
    for (int j = 0; j < k; ++j) {
      eta_row[j] = eta(i, first + j);
      y_row[j] = block.y(i, j);
    }
    const double half = w * models.family->row(eta_row, y_row, k, r_row, nullptr);
    if (fold != 0 && block.fold[static_cast<std::size_t>(i)] == fold) {
      heldout += half;
      heldout_weight += w;
      continue;
    }
    deviance += half;
    for (int j = 0; j < k; ++j) residual(i, first + j) = w * r_row[j];
  }
  sums.deviance(m) += deviance;
  sums.heldout(m) += heldout;
  sums.heldout_weight(m) += heldout_weight;
  sums.gradient.row(0).segment(first, k) += residual.middleCols(first, k).colwise().sum();
}

Eigen::MatrixXd glm_reference_weights(const GlmModels& models, const GlmBlock& block, const Eigen::MatrixXd& eta, int r) {
  const int k = models.classes;
  const Eigen::Index first = models.coefficients.cols() + static_cast<Eigen::Index>(r) * k, rows = block.z.rows();
  Eigen::MatrixXd weights(rows, k);
  std::vector<double> buffer(4 * static_cast<std::size_t>(k));
  double *eta_row = buffer.data(), *y_row = eta_row + k, *r_row = y_row + k, *v_row = r_row + k;
  for (Eigen::Index i = 0; i < rows; ++i) {
    for (int j = 0; j < k; ++j) {
      eta_row[j] = eta(i, first + j);
      y_row[j] = block.y(i, j);
    }
    models.family->row(eta_row, y_row, k, r_row, v_row);
    for (int j = 0; j < k; ++j) weights(i, j) = block.w(i) * v_row[j];
  }
  return weights;
}

void add_gradient_panel(GlmSums& sums, const Eigen::MatrixXd& z, const Eigen::MatrixXd& residual, int panel) {
  const Eigen::Index begin = static_cast<Eigen::Index>(panel) * kPanelWidth;
  const Eigen::Index width = std::min<Eigen::Index>(kPanelWidth, z.cols() - begin);
  gemm(1.0, strided(z.middleCols(begin, width)).transpose(), strided(residual), 1.0, sums.gradient.data() + 1 + begin,
       sums.gradient.rows());
}

}  // namespace askrff
