// The Cox model's first pass and its baseline (cox_risk.h): the risk sums
// of the models and references the path solver asks for, and from them the
// partial likelihoods and the offsets log Lambda0 of the second pass
// (.cpp_glm_pass).
#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "adapters.h"
#include "core/models/cox_risk.h"
#include "core/models/model_passes.h"
#include "guards.h"
#include "model_glue.h"
#include "parallel.h"

namespace {

askrff::CoxTies ties_of(const std::string& ties) {
  if (ties == "breslow") return askrff::CoxTies::breslow;
  askrff::require(ties == "efron", "ties must be \"efron\" or \"breslow\"");
  return askrff::CoxTies::efron;
}

}  // namespace

// The risk sums (cox_risk.h) over the rows of x (whose first row is row
// `first_row` of the data, counted from 0, which fixes its fold), with
// event indicators y (one column), weights w, offsets (one column, or none),
// time ranks `rank` among `times` distinct event times, at the models'
// coefficients (one column each, with model_fold) and at the references'.
// [[Rcpp::export(.cpp_cox_risk_pass)]]
Rcpp::List cpp_cox_risk_pass(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x, Rcpp::NumericMatrix y,
                             Rcpp::NumericVector w, Rcpp::NumericMatrix offset, Rcpp::IntegerVector rank, int times,
                             double first_row, int n_folds, Rcpp::NumericVector fold_seed, Rcpp::NumericVector z_shift,
                             Rcpp::NumericMatrix coefficients, Rcpp::IntegerVector model_fold,
                             Rcpp::NumericMatrix references, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> left = askrff::feature_map(map, askrff::Side::left, fun);
  askrff::require_data(x, left->dimension(), "x");
  askrff::require_whole(y, "y");
  askrff::require_whole(offset, "the offsets");
  askrff::require_whole(coefficients, "the coefficients");
  askrff::require_whole(references, "the references");
  const int columns = left->n_columns();
  askrff::require(y.nrow() == x.nrow(), "y must have one row per row of x");
  const std::vector<int> ranks = askrff::survival_ranks(y, rank, times);
  askrff::require_pass_input(x, w, offset, 1, first_row, n_folds, z_shift, columns, coefficients, model_fold, references);
  askrff::GlmModels models;
  models.family = &askrff::model_family("cox");
  models.coefficients = Eigen::Map<const Eigen::MatrixXd>(coefficients.begin(), 1 + columns, coefficients.ncol());
  models.references = Eigen::Map<const Eigen::MatrixXd>(references.begin(), 1 + columns, references.ncol());
  models.fold.assign(model_fold.begin(), model_fold.end());
  const askrff::RowFolds folds{static_cast<std::uint64_t>(first_row), n_folds, askrff::seed_from_words(fold_seed)};
  const askrff::CoxRiskSums sums =
      askrff::cox_risk_pass(*left, x.begin(), x.nrow(), models, askrff::as_matrix(y), askrff::as_vector(w),
                            askrff::as_matrix(offset), ranks, times, folds, askrff::as_vector(z_shift),
                            askrff::thread_runner(n_threads));
  return Rcpp::List::create(Rcpp::Named("train_events") = askrff::to_r(sums.train_events),
                            Rcpp::Named("train_others") = askrff::to_r(sums.train_others),
                            Rcpp::Named("heldout_events") = askrff::to_r(sums.heldout_events),
                            Rcpp::Named("heldout_others") = askrff::to_r(sums.heldout_others),
                            Rcpp::Named("event_weight") = askrff::to_r(sums.event_weight),
                            Rcpp::Named("event_count") = askrff::to_r(sums.event_count),
                            Rcpp::Named("train_eta") = askrff::to_r(sums.train_eta),
                            Rcpp::Named("heldout_eta") = askrff::to_r(sums.heldout_eta));
}

// From the risk sums of .cpp_cox_risk_pass (added over the chunks) and each
// column's fold (the models' and then 0 for each reference), with Breslow's
// or Efron's `ties`: list(log_hazard (2 (T + 1) by column), deviance (-l
// on each column's training rows), heldout (-(l - l_-f), 0 for fold 0)).
// [[Rcpp::export(.cpp_cox_baseline)]]
Rcpp::List cpp_cox_baseline(Rcpp::List sums, Rcpp::IntegerVector fold, std::string ties) {
  askrff::CoxRiskSums risk;
  const auto matrix = [&](const char* name) {
    const Rcpp::NumericMatrix m = sums[name];
    askrff::require_whole(m, name);
    askrff::require(std::none_of(m.begin(), m.end(), [](double v) { return std::isnan(v); }),
                    std::string(name) + " must not hold NaN");
    return Eigen::MatrixXd(askrff::as_matrix(m));
  };
  risk.train_events = matrix("train_events");
  risk.train_others = matrix("train_others");
  risk.heldout_events = matrix("heldout_events");
  risk.heldout_others = matrix("heldout_others");
  risk.event_weight = matrix("event_weight");
  risk.event_count = matrix("event_count");
  const Rcpp::NumericVector train_eta = sums["train_eta"], heldout_eta = sums["heldout_eta"];
  risk.train_eta = askrff::as_vector(train_eta);
  risk.heldout_eta = askrff::as_vector(heldout_eta);
  const askrff::CoxBaseline baseline =
      askrff::cox_baseline(risk, std::vector<int>(fold.begin(), fold.end()), ties_of(ties));
  return Rcpp::List::create(Rcpp::Named("log_hazard") = askrff::to_r(baseline.log_hazard),
                            Rcpp::Named("deviance") = askrff::to_r(baseline.deviance),
                            Rcpp::Named("heldout") = askrff::to_r(baseline.heldout));
}
