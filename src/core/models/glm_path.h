// The path of a ridge-penalized generalized linear model, driven by reverse
// communication: the solver says which coefficients the next pass over the
// data must evaluate (request()); the caller sums them over its blocks of
// rows, wherever those are (glm_pass.h), and hands the sums to advance(),
// until done(). The caller keeps the data; the solver keeps every model's
// state between passes.
//
// Every model of the path (each lambda, fitted on all rows or without one
// fold) minimises half its deviance plus lambda / 2 ||b||^2 by
// limited-memory BFGS (lbfgs.h) whose initial inverse Hessian is
// (a H + lambda P)^{-1} for a reference Hessian H (glm_solve.h), with
// Armijo's rule; exact Newton would need each model's own Hessian, O(n D^2),
// at every step, while a reference eigendecomposed once serves every lambda
// and fold, and the memory makes up for its being taken elsewhere.
// Coefficients are columns of (1 + D) rows, intercept first, on the shifted
// features; a model of K classes has K consecutive columns.
//
// With several lambdas (or none given: 25 chosen from the data), the path is
// cross-validated: the penalties start one after another from the largest,
// each from the points and memory of the one before; a model moves to any
// point of its fold's path where its own criterion is lower; the path stops
// once its cross-validated deviance rises past its minimum. The chosen
// lambda's fit on all rows then runs to convergence, with the Hessian at its
// own coefficients at a few scheduled passes; and when the setup asks for it, the path ends with the
// Laplace covariance at that fit and its effective degrees of freedom, from
// the whole Hessian of half the deviance there (glm_path_hessian.h), which
// for several classes takes one more pass.
//
// A loss with kinks (ModelFamily::kinked) is piecewise quadratic along a
// step, whose end may lie in other pieces than its start: a step that fails
// Armijo's rule goes back to where the criterion's slope, summed in the
// same pass at steps 1, 1/2, ..., 2^-15 (GlmModels::probes), changes sign,
// instead of shrinking one pass at a time.
//
// Such a loss is smoothed within a band of half-width h around each kink
// (model_families.cpp), which lifts a row's loss by at most h / 4 and
// leaves it exact outside the band, so the smoothed criterion's minimiser
// b_h has an exact criterion within the sum of w h / 8 over the rows within
// h of a kink at the exact minimiser (the half loss's excess there) of the
// exact minimum. The path and its
// cross-validation run at the setup's width (their held-out losses and
// every deviance reported are exact); the chosen lambda's fit then
// continues by Newton's method (a Hessian per pass: the generalized Newton
// method of a piecewise-quadratic loss) at shrinking widths, each from the
// last ones' fits, until the exact criterion changes by less than 1e-9 of
// itself from one width to the next: as its error shrinks with h, it is
// then at most that change over the shrink factor less one. Each width
// starts from the fits at the last two extrapolated linearly in h: near the
// exact fit the rows within the band stay the same, and the fit of a fixed
// set is a smooth function of h along which their residuals shrink with h;
// from the last fit alone, whose band rows lie outside the new band, a
// Newton step would lose them. While the rows within the band change, the
// widths shrink threefold (Newton's steps from the extrapolated start then
// take a few passes); once a width's extrapolated start is its fit, by more
// (glm_path_state.h).
#pragma once
#include <Eigen/Dense>

#include <limits>
#include <memory>
#include <vector>

#include "core/models/cross_products.h"
#include "core/models/glm_pass.h"
#include "core/models/glm_solve.h"
#include "core/models/lbfgs.h"
#include "core/models/model_family.h"
#include "core/numerics/poll.h"

