// The models' passes over rows whose features are never stored: each pass
// computes the features of a block of rows once, on the runner's threads
// (block_runner.h), and adds what every model needs from them. Rows are x's
// (n rows, column-major), features are shifted by fixed values s (z - s),
// blocks are fixed by the sizes and added in row order, so the sums do not
// depend on the runner.
#pragma once
#include <Eigen/Dense>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/features/feature_map.h"
#include "core/models/cox_risk.h"
#include "core/models/cross_products.h"
#include "core/models/glm_pass.h"
#include "core/models/ridge_loo.h"
#include "core/models/ridge_posterior.h"
#include "core/numerics/block_runner.h"

namespace askrff {

using ConstMatrixRef = Eigen::Ref<const Eigen::MatrixXd>;
using ConstVectorRef = Eigen::Ref<const Eigen::VectorXd>;

// Rows a pass holds at once: at most about 32 MB of features, and at most
// 1024 rows.
std::size_t pass_rows(int columns);

// The features of rows [begin, begin + rows) of x less the shift, into z
// (rows by columns), computed on the runner's threads.
void shifted_features(const FeatureMap& map, const double* x, std::size_t n, std::size_t begin, std::size_t rows,
                      const ConstVectorRef& shift, const BlockRunner& run, Eigen::MatrixXd& z);

// The sums of cross_products.h over the rows, with responses y (one column
// per response) shifted by y_shift and weights w.
CrossProducts sum_cross_products(const FeatureMap& map, const double* x, std::size_t n, const ConstMatrixRef& y,
                                 const ConstVectorRef& w, const ConstVectorRef& z_shift,
                                 const ConstVectorRef& y_shift, const BlockRunner& run);

// Where the rows sit in the data: row i of x is row first_row + i, whose fold
// (cv_folds.h) under the seed is fixed by that index; n_folds 0 for none.
struct RowFolds {
  std::uint64_t first_row = 0;
  int n_folds = 0;
  std::uint64_t seed = 0;
};

// The sums of glm_pass.h over the rows, with responses y (one column per
// class, or one), weights w, offsets (as y, or no columns for none) and a
// Cox model's time ranks (cox_risk.h; empty for the others).
GlmSums glm_pass(const FeatureMap& map, const double* x, std::size_t n, const GlmModels& models,
                 const ConstMatrixRef& y, const ConstVectorRef& w, const ConstMatrixRef& offset,
                 const std::vector<int>& rank, const RowFolds& folds, const ConstVectorRef& z_shift,
                 const BlockRunner& run);

// The first pass of a Cox model's (cox_risk.h): the risk sums of the
// models and references over the rows, whose events are y's 1s and whose
// time ranks (0 to `times`) are `rank`.
CoxRiskSums cox_risk_pass(const FeatureMap& map, const double* x, std::size_t n, const GlmModels& models,
                          const ConstMatrixRef& y, const ConstVectorRef& w, const ConstMatrixRef& offset,
                          const std::vector<int>& rank, int times, const RowFolds& folds,
                          const ConstVectorRef& z_shift, const BlockRunner& run);

// The sums of ridge_loo.h's terms over the rows: press and rss per row of
// the paths and response (row l's responses at l q to l q + q - 1).
struct LooSums {
  Eigen::VectorXd press, rss;
};
LooSums ridge_loo_sums(const FeatureMap& map, const double* x, std::size_t n, const ConstMatrixRef& y,
                       const ConstVectorRef& w, const RidgeLoo& model, const BlockRunner& run);

// q(z(x)) of ridge_posterior.h for every row and lambda, into out (n by
// lambdas, column-major).
void posterior_quadratic_forms(const FeatureMap& map, const double* x, std::size_t n,
                               const RidgePosterior& posterior, const BlockRunner& run, double* out);

}  // namespace askrff
