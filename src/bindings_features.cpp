// Feature matrices and approximate Gram matrices, exported to R.
#include <Rcpp.h>

#include "adapters.h"
#include "blocked_jobs.h"
#include "core/features/features.h"
#include "guards.h"

// One side's features of a map of rff_map().
// [[Rcpp::export(.cpp_map_features)]]
Rcpp::NumericMatrix cpp_map_features(Rcpp::List map, Rcpp::NumericMatrix x, std::string side, int n_threads) {
  askrff::require_threads(n_threads);
  const askrff::RMap m = askrff::r_map(map);
  askrff::require_data(x, m.view.d, "x");
  return askrff::features(x, *askrff::side_map(m.view, side == "right" ? askrff::Side::right : askrff::Side::left),
                          n_threads);
}

// [[Rcpp::export(.cpp_feature_columns)]]
double cpp_feature_columns(std::string kind, int d, int n_frequencies) {
  askrff::require(d >= 1 && n_frequencies >= 1, "a map needs a dimension and a frequency");
  return static_cast<double>(askrff::feature_columns(kind, d, n_frequencies));
}

// L(x) R(y)' of a map of rff_map(), in blocks of rows of x.
// [[Rcpp::export(.cpp_map_gram)]]
Rcpp::NumericMatrix cpp_map_gram(Rcpp::List map, Rcpp::NumericMatrix x, Rcpp::NumericMatrix y, int n_threads) {
  askrff::require_threads(n_threads);
  const askrff::RMap m = askrff::r_map(map);
  askrff::require_data(x, m.view.d, "x");
  askrff::require_data(y, m.view.d, "y");
  const auto left = askrff::side_map(m.view, askrff::Side::left);
  const Rcpp::NumericMatrix right_features = askrff::features(y, *askrff::side_map(m.view, askrff::Side::right), n_threads);
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
