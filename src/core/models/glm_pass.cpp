#include "core/models/glm_pass.h"

#include <algorithm>

#include "core/numerics/dense_product.h"

namespace askrff {

GlmSums::GlmSums(const GlmModels& models, int n_columns)
    : gradient(Eigen::MatrixXd::Zero(1 + n_columns, models.coefficients.cols())),
      deviance(Eigen::VectorXd::Zero(models.n_models())),
      exact(Eigen::VectorXd::Zero(models.n_models())),
      heldout(Eigen::VectorXd::Zero(models.n_models())),
      heldout_weight(Eigen::VectorXd::Zero(models.n_models())) {
  const Eigen::Index probes = models.directions.cols() > 0 ? static_cast<Eigen::Index>(models.probes.size()) : 0;
  probe_slope = Eigen::MatrixXd::Zero(models.n_models(), probes);
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
  if (models.directions.cols() > 0) {
    gemm(1.0, z, strided(models.directions.bottomRows(d)), 0.0, eta.data() + begin + (c + r) * eta.rows(), eta.rows());
    eta.block(begin, c + r, rows, c).rowwise() += models.directions.row(0);
  }
  if (block.offset.cols() > 0) {
    const int k = models.classes;
    for (Eigen::Index j = 0; j < c; ++j) eta.col(j).segment(begin, rows) += block.offset.col(j % k).segment(begin, rows);
    for (Eigen::Index j = 0; j < r; ++j) {
      eta.col(c + j).segment(begin, rows) += block.offset.col(models.reference_class(j)).segment(begin, rows);
    }
  }
  if (models.log_hazard.cols() == 0) return;
  const Eigen::Index events = models.log_hazard.rows() / 2;
  for (Eigen::Index i = begin; i < end; ++i) {
    const Eigen::Index at = block.rank[static_cast<std::size_t>(i)] + (block.y(i, 0) > 0.0 ? events : 0);
    for (Eigen::Index j = 0; j < c + r; ++j) eta(i, j) += models.log_hazard(at, j);
  }
}

namespace {

// The line search's sums of model m (GlmModels::directions): at each probe
// t, the slope -sum w residual a of the training rows' half loss at
// eta + (t - step) a, with a the direction's predictors.
void probe_rows(const GlmModels& models, const GlmBlock& block, const Eigen::MatrixXd& eta, int m, GlmSums& sums) {
  const int k = models.classes, fold = models.fold[static_cast<std::size_t>(m)];
  const Eigen::Index first = static_cast<Eigen::Index>(m) * k, rows = block.z.rows();
  const Eigen::Index along = models.coefficients.cols() + models.references.cols() + first;
  const double step = models.steps[static_cast<std::size_t>(m)];
  std::vector<double> buffer(3 * static_cast<std::size_t>(k));
  double *eta_row = buffer.data(), *y_row = eta_row + k, *r_row = y_row + k;
  for (std::size_t p = 0; p < models.probes.size(); ++p) {
    const double shift = models.probes[p] - step;
    double slope = 0.0;
    for (Eigen::Index i = 0; i < rows; ++i) {
      const double w = block.w(i);
      if (w == 0.0 || (fold != 0 && block.fold[static_cast<std::size_t>(i)] == fold)) continue;
      for (int j = 0; j < k; ++j) {
        eta_row[j] = eta(i, first + j) + shift * eta(i, along + j);
        y_row[j] = block.y(i, j);
      }
      models.family->row(eta_row, y_row, k, models.parameters, r_row, nullptr);
      for (int j = 0; j < k; ++j) slope -= w * r_row[j] * eta(i, along + j);
    }
    sums.probe_slope(m, static_cast<Eigen::Index>(p)) += slope;
  }
}

}  // namespace

void glm_model_rows(const GlmModels& models, const GlmBlock& block, const Eigen::MatrixXd& eta, int m,
                    Eigen::MatrixXd& residual, GlmSums& sums) {
  const int k = models.classes, fold = models.fold[static_cast<std::size_t>(m)];
  const Eigen::Index first = static_cast<Eigen::Index>(m) * k, rows = block.z.rows();
  const bool smoothed = models.parameters.width > 0.0;
  FamilyParameters unsmoothed = models.parameters;
  unsmoothed.width = 0.0;
  std::vector<double> buffer(4 * static_cast<std::size_t>(k));
  double *eta_row = buffer.data(), *y_row = eta_row + k, *r_row = y_row + k, *scratch = r_row + k;
  double deviance = 0.0, exact = 0.0, heldout = 0.0, heldout_weight = 0.0;
  for (Eigen::Index i = 0; i < rows; ++i) {
    const double w = block.w(i);
    for (int j = 0; j < k; ++j) residual(i, first + j) = 0.0;
    if (w == 0.0) continue;
    for (int j = 0; j < k; ++j) {
      eta_row[j] = eta(i, first + j);
      y_row[j] = block.y(i, j);
    }
    const bool held_out = fold != 0 && block.fold[static_cast<std::size_t>(i)] == fold;
    const double half = w * models.family->row(eta_row, y_row, k, held_out ? unsmoothed : models.parameters, r_row, nullptr);
    if (held_out) {
      heldout += half;
      heldout_weight += w;
      continue;
    }
    deviance += half;
    exact += smoothed ? w * models.family->row(eta_row, y_row, k, unsmoothed, scratch, nullptr) : half;
    for (int j = 0; j < k; ++j) residual(i, first + j) = w * r_row[j];
  }
  sums.deviance(m) += deviance;
  sums.exact(m) += exact;
  if (models.directions.cols() > 0) probe_rows(models, block, eta, m, sums);
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
    models.family->row(eta_row, y_row, k, models.parameters, r_row, v_row);
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
