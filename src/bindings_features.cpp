// Feature matrices and approximate Gram matrices, exported to R.
#include <Rcpp.h>

#include "adapters.h"
#include "blocked_jobs.h"
#include "core/features.h"

namespace {
std::unique_ptr<askrff::FeatureMap> side_map(const std::string& kind, const Rcpp::NumericMatrix& omega,
                                             const Rcpp::NumericVector& phase,
                                             const Rcpp::NumericVector& weight) {
  return askrff::make_feature_map(kind, omega.begin(), phase.begin(), weight.begin(), omega.nrow(),
                                  omega.ncol());
}
}  // namespace

// One side's features; kind is the map's feature kind ("trig", "step", ...).
// [[Rcpp::export(.cpp_features)]]
Rcpp::NumericMatrix cpp_features(Rcpp::NumericMatrix x, Rcpp::NumericMatrix omega, Rcpp::NumericVector phase,
                                 Rcpp::NumericVector weight, std::string kind, int n_threads) {
  return askrff::features(x, *side_map(kind, omega, phase, weight), n_threads);
}

// [[Rcpp::export(.cpp_feature_columns)]]
double cpp_feature_columns(std::string kind, int d, int n_frequencies) {
  return askrff::feature_columns(kind, d, n_frequencies);
}

// [[Rcpp::export(.cpp_approx_gram)]]
Rcpp::NumericMatrix cpp_approx_gram(Rcpp::NumericMatrix x, Rcpp::NumericMatrix y,
                                    Rcpp::NumericMatrix omega, Rcpp::NumericVector phase_left,
                                    Rcpp::NumericVector weight_left, Rcpp::NumericVector phase_right,
                                    Rcpp::NumericVector weight_right, std::string kind, int n_threads) {
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
