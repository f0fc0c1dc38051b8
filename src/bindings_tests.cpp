// The kernel tests' sums and permutation nulls: the cross-products of
// several maps' features side by side in one pass over the rows, and the
// statistics of permuted rows from features held in memory.
#include <Rcpp.h>

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "adapters.h"
#include "core/features/concatenated_features.h"
#include "core/models/model_passes.h"
#include "core/statistics/permutation_nulls.h"
#include "guards.h"
#include "model_glue.h"
#include "parallel.h"

using askrff::as_matrix;
using askrff::as_vector;
using askrff::to_r;

// The sums of cross_products.h (without responses) of the features
// [f_1(x_1), ..., f_k(x_k)] over rows of x = [x_1, ..., x_k] with weights
// w: part i of `parts` is a map (its left features) or a whole number of
// columns passed through as they are.
// [[Rcpp::export(.cpp_joint_cross_products)]]
Rcpp::List cpp_joint_cross_products(Rcpp::List parts, Rcpp::NumericMatrix x, Rcpp::NumericVector w,
                                    Rcpp::NumericVector shift, int n_threads) {
  askrff::require_threads(n_threads);
  std::vector<askrff::MapPart> maps;
  for (R_xlen_t i = 0; i < parts.size(); ++i) {
    askrff::MapPart part;
    if (Rf_isNumeric(parts[i]) && Rf_length(parts[i]) == 1) {
      part.columns = Rcpp::as<int>(parts[i]);
      askrff::require(part.columns >= 1, "a part given as data needs at least one column");
    } else {
      part.map = askrff::feature_map(Rcpp::List(parts[i]), askrff::Side::left, "");
    }
    maps.push_back(std::move(part));
  }
  const std::unique_ptr<askrff::FeatureMap> joint = askrff::make_concatenated_feature_map(std::move(maps));
  askrff::require_data(x, joint->dimension(), "x");
  askrff::require(w.size() == x.nrow(), "w must have one weight per row of x");
  for (const double wi : w) askrff::require(std::isfinite(wi) && wi >= 0.0, "the weights must be finite and nonnegative");
  askrff::require(shift.size() == joint->n_columns(), "the shift must match the columns");
  const Eigen::MatrixXd no_response(x.nrow(), 0);
  const Eigen::VectorXd no_shift(0);
  return to_r(askrff::sum_cross_products(*joint, x.begin(), x.nrow(), no_response, as_vector(w), as_vector(shift),
                                         no_shift, askrff::thread_runner(n_threads)));
}

// ||A' P_b B||_F^2 for permutations b = 0..n_permutations-1 of the rows.
// [[Rcpp::export(.cpp_permuted_cross_norms)]]
Rcpp::NumericVector cpp_permuted_cross_norms(Rcpp::NumericMatrix a, Rcpp::NumericMatrix b,
                                             Rcpp::NumericVector seed_words, int n_permutations, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require_whole(a, "a");
  askrff::require_whole(b, "b");
  askrff::require(a.nrow() == b.nrow() && a.nrow() >= 2, "a and b must have the same rows, at least 2");
  askrff::require(n_permutations >= 1, "n_permutations must be at least 1");
  return to_r(askrff::permuted_cross_norms(as_matrix(a), as_matrix(b), askrff::seed_from_words(seed_words),
                                           n_permutations, askrff::thread_runner(n_threads)));
}

// The squared distance between the two samples' mean rows of z (the first
// n1 rows of a permutation against the rest), for each permutation.
// [[Rcpp::export(.cpp_permuted_mean_distances)]]
Rcpp::NumericVector cpp_permuted_mean_distances(Rcpp::NumericMatrix z, int n1, Rcpp::NumericVector seed_words,
                                                int n_permutations, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require_whole(z, "z");
  askrff::require(n1 >= 1 && n1 < z.nrow(), "each sample must have at least one row");
  askrff::require(n_permutations >= 1, "n_permutations must be at least 1");
  return to_r(askrff::permuted_mean_distances(as_matrix(z), n1, askrff::seed_from_words(seed_words),
                                              n_permutations, askrff::thread_runner(n_threads)));
}

// The joint statistic of permuted_joint_distances() for each permutation of
// the rows of every variable but the first; `features` holds each
// variable's n by 2F features.
// [[Rcpp::export(.cpp_permuted_joint_distances)]]
Rcpp::NumericVector cpp_permuted_joint_distances(Rcpp::List features, Rcpp::NumericVector seed_words,
                                                 int n_permutations, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require(n_permutations >= 1, "n_permutations must be at least 1");
  std::vector<Rcpp::NumericMatrix> kept;
  std::vector<askrff::ConstMatrixView> parts;
  for (R_xlen_t j = 0; j < features.size(); ++j) {
    kept.emplace_back(features[j]);
    askrff::require_whole(kept.back(), "features");
  }
  for (const Rcpp::NumericMatrix& m : kept) parts.emplace_back(as_matrix(m));
  return to_r(askrff::permuted_joint_distances(parts, askrff::seed_from_words(seed_words), n_permutations,
                                               askrff::thread_runner(n_threads)));
}
