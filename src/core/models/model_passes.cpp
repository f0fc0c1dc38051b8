#include "core/models/model_passes.h"

#include <algorithm>
#include <vector>

#include "core/models/cv_folds.h"

namespace askrff {

std::size_t pass_rows(int columns) {
  return static_cast<std::size_t>(std::clamp(4000000 / std::max(columns, 1), 64, 1024));
}

void shifted_features(const FeatureMap& map, const double* x, std::size_t n, std::size_t begin, std::size_t rows,
                      const ConstVectorRef& shift, const BlockRunner& run, Eigen::MatrixXd& z) {
  z.resize(static_cast<Eigen::Index>(rows), map.n_columns());
  double* zp = z.data();
  run_row_blocks(rows, map.row_cost(), kFeatureBlockRows, run,
                 [&](std::size_t b, std::size_t e) { map.rows(x, n, begin + b, begin + e, zp + b, rows); });
  z.rowwise() -= shift.transpose();
}

namespace {

std::size_t to_size(int n) { return static_cast<std::size_t>(n); }

// The rows `kept` of z into `to`, and times their weights v into
// `weighted`, in panel p's columns (cross_products.h).
void gather_rows_panel(const Eigen::MatrixXd& z, const Eigen::VectorXd& v, const std::vector<Eigen::Index>& kept,
                       int panel, Eigen::MatrixXd& to, Eigen::MatrixXd& weighted) {
  const Eigen::Index begin = static_cast<Eigen::Index>(panel) * kPanelWidth;
  const Eigen::Index end = std::min<Eigen::Index>(begin + kPanelWidth, z.cols());
  const Eigen::Index count = static_cast<Eigen::Index>(kept.size());
  for (Eigen::Index j = begin; j < end; ++j) {
    const double* from = z.col(j).data();
    double* plain = to.col(j).data();
    double* scaled = weighted.col(j).data();
    for (Eigen::Index c = 0; c < count; ++c) {
      const Eigen::Index i = kept[static_cast<std::size_t>(c)];
      plain[c] = from[i];
      scaled[c] = v(i) * from[i];
    }
  }
}

// The folds of rows [begin, begin + rows) (all 0 without folds).
void block_folds(const RowFolds& folds, std::size_t begin, std::size_t rows, std::vector<int>& fold) {
  fold.assign(rows, 0);
  if (folds.n_folds < 2) return;
  for (std::size_t i = 0; i < rows; ++i) fold[i] = cv_fold(folds.seed, folds.first_row + begin + i, folds.n_folds);
}

// The rows' time ranks of rows [begin, begin + rows) (none without).
void block_ranks(const std::vector<int>& rank, std::size_t begin, std::size_t rows, std::vector<int>& out) {
  if (rank.empty()) {
    out.clear();
    return;
  }
  const auto first = rank.begin() + static_cast<std::ptrdiff_t>(begin);
  out.assign(first, first + static_cast<std::ptrdiff_t>(rows));
}

// Rows a pass holds at once: as pass_rows() for the features and for eta
// of these predictors.
std::size_t glm_block_rows(int columns, Eigen::Index predictors) {
  return std::min(pass_rows(columns), pass_rows(static_cast<int>(predictors)));
}

// eta of rows [0, r) of the block, on the runner's threads.
void block_predictors(const GlmModels& models, const GlmBlock& block, const BlockRunner& run, Eigen::MatrixXd& eta) {
  const Eigen::Index r = block.z.rows();
  const std::size_t sub = kFeatureBlockRows, rows = static_cast<std::size_t>(r);
  run((rows + sub - 1) / sub, [&](std::size_t b) {
    const Eigen::Index from = static_cast<Eigen::Index>(b * sub);
    glm_predictors(models, block, from, std::min<Eigen::Index>(r, from + static_cast<Eigen::Index>(sub)), eta);
  });
}

// The blocks of a GLM pass's rows: each block's shifted features, its rows
// of the responses, weights, offsets, folds and time ranks, and eta of the
// `predictors` columns of `models`, handed to body(block, begin, eta).
template <typename Body>
void glm_blocks(const FeatureMap& map, const double* x, std::size_t n, const GlmModels& models, Eigen::Index predictors,
                const ConstMatrixRef& y, const ConstVectorRef& w, const ConstMatrixRef& offset,
                const std::vector<int>& rank, const RowFolds& folds, const ConstVectorRef& z_shift,
                const BlockRunner& run, Body body) {
  const std::size_t block = glm_block_rows(map.n_columns(), predictors);
  Eigen::MatrixXd z, y_block, offset_block, eta;
  Eigen::VectorXd w_block;
  std::vector<int> fold, rank_block;
  for (std::size_t begin = 0; begin < n; begin += block) {
    const std::size_t rows = std::min(block, n - begin);
    const Eigen::Index first = static_cast<Eigen::Index>(begin), r = static_cast<Eigen::Index>(rows);
    shifted_features(map, x, n, begin, rows, z_shift, run, z);
    y_block = y.middleRows(first, r);
    w_block = w.segment(first, r);
    offset_block = offset.middleRows(first, r);
    block_folds(folds, begin, rows, fold);
    block_ranks(rank, begin, rows, rank_block);
    const GlmBlock rows_of{z, y_block, w_block, fold, offset_block, rank_block};
    eta.resize(r, predictors);
    block_predictors(models, rows_of, run, eta);
    body(rows_of, begin, eta);
  }
}

}  // namespace

CrossProducts sum_cross_products(const FeatureMap& map, const double* x, std::size_t n, const ConstMatrixRef& y,
                                 const ConstVectorRef& w, const ConstVectorRef& z_shift,
                                 const ConstVectorRef& y_shift, const BlockRunner& run) {
  const int columns = map.n_columns(), responses = static_cast<int>(y.cols());
  const std::size_t block = pass_rows(columns);
  CrossProducts sums(columns, responses);
  Eigen::MatrixXd z, weighted_z, y_block;
  Eigen::VectorXd w_block;
  for (std::size_t begin = 0; begin < n; begin += block) {
    const std::size_t rows = std::min(block, n - begin);
    const Eigen::Index first = static_cast<Eigen::Index>(begin), r = static_cast<Eigen::Index>(rows);
    shifted_features(map, x, n, begin, rows, z_shift, run, z);
    y_block = y.middleRows(first, r).rowwise() - y_shift.transpose();
    w_block = w.segment(first, r);
    weighted_z = z.array().colwise() * w_block.array();
    run(to_size(n_panels(columns)), [&](std::size_t p) { add_panel(sums, z, weighted_z, y_block, static_cast<int>(p)); });
    add_responses(sums, y_block, w_block);
  }
  return sums;
}

GlmSums glm_pass(const FeatureMap& map, const double* x, std::size_t n, const GlmModels& models,
                 const ConstMatrixRef& y, const ConstVectorRef& w, const ConstMatrixRef& offset,
                 const std::vector<int>& rank, const RowFolds& folds, const ConstVectorRef& z_shift,
                 const BlockRunner& run) {
  const int columns = map.n_columns(), classes = models.classes;
  const int n_models = models.n_models(), n_references = models.n_references();
  const Eigen::Index predictors = models.coefficients.cols() + models.references.cols() + models.directions.cols();
  GlmSums sums(models, columns);
  Eigen::MatrixXd residual, weighted_z, curved_z;
  std::vector<Eigen::Index> kept;
  const std::size_t panels = to_size(n_panels(columns));
  glm_blocks(map, x, n, models, predictors, y, w, offset, rank, folds, z_shift, run,
             [&](const GlmBlock& rows_of, std::size_t begin, const Eigen::MatrixXd& eta) {
    const Eigen::MatrixXd& z = rows_of.z;
    const Eigen::Index r = z.rows();
    const Eigen::MatrixXd no_response(r, 0);  // the Hessians' sums carry no response
    residual.resize(r, models.coefficients.cols());
    run(to_size(n_models), [&](std::size_t m) { glm_model_rows(models, rows_of, eta, static_cast<int>(m), residual, sums); });
    run(panels, [&](std::size_t p) { add_gradient_panel(sums, z, residual, static_cast<int>(p)); });
    // a sampled Hessian's rows, weighted by the inverse of their share
    Eigen::VectorXd sampled;
    if (n_references > 0 && models.hessian_every > 1) {
      sampled.resize(r);
      for (Eigen::Index i = 0; i < r; ++i) {
        const bool in = hessian_row(folds.seed, folds.first_row + begin + static_cast<std::size_t>(i), models.hessian_every);
        sampled(i) = in ? models.hessian_every : 0.0;
      }
    }
    for (int reference = 0; reference < n_references; ++reference) {
      Eigen::MatrixXd weights = glm_reference_weights(models, rows_of, eta, reference);
      if (sampled.size() > 0) weights.array().colwise() *= sampled.array();
      for (int k = 0; k < classes; ++k) {
        CrossProducts& hessian = sums.hessians[to_size(reference * classes + k)];
        // rows without curvature (past a margin, outside a kink's band) add
        // nothing: the product takes the others only
        const Eigen::VectorXd v = weights.col(k);
        const Eigen::Index curved = (v.array() != 0.0).count();
        const Eigen::MatrixXd* rows_z = &z;
        if (curved < r) {
          kept.clear();
          for (Eigen::Index i = 0; i < r; ++i) {
            if (v(i) != 0.0) kept.push_back(i);
          }
          curved_z.resize(curved, z.cols());
          weighted_z.resize(curved, z.cols());
          // column by column, in the panels' threads: a row of a
          // column-major block is strided, a column contiguous
          run(panels, [&](std::size_t p) { gather_rows_panel(z, v, kept, static_cast<int>(p), curved_z, weighted_z); });
          rows_z = &curved_z;
        } else {
          weighted_z = z.array().colwise() * v.array();
        }
        run(panels, [&](std::size_t p) { add_panel(hessian, *rows_z, weighted_z, no_response, static_cast<int>(p)); });
        add_responses(hessian, no_response, v);
      }
    }
  });
  return sums;
}

CoxRiskSums cox_risk_pass(const FeatureMap& map, const double* x, std::size_t n, const GlmModels& models,
                          const ConstMatrixRef& y, const ConstVectorRef& w, const ConstMatrixRef& offset,
                          const std::vector<int>& rank, int times, const RowFolds& folds,
                          const ConstVectorRef& z_shift, const BlockRunner& run) {
  const int n_models = models.n_models();
  const Eigen::Index predictors = models.coefficients.cols() + models.references.cols();
  CoxRiskSums sums(times, predictors, folds.n_folds);
  glm_blocks(map, x, n, models, predictors, y, w, offset, rank, folds, z_shift, run,
             [&](const GlmBlock& rows_of, std::size_t, const Eigen::MatrixXd& eta) {
    // each column owns its sums: the same for any thread count
    run(static_cast<std::size_t>(predictors), [&](std::size_t c) {
      const int f = c < static_cast<std::size_t>(n_models) ? models.fold[c] : 0;
      add_cox_risk_rows(rows_of, rows_of.rank, eta, static_cast<Eigen::Index>(c), f, sums);
    });
    add_cox_events(rows_of, rows_of.rank, sums);
  });
  return sums;
}

LooSums ridge_loo_sums(const FeatureMap& map, const double* x, std::size_t n, const ConstMatrixRef& y,
                       const ConstVectorRef& w, const RidgeLoo& model, const BlockRunner& run) {
  const int columns = map.n_columns();
  const Eigen::Index lambdas = model.lambda.rows(), responses = y.cols(), r = model.vectors.cols();
  const std::size_t block = 1024;
  LooSums sums{Eigen::VectorXd::Zero(lambdas * responses), Eigen::VectorXd::Zero(lambdas * responses)};
  const double row_cost = map.row_cost() + kProductWeight * 2.0 * columns * r +
                          kProductWeight * 2.0 * static_cast<double>(lambdas * r * (responses + 1));
  LooTerms terms;
  for (std::size_t begin = 0; begin < n; begin += block) {
    const std::size_t rows = std::min(block, n - begin);
    terms.press.resize(static_cast<Eigen::Index>(rows), lambdas * responses);
    terms.rss.resize(static_cast<Eigen::Index>(rows), lambdas * responses);
    run_row_blocks(rows, row_cost, kGramBlockRows, run, [&](std::size_t b, std::size_t e) {
      const Eigen::Index count = static_cast<Eigen::Index>(e - b), first = static_cast<Eigen::Index>(begin + b);
      Eigen::MatrixXd z(count, columns);
      map.rows(x, n, begin + b, begin + e, z.data(), e - b);
      const LooTerms part = loo_terms(z, y.middleRows(first, count), w.segment(first, count), model);
      terms.press.middleRows(static_cast<Eigen::Index>(b), count) = part.press;
      terms.rss.middleRows(static_cast<Eigen::Index>(b), count) = part.rss;
    });
    sums.press += terms.press.colwise().sum().transpose();
    sums.rss += terms.rss.colwise().sum().transpose();
  }
  return sums;
}

void posterior_quadratic_forms(const FeatureMap& map, const double* x, std::size_t n,
                               const RidgePosterior& posterior, const BlockRunner& run, double* out) {
  const int columns = map.n_columns();
  const double row_cost = map.row_cost() + kProductWeight * 2.0 * static_cast<double>(posterior.vectors.cols()) *
                                               (columns + static_cast<double>(posterior.lambda.size()));
  run_row_blocks(n, row_cost, kGramBlockRows, run, [&](std::size_t begin, std::size_t end) {
    Eigen::MatrixXd z(static_cast<Eigen::Index>(end - begin), columns);
    map.rows(x, n, begin, end, z.data(), end - begin);
    const Eigen::MatrixXd q = posterior_quadratic_form(z, posterior);
    for (Eigen::Index l = 0; l < q.cols(); ++l) {
      std::copy(q.col(l).data(), q.col(l).data() + q.rows(), out + static_cast<std::size_t>(l) * n + begin);
    }
  });
}

}  // namespace askrff
