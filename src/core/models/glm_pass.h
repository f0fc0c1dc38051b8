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
  FamilyParameters parameters;    // the levels tau and the smoothing width of this pass
  int classes = 1;                // predictors per model: K for classes and values, else 1
  Eigen::MatrixXd coefficients;   // (1 + D) x (models * classes)
  std::vector<int> fold;          // per model: 0 for all rows, f to leave fold f out
  Eigen::MatrixXd references;     // (1 + D) x (references * classes): where the Hessians are taken
  // the references' Hessians sum one row in every `hessian_every`
  // (hessian_row() of cv_folds.h), weighted by it: an unbiased estimate of
  // the Hessian from a sample of the rows, for a preconditioner at many rows
  int hessian_every = 1;
  // whether the references are class_hessian_references()' (glm_path_hessian.h),
  // reference r's column j that of class (j + r) mod K, whose offset moves with it
  bool rotated_references = false;
  // A line search along each model's direction in the same pass (no
  // columns for none): its coefficients are the base point plus steps[m]
  // times its direction, and the pass sums its loss's slope at base + t
  // direction for each of the probes t.
  Eigen::MatrixXd directions;     // (1 + D) x (models * classes), or no columns
  std::vector<double> steps;      // per model
  std::vector<double> probes;
  // A Cox model's offsets log Lambda0 (cox_risk.h), added to each row's
  // predictors by its time rank: per column of the models and then the
  // references, the rows' that are not events at their rank (rows 0 to T)
  // and the events' (T + 1 to 2T + 1); no columns for the other families.
  Eigen::MatrixXd log_hazard;
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
  // the same without smoothing (parameters.width 0), which a loss with kinks
  // reports; equal to `deviance` for the others
  Eigen::VectorXd exact;
  Eigen::VectorXd heldout;         // half the deviance on the held-out rows, per model, without smoothing
  Eigen::VectorXd heldout_weight;  // sum of w on the held-out rows, per model
  // per reference and class (reference-major): sum w v (z - s)(z - s)' and
  // the other sums of cross_products.h with weights w v, over all rows
  std::vector<CrossProducts> hessians;
  // with directions, per model and probe t (models x probes): the
  // derivative in t of half the training rows' deviance at base + t direction
  Eigen::MatrixXd probe_slope;
};

// A block of rows: shifted features z (rows x D), responses y (rows x
// classes), weights w, 1-based folds, offsets (rows x classes, or no
// columns for none) and for survival the time ranks (cox_risk.h; empty for
// the others).
struct GlmBlock {
  const Eigen::MatrixXd& z;
  const Eigen::MatrixXd& y;
  const Eigen::VectorXd& w;
  const std::vector<int>& fold;
  const Eigen::MatrixXd& offset;
  const std::vector<int>& rank;
};

// eta (rows x (models * 2 + references) * classes) for rows [begin, end)
// of the block, offsets and a Cox model's log Lambda0 included: the
// models', the references', and the directions' (no offsets; no columns
// without directions).
void glm_predictors(const GlmModels& models, const GlmBlock& block, Eigen::Index begin, Eigen::Index end,
                    Eigen::MatrixXd& eta);

// Model m's part of the block: its residual columns w (y - mu) on its
// training rows (zero elsewhere), their sums into the gradient's intercept
// row, and its deviances (the held-out rows' without smoothing, so that
// cross-validation compares the loss itself).
void glm_model_rows(const GlmModels& models, const GlmBlock& block, const Eigen::MatrixXd& eta, int m,
                    Eigen::MatrixXd& residual, GlmSums& sums);

// The weights w v of reference r's classes (rows x classes).
Eigen::MatrixXd glm_reference_weights(const GlmModels& models, const GlmBlock& block, const Eigen::MatrixXd& eta, int r);

// Adds z' residual to the gradient's rows of panel p (see cross_products.h).
void add_gradient_panel(GlmSums& sums, const Eigen::MatrixXd& z, const Eigen::MatrixXd& residual, int panel);

}  // namespace askrff
