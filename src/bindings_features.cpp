// Feature matrices and approximate Gram matrices, exported to R.
#include <Rcpp.h>

#include <algorithm>
#include <cstring>

#include "adapters.h"
#include "blocked_jobs.h"
#include "core/features/features.h"
#include "core/numerics/cpu_dispatch.h"
#include "guards.h"

// The map kinds the core reads (adapters.h), for the test that R's registry
// names the same.
// [[Rcpp::export(.cpp_map_kinds)]]
Rcpp::CharacterVector cpp_map_kinds() {
  Rcpp::CharacterVector out;
  for (const askrff::MapKindReader& reader : askrff::map_kind_readers()) out.push_back(reader.kind);
  return out;
}

// One side's features of a map of any kind (`fun` for a random periodic
// map, else empty).
// [[Rcpp::export(.cpp_map_features)]]
Rcpp::NumericMatrix cpp_map_features(Rcpp::List map, Rcpp::NumericMatrix x, std::string side, std::string fun,
                                     int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> features = askrff::feature_map(map, askrff::side_named(side), fun);
  askrff::require_data(x, features->dimension(), "x");
  return askrff::features(x, *features, n_threads);
}

// [[Rcpp::export(.cpp_feature_columns)]]
double cpp_feature_columns(std::string kind, int d, int n_frequencies) {
  askrff::require(d >= 1 && n_frequencies >= 1, "a map needs a dimension and a frequency");
  return static_cast<double>(askrff::feature_columns(kind, d, n_frequencies));
}

// L(x) R(y)' of a map (not a random periodic one), in blocks of rows of x;
// with y = x and equal sides, the lower triangle of R R' mirrored.
// [[Rcpp::export(.cpp_map_gram)]]
Rcpp::NumericMatrix cpp_map_gram(Rcpp::List map, Rcpp::NumericMatrix x, Rcpp::NumericMatrix y, int n_threads) {
  askrff::require_threads(n_threads);
  const auto left = askrff::feature_map(map, askrff::Side::left, "");
  const auto right = askrff::feature_map(map, askrff::Side::right, "");
  askrff::require_data(x, left->dimension(), "x");
  askrff::require_data(y, right->dimension(), "y");
  const Rcpp::NumericMatrix right_features = askrff::features(y, *right, n_threads);
  const askrff::MappedRows left_rows(*left, x.begin(), x.nrow());
  // the same data through a symmetric kernel's map: one triangle
  const bool same_data = x.nrow() == y.nrow() && x.ncol() == y.ncol() &&
                         std::equal(x.begin(), x.end(), y.begin(), [](double a, double b) {
                           return std::memcmp(&a, &b, sizeof(double)) == 0;
                         });
  if (same_data && askrff::same_rows(left_rows, askrff::as_features(right_features), n_threads)) {
    return askrff::symmetric_gram(askrff::as_features(right_features), 1.0, n_threads);
  }
  return askrff::gram_by_left_rows(left_rows, askrff::as_features(right_features), 1.0, n_threads);
}

// [[Rcpp::export(.cpp_sincos)]]
Rcpp::NumericMatrix cpp_sincos(Rcpp::NumericVector t) {
  Rcpp::NumericMatrix out(t.size(), 2);
  askrff::sincos_array(t.begin(), static_cast<std::size_t>(t.size()), out.begin(),
                       out.begin() + t.size());
  return out;
}

// The dense kernels' instruction set: c(path, detected), after switching to
// `wanted` ("baseline", "avx2", "avx512", lowered to what the CPU has) when
// it is not empty. R validates `wanted`.
// [[Rcpp::export(.cpp_instruction_set)]]
Rcpp::CharacterVector cpp_instruction_set(std::string wanted) {
  using askrff::InstructionSet;
  if (!wanted.empty()) {
    const InstructionSet set = wanted == "avx512" ? InstructionSet::avx512
                               : wanted == "avx2" ? InstructionSet::avx2
                                                  : InstructionSet::baseline;
    askrff::use_instruction_set(set);
  }
  return Rcpp::CharacterVector::create(
      Rcpp::Named("path") = askrff::instruction_set_name(askrff::active_instruction_set()),
      Rcpp::Named("detected") = askrff::instruction_set_name(askrff::detected_instruction_set()));
}
