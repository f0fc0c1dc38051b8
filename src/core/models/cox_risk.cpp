#include "core/models/cox_risk.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace askrff {

CoxRiskSums::CoxRiskSums(Eigen::Index times, Eigen::Index columns, int n_folds)
    : train_events(Eigen::MatrixXd::Zero(times + 1, columns)),
      train_others(Eigen::MatrixXd::Zero(times + 1, columns)),
      heldout_events(Eigen::MatrixXd::Zero(times + 1, columns)),
      heldout_others(Eigen::MatrixXd::Zero(times + 1, columns)),
      event_weight(Eigen::MatrixXd::Zero(times + 1, std::max(n_folds, 1))),
      event_count(Eigen::MatrixXd::Zero(times + 1, std::max(n_folds, 1))),
      train_eta(Eigen::VectorXd::Zero(columns)),
      heldout_eta(Eigen::VectorXd::Zero(columns)) {}

void add_cox_risk_rows(const GlmBlock& block, const std::vector<int>& rank, const Eigen::MatrixXd& eta,
                       Eigen::Index column, int fold, CoxRiskSums& sums) {
  double train_eta = 0.0, heldout_eta = 0.0;
  for (Eigen::Index i = 0; i < block.z.rows(); ++i) {
    const double w = block.w(i);
    if (w == 0.0) continue;
    const std::size_t row = static_cast<std::size_t>(i);
    const bool held_out = fold != 0 && block.fold[row] == fold, event = block.y(i, 0) > 0.0;
    const double risk = w * std::exp(eta(i, column));
    Eigen::MatrixXd& bucket = held_out ? (event ? sums.heldout_events : sums.heldout_others)
                                       : (event ? sums.train_events : sums.train_others);
    bucket(rank[row], column) += risk;
    if (event) (held_out ? heldout_eta : train_eta) += w * eta(i, column);
  }
  sums.train_eta(column) += train_eta;
  sums.heldout_eta(column) += heldout_eta;
}

void add_cox_events(const GlmBlock& block, const std::vector<int>& rank, CoxRiskSums& sums) {
  for (Eigen::Index i = 0; i < block.z.rows(); ++i) {
    const std::size_t row = static_cast<std::size_t>(i);
    if (block.w(i) == 0.0 || !(block.y(i, 0) > 0.0)) continue;
    const Eigen::Index fold = std::max(block.fold[row], 1) - 1;
    sums.event_weight(rank[row], fold) += block.w(i);
    sums.event_count(rank[row], fold) += 1.0;
  }
}

namespace {

// l_sat - l without l's sum of w delta eta, from one column's buckets of
// events' and other rows' risk and the events' weights d and numbers n by
// rank: l_sat = -sum d log d (Breslow; Efron's less sum (d / n) log(1 -
// j / n) over the tied events) bounds l above (each risk set holds its
// tied events), so that twice this, the deviance, is never negative, and
// it scales with the weights as l does not;
// writes log Lambda0 by rank into `log_hazard` (2 (T + 1), the events'
// second) unless it is null. Each risk set's sum is the bucket's part plus
// the later buckets', and Efron's share of the tied events is taken from
// their own sum, so nothing cancels.
double partial_likelihood(const Eigen::VectorXd& events, const Eigen::VectorXd& others, const Eigen::VectorXd& d,
                          const Eigen::VectorXd& n, CoxTies ties, double* log_hazard) {
  const Eigen::Index buckets = events.size();
  std::vector<double> later(static_cast<std::size_t>(buckets));
  double after = 0.0;
  for (Eigen::Index k = buckets - 1; k >= 0; --k) {
    later[static_cast<std::size_t>(k)] = after;
    after += events(k) + others(k);
  }
  double half = 0.0, cumulative = 0.0;
  for (Eigen::Index k = 0; k < buckets; ++k) {
    double hazard = 0.0, event_hazard = 0.0;
    if (d(k) > 0.0) {
      const int tied = ties == CoxTies::efron ? std::max(1, static_cast<int>(n(k))) : 1;
      const double share = d(k) / tied;
      for (int j = 0; j < tied; ++j) {
        const double kept = 1.0 - static_cast<double>(j) / tied;
        const double risk = kept * events(k) + others(k) + later[static_cast<std::size_t>(k)];
        half += share * std::log(risk / (kept * d(k)));
        hazard += share / risk;
        event_hazard += share * kept / risk;
      }
    }
    if (log_hazard != nullptr) {
      log_hazard[buckets + k] = std::log(cumulative + event_hazard);
      cumulative += hazard;
      log_hazard[k] = std::log(cumulative);
    }
  }
  return half;
}

}  // namespace

CoxBaseline cox_baseline(const CoxRiskSums& sums, const std::vector<int>& fold, CoxTies ties) {
  const Eigen::Index buckets = sums.train_events.rows(), columns = sums.train_events.cols();
  const Eigen::Index folds = sums.event_weight.cols();
  const auto sized = [&](const Eigen::MatrixXd& m, Eigen::Index cols) { return m.rows() == buckets && m.cols() == cols; };
  if (!sized(sums.train_others, columns) || !sized(sums.heldout_events, columns) || !sized(sums.heldout_others, columns) ||
      !sized(sums.event_count, folds) || sums.event_weight.rows() != buckets || sums.train_eta.size() != columns ||
      sums.heldout_eta.size() != columns || static_cast<Eigen::Index>(fold.size()) != columns) {
    throw std::invalid_argument("the Cox model's risk sums must have one column per model and reference");
  }
  for (const int f : fold) {
    if (f < 0 || f > folds || (f > 0 && folds < 2)) throw std::invalid_argument("each column's fold must be 0 or a fold");
  }
  CoxBaseline out{Eigen::MatrixXd(2 * buckets, columns), Eigen::VectorXd::Zero(columns), Eigen::VectorXd::Zero(columns)};
  const Eigen::VectorXd all_weight = sums.event_weight.rowwise().sum(), all_count = sums.event_count.rowwise().sum();
  for (Eigen::Index c = 0; c < columns; ++c) {
    const int f = fold[static_cast<std::size_t>(c)];
    // the training events: every other fold's, added (no cancellation)
    Eigen::VectorXd weight = all_weight, count = all_count;
    if (f > 0) {
      weight.setZero();
      count.setZero();
      for (Eigen::Index g = 0; g < folds; ++g) {
        if (g == f - 1) continue;
        weight += sums.event_weight.col(g);
        count += sums.event_count.col(g);
      }
    }
    out.deviance(c) = partial_likelihood(sums.train_events.col(c), sums.train_others.col(c), weight, count, ties,
                                         out.log_hazard.col(c).data()) -
                      sums.train_eta(c);
    if (f == 0) continue;
    const double all = partial_likelihood(sums.train_events.col(c) + sums.heldout_events.col(c),
                                          sums.train_others.col(c) + sums.heldout_others.col(c), all_weight, all_count,
                                          ties, nullptr) -
                       (sums.train_eta(c) + sums.heldout_eta(c));
    out.heldout(c) = all - out.deviance(c);
  }
  return out;
}

}  // namespace askrff
