// The Cox proportional hazards model (Cox 1972) on the GLM engine. Its
// loss is minus the partial log-likelihood
//   -l(b) = sum over distinct event times s of [sum_j in tied(s) log R_j(s)] d(s) / n(s) - sum_i w_i delta_i eta_i,
// R_j(s) the risk set's sum of w exp(eta) (for Efron's ties less the share
// j / n(s) of the n(s) tied events' sum; for Breslow's, j = 0 and n(s) = 1),
// d(s) the events' weight (survival::coxph's weighted Efron). No row's
// loss is its own, so each pass of the engine is two over the rows: the
// first sums, per model, w exp(eta) into buckets by the rows' time ranks
// (the number of distinct event times at or before the row's time, fixed
// once by R), split into tied events and the other rows, on the model's
// training and held-out rows; from those cox_baseline() gives half the
// deviance l_sat - l(b) (l_sat a bound of l that depends on the events
// alone) and the cumulative baseline hazard Lambda0 at each rank (Breslow's, or Efron's,
// which differs for the tied events themselves). The second is a pass of
// Poisson rows at the offsets log Lambda0 (GlmModels::log_hazard), whose
// residuals w (delta - exp(eta) Lambda0(t)) are minus the partial
// likelihood's gradient and whose Hessian diag(w exp(eta) Lambda0(t))
// bounds its Hessian above, the reference the steps take. The intercept
// cancels in the partial likelihood; the baseline absorbs it.
//
// Cross-validation follows Verweij and van Houwelingen (1993), as glmnet's
// does: fold f's held-out deviance is -(l(b_-f) - l_-f(b_-f)), the partial
// likelihood of the model fitted without it on all rows less that on its
// training rows.
#pragma once
#include <Eigen/Dense>

#include <vector>

#include "core/models/glm_pass.h"

namespace askrff {

enum class CoxTies { breslow, efron };

// The first pass's sums. Rows are buckets by time rank (0 to T, for T
// distinct event times; rank 0 is before the first event, in no risk set),
// columns the models' then the references' (whose rows are all training
// rows).
struct CoxRiskSums {
  CoxRiskSums() = default;
  CoxRiskSums(Eigen::Index times, Eigen::Index columns, int n_folds);
  // sum of w exp(eta) over the events and over the other rows, on the
  // column's training rows and on its held-out rows
  Eigen::MatrixXd train_events, train_others, heldout_events, heldout_others;
  // per bucket and fold (fold f in column f - 1; one column without folds):
  // the events' weight and their number
  Eigen::MatrixXd event_weight, event_count;
  // per column: sum of w delta eta over the training and the held-out rows
  Eigen::VectorXd train_eta, heldout_eta;
};

// Adds the block's rows to column `column` of the sums: the models' columns
// of eta first, then the references'; `fold` is the column's (0 for all
// rows), `rank` the rows' time ranks.
void add_cox_risk_rows(const GlmBlock& block, const std::vector<int>& rank, const Eigen::MatrixXd& eta,
                       Eigen::Index column, int fold, CoxRiskSums& sums);

// Adds the block's events to the events' sums of their ranks and folds.
void add_cox_events(const GlmBlock& block, const std::vector<int>& rank, CoxRiskSums& sums);

struct CoxBaseline {
  // per column, log Lambda0 at each rank for the rows that are not events
  // there (rows 0 to T) and for the events (rows T + 1 to 2T + 1): the
  // offsets of the second pass; -Inf where no event precedes
  Eigen::MatrixXd log_hazard;
  // half the deviance l_sat - l on the column's training rows, with l_sat
  // the partial likelihood's bound that makes it nonnegative (as glmnet's)
  Eigen::VectorXd deviance;
  // for a column of fold f, half the deviance on all rows less that on its
  // training rows (Verweij and van Houwelingen's); 0 for fold 0
  Eigen::VectorXd heldout;
};

// From the first pass's sums and each column's fold; throws
// std::invalid_argument for sums of different sizes.
CoxBaseline cox_baseline(const CoxRiskSums& sums, const std::vector<int>& fold, CoxTies ties);

}  // namespace askrff
