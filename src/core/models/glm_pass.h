// One pass of a penalized generalized linear model over blocks of rows: for
// many models at once (every lambda of a path, each fitted on all rows or on
// the rows outside one cross-validation fold), the gradient of half the
// deviance, the training and held-out deviances, and, at a few reference
// coefficients, the Hessians Z'WVZ of the classes, summed as the weighted
// cross-products of cross_products.h. A block's features are computed once
// (by the caller) and shared by everything the pass sums.
//
// Coefficients are columns of (1 + D) rows, the intercept first, on features
// shifted by fixed values s (eta = o + b0 + (z - s)'b, with the row's offset
// o, 0 without one); a model of K classes has K consecutive columns. Each block is added in row order, and the parallel
// parts own disjoint outputs (rows of eta, models, panels of columns), so
// the sums do not depend on the thread count.
#pragma once
#include <Eigen/Dense>

#include <vector>

#include "core/models/cross_products.h"
#include "core/models/model_family.h"

namespace askrff {

struct GlmModels {
  const ModelFamily* family = nullptr;
  int classes = 1;                // predictors per model: K for a family of classes, else 1
  Eigen::MatrixXd coefficients;   // (1 + D) x (models * classes)
  std::vector<int> fold;          // per model: 0 for all rows, f to leave fold f out
  Eigen::MatrixXd references;     // (1 + D) x (references * classes): where the Hessians are taken
  // whether the references are class_hessian_references()' (glm_path_hessian.h),
  // reference r's column j that of class (j + r) mod K, whose offset moves with it
  bool rotated_references = false;
  int n_models() const { return static_cast<int>(fold.size()); }
  int n_references() const { return static_cast<int>(references.cols()) / classes; }
  // the class (offset column) of predictor column c of the references
  int reference_class(Eigen::Index c) const;
};

struct GlmSums {
  GlmSums() = default;
  GlmSums(const GlmModels& models, int n_columns);
  // sum over each model's training rows of w (y - mu) [1, z - s]: minus the
  // gradient of half the deviance, (1 + D) x (models * classes)
  Eigen::MatrixXd gradient;
  Eigen::VectorXd deviance;        // half the deviance on the training rows, per model
  Eigen::VectorXd heldout;         // half the deviance on the held-out rows, per model
  Eigen::VectorXd heldout_weight;  // sum of w on the held-out rows, per model
  // per reference and class (reference-major): sum w v (z - s)(z - s)' and
  // the other sums of cross_products.h with weights w v, over all rows
  std::vector<CrossProducts> hessians;
};

// A block of rows: shifted features z (rows x D), responses y (rows x
// classes), weights w, 1-based folds and offsets (rows x classes, or no
// columns for none).
struct GlmBlock {
  const Eigen::MatrixXd& z;
  const Eigen::MatrixXd& y;
  const Eigen::VectorXd& w;
  const std::vector<int>& fold;
  const Eigen::MatrixXd& offset;
};

// eta (rows x (models + references) * classes) for rows [begin, end) of
// the block, offsets included.
void glm_predictors(const GlmModels& models, const GlmBlock& block, Eigen::Index begin, Eigen::Index end,
                    Eigen::MatrixXd& eta);

// Model m's part of the block: its residual columns w (y - mu) on its
// training rows (zero elsewhere), their sums into the gradient's intercept
// row, and its deviances.
void glm_model_rows(const GlmModels& models, const GlmBlock& block, const Eigen::MatrixXd& eta, int m,
                    Eigen::MatrixXd& residual, GlmSums& sums);

// The weights w v of reference r's classes (rows x classes).
Eigen::MatrixXd glm_reference_weights(const GlmModels& models, const GlmBlock& block, const Eigen::MatrixXd& eta, int r);

// Adds z' residual to the gradient's rows of panel p (see cross_products.h).
void add_gradient_panel(GlmSums& sums, const Eigen::MatrixXd& z, const Eigen::MatrixXd& residual, int panel);

}  // namespace askrff