namespace askrff {

// What the path starts from: the family, the first pass's sums of the
// weighted shifted features (the intercept-only model's Hessian is A (x)
// their Z'Z) and the responses' weighted means, which give that model
// (model_family.h), unless the rows carry an offset: then its intercepts
// and A (the mean of its rows' Hessians in eta, with which A (x) Z'Z is
// the first reference) come fitted (glm_null.h).
struct GlmPathSetup {
  const ModelFamily& family;
  // the levels tau of a family of values; for a loss with kinks, the
  // positive width the path is smoothed at (0 for the others)
  FamilyParameters parameters;
  const CrossProducts& gram;
  Eigen::VectorXd mean;  // per predictor (a family of values: the mean response for each)
  std::vector<double> lambda;  // empty: chosen from the data
  int nfolds = 5;
  bool hessian = false;        // the Laplace covariance at the fit, and its df
  // whether a cross-validated path ends with the chosen lambda's fit on
  // all rows run to convergence (with a loss with kinks, its smoothing
  // shrunk to the exact fit); without, the result is the path's own model
  // at that lambda, as converged as the path's models (a scale search's
  // candidate, or a penalty chosen on a sample of the rows, needs only the
  // choice)
  bool fit_chosen = true;
  // one lambda only: where its fit starts ((1 + D) x K; empty: at the
  // intercept-only model), such as the fit at the same lambda on a sample
  // of the rows. The first pass still evaluates the intercept-only model,
  // whose deviance is the null deviance; the run then starts afresh here.
  Eigen::MatrixXd start;
  Eigen::VectorXd intercept;   // with an offset: the intercept-only fit (K); empty otherwise
  Eigen::MatrixXd curvature;   // with an offset: its A (K x K); empty otherwise
  // the references' Hessians from one row in every `hessian_every`
  // (GlmModels): preconditioners need no more rows than a few times the
  // columns, and a Hessian of all rows costs n D^2. A kinked loss's Newton
  // steps in the final fit sample the rows in its band alike while they
  // are more than the sample's n / hessian_every rows, and sum them all
  // after; the Laplace covariance sums every row.
  int hessian_every = 1;
};

// A request with no models is the whole Hessian's pass: for several classes
// its sums are those of class_hessian_rows() (glm_path_hessian.h).
struct GlmPassRequest {
  Eigen::MatrixXd coefficients;  // (1 + D) x (models * K)
  std::vector<int> fold;         // per model: 0 for all rows, f to leave fold f out
  Eigen::MatrixXd references;    // (1 + D) x (references * K): where to take the Hessians
  double width = 0.0;            // the smoothing width of the pass's rows (FamilyParameters)
  int hessian_every = 1;         // the references' Hessians' sample (GlmModels)
  // a loss with kinks: each model's direction from its last point (the
  // coefficients are that point plus `steps` times it), along which the
  // pass sums the criterion at the `probes` (GlmModels); none otherwise
  Eigen::MatrixXd directions;
  std::vector<double> steps, probes;
};

// One width of the final fit's smoothing and the passes its Newton steps took.
struct GlmSmoothingStep {
  double width;
  int passes;
};

struct GlmPathRow {
  double lambda, cv, cv_se, deviance;
  bool converged;
};

struct GlmPathResult {
  Eigen::MatrixXd coefficients;  // (1 + D) x K
  double lambda = 0.0, deviance = 0.0, null_deviance = 0.0;
  bool cross_validated = false;
  std::vector<GlmPathRow> path;  // the cross-validated lambdas (only the chosen one otherwise)
  int grid_size = 0;             // lambdas in the path before it stopped early
  int unconverged = 0;           // lambdas of the path whose fits did not all converge
  bool converged = false;        // the chosen lambda's fit on all rows
  // with GlmPathSetup::hessian: (H + lambda P)^+ at `coefficients`, K (1 +
  // D) square on the shifted features, and its effective degrees of freedom
  // (laplace_covariance()); else, or where undefined, empty and NaN
  Eigen::MatrixXd covariance;
  double df = 0.0;
  std::vector<GlmSmoothingStep> smoothing;  // a loss with kinks: the final fit's widths, in order
};

class GlmPath {
 public:
  static constexpr int kMaxPasses = 200;

  GlmPath(const GlmPathSetup& setup, const Poll& poll, const Progress& progress);
  ~GlmPath();
  bool done() const;
  const GlmPassRequest& request() const;
  // The sums of request()'s pass; may take Hessians' eigendecompositions.
  void advance(const GlmSums& sums, const Poll& poll, const Progress& progress);
  const GlmPathResult& result() const;

 private:
  struct Models;
  struct Reference;
  void start_run(bool final, bool keep_references = false);
  void finish_run();
  void finish_covariance(const std::vector<CrossProducts>& sums, const Poll& poll);
  void prepare_pass();
  std::vector<GlmPathRow> cv_path(int lambdas) const;
  std::vector<int> pruned() const;
  void share_points(const std::vector<int>& active, std::vector<int>& moved);
  void start_next();
  Eigen::MatrixXd directions(const std::vector<int>& ms) const;
  Eigen::MatrixXd precondition(const Eigen::MatrixXd& q, const std::vector<int>& ms) const;
  int nearest_reference(double lambda) const;
  double probed_step(const GlmSums& sums, Eigen::Index i, int m) const;

  const ModelFamily* family_;
  FamilyParameters parameters_;  // the width shrinks along the final fit of a loss with kinks
  int classes_;
  int hessian_every_;  // GlmPathSetup's
  // the rows a sampled Hessian sums (n / hessian_every), and the rows in the
  // band of a kinked loss's final fit (the last Hessian's, per predictor at
  // most; all rows before one)
  double sample_rows_ = 0.0, band_rows_ = 0.0;
  bool softmax_;  // several classes of the softmax, whose common shift is free
  Eigen::Index p_;
  double total_weight_;
  std::vector<double> grid_, reference_lambdas_;
  std::unique_ptr<Models> models_;
  std::vector<Reference> references_;
  std::shared_ptr<const Reference> null_reference_;
  bool final_ = false, first_ = true, done_ = false, fit_chosen_ = true;
  // the covariance: wanted, the whole Hessian's pass under way; for one
  // class the coefficients of the final run's reference
  bool hessian_ = false, hessian_pass_ = false;
  Eigen::MatrixXd final_at_;
  // GlmPathSetup::start, until the intercept-only model's pass is summed
  Eigen::MatrixXd pending_start_;
  // the exact criterion of the final fit at the last width (NaN before one),
  // the fit there (empty before one), that width, and the factor the width
  // shrinks by next
  double last_width_objective_ = std::numeric_limits<double>::quiet_NaN();
  Eigen::MatrixXd last_width_fit_;
  double last_width_ = 0.0, shrink_ = 0.0;
  double tolerance_ = 1e-8;
  int passes_ = 0, best_ = 0;
  std::vector<int> active_, refresh_;
  GlmPassRequest request_;
  GlmPathResult result_;
};

}  // namespace askrff
