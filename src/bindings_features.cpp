// Feature matrices and approximate Gram matrices, exported to R.
#include <Rcpp.h>

#include "adapters.h"
#include "blocked_jobs.h"
#include "core/features.h"
#include "guards.h"

namespace {
std::unique_ptr<askrff::FeatureMap> side_map(const std::string& kind, const Rcpp::NumericMatrix& omega,
                                             const Rcpp::NumericVector& phase,
                                             const Rcpp::NumericVector& weight) {
  askrff::require(omega.nrow() >= 1 && omega.ncol() >= 1, "a map needs at least one frequency");
  askrff::require_length(phase.size(), omega.ncol(), "phase");
  askrff::require_length(weight.size(), omega.ncol(), "weight");
  return askrff::make_feature_map(kind, omega.begin(), phase.begin(), weight.begin(), omega.nrow(),
                                  omega.ncol());
}
}  // namespace

// One side's features; kind is the map's feature kind ("trig", "step", ...).
// [[Rcpp::export(.cpp_features)]]
Rcpp::NumericMatrix cpp_features(Rcpp::NumericMatrix x, Rcpp::NumericMatrix omega, Rcpp::NumericVector phase,
                                 Rcpp::NumericVector weight, std::string kind, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require_data(x, omega.nrow(), "x");
  return askrff::features(x, *side_map(kind, omega, phase, weight), n_threads);
}

// [[Rcpp::export(.cpp_feature_columns)]]
double cpp_feature_columns(std::string kind, int d, int n_frequencies) {
  askrff::require(d >= 1 && n_frequencies >= 1, "a map needs a dimension and a frequency");
  return static_cast<double>(askrff::feature_columns(kind, d, n_frequencies));
}

// [[Rcpp::export(.cpp_approx_gram)]]
Rcpp::NumericMatrix cpp_approx_gram(Rcpp::NumericMatrix x, Rcpp::NumericMatrix y,
                                    Rcpp::NumericMatrix omega, Rcpp::NumericVector phase_left,
                                    Rcpp::NumericVector weight_left, Rcpp::NumericVector phase_right,
                                    Rcpp::NumericVector weight_right, std::string kind, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require_data(x, omega.nrow(), "x");
  askrff::require_data(y, omega.nrow(), "y");
  const auto left = side_map(kind, omega, phase_left, weight_left);
  const Rcpp::NumericMatrix right_features = askrff::features(y, *side_map(kind, omega, phase_right, weight_right), n_threads);
  return askrff::gram_by_left_rows(askrff::MappedRows(*left, x.begin(), x.nrow()),
                                   askrff::as_features(right_features), 1.0, n_threads);
}

// [[Rcpp::export(.cpp_sincos)]]
Rcpp::NumericMatrix cpp_sincos(Rcpp::NumericVector t) {
  Rcpp::NumericMatrix out(t.size(), 2);
  askrff::sincos_array(t.begin(), static_cast<std::size_t>(t.size()), out.begin(),
                       out.begin() + t.size());
  return out;
}

// [[Rcpp::export(.cpp_simd_level)]]
int cpp_simd_level(int level) { return level < 0 ? askrff::simd_level() : askrff::set_simd_level(level); }
