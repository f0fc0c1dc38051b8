// Feature matrices and approximate Gram matrices, exported to R.
#include <Rcpp.h>

#include "adapters.h"
#include "core/approx_gram.h"
#include "core/features.h"
#include "parallel.h"
#include "result_matrix.h"

namespace {
constexpr std::size_t kFeatureBlockRows = 128;
constexpr std::size_t kGramBlockRows = 64;

std::size_t n_blocks(std::size_t rows, std::size_t block) { return (rows + block - 1) / block; }

Rcpp::NumericMatrix features(const Rcpp::NumericMatrix& x, const askrff::FeatureMap& map, int n_threads) {
  const std::size_t n = static_cast<std::size_t>(x.nrow());
  Rcpp::NumericMatrix out = askrff::uninitialized_matrix(x.nrow(), map.n_columns());
  const double* xp = x.begin();
  double* op = out.begin();
  askrff::run_blocks(n_blocks(n, kFeatureBlockRows), n_threads, [&](std::size_t b) {
    const std::size_t begin = b * kFeatureBlockRows;
    const std::size_t end = std::min(n, begin + kFeatureBlockRows);
    map.rows(xp, n, begin, end, op + begin, n);
  });
  return out;
}

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
  return features(x, *side_map(kind, omega, phase, weight), n_threads);
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
  const Rcpp::NumericMatrix right_features = features(y, *side_map(kind, omega, phase_right, weight_right), n_threads);
  const Eigen::Map<const Eigen::MatrixXd> rf(right_features.begin(), right_features.nrow(),
                                             right_features.ncol());
  const std::size_t n = static_cast<std::size_t>(x.nrow());
  Rcpp::NumericMatrix out = askrff::uninitialized_matrix(x.nrow(), y.nrow());
  const double* xp = x.begin();
  double* op = out.begin();
  askrff::run_blocks(n_blocks(n, kGramBlockRows), n_threads, [&](std::size_t b) {
    const std::size_t begin = b * kGramBlockRows;
    askrff::approx_gram_rows(*left, xp, n, begin, std::min(n, begin + kGramBlockRows), rf, op, n);
  });
  return out;
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
