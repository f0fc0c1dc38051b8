// Feature matrices and approximate Gram matrices, exported to R.
#include <Rcpp.h>

#include "adapters.h"
#include "core/approx_gram.h"
#include "parallel.h"
#include "result_matrix.h"

namespace {
constexpr std::size_t kFeatureBlockRows = 128;
constexpr std::size_t kGramBlockRows = 64;

std::size_t n_blocks(std::size_t rows, std::size_t block) { return (rows + block - 1) / block; }

Rcpp::NumericMatrix features(const Rcpp::NumericMatrix& x, const askrff::PackedFeatureMap& map,
                             int n_threads) {
  const std::size_t n = static_cast<std::size_t>(x.nrow());
  Rcpp::NumericMatrix out = askrff::uninitialized_matrix(x.nrow(), 2 * map.n_frequencies());
  const double* xp = x.begin();
  double* op = out.begin();
  askrff::run_blocks(n_blocks(n, kFeatureBlockRows), n_threads, [&](std::size_t b) {
    const std::size_t begin = b * kFeatureBlockRows;
    const std::size_t end = std::min(n, begin + kFeatureBlockRows);
    askrff::trig_features(map, xp, n, begin, end, op + begin, n);
  });
  return out;
}
}  // namespace

// [[Rcpp::export(.cpp_trig_features)]]
Rcpp::NumericMatrix cpp_trig_features(Rcpp::NumericMatrix x, Rcpp::NumericMatrix omega,
                                      Rcpp::NumericVector phase, Rcpp::NumericVector weight,
                                      int n_threads) {
  const askrff::PackedFeatureMap map(omega.begin(), phase.begin(), weight.begin(), omega.nrow(),
                                     omega.ncol());
  return features(x, map, n_threads);
}

// [[Rcpp::export(.cpp_approx_gram)]]
Rcpp::NumericMatrix cpp_approx_gram(Rcpp::NumericMatrix x, Rcpp::NumericMatrix y,
                                    Rcpp::NumericMatrix omega, Rcpp::NumericVector phase_left,
                                    Rcpp::NumericVector weight_left, Rcpp::NumericVector phase_right,
                                    Rcpp::NumericVector weight_right, int n_threads) {
  const int d = omega.nrow(), n_freq = omega.ncol();
  const askrff::PackedFeatureMap left(omega.begin(), phase_left.begin(), weight_left.begin(), d, n_freq);
  const askrff::PackedFeatureMap right(omega.begin(), phase_right.begin(), weight_right.begin(), d, n_freq);
  const Rcpp::NumericMatrix right_features = features(y, right, n_threads);
  const Eigen::Map<const Eigen::MatrixXd> rf(right_features.begin(), right_features.nrow(),
                                             right_features.ncol());
  const std::size_t n = static_cast<std::size_t>(x.nrow());
  Rcpp::NumericMatrix out = askrff::uninitialized_matrix(x.nrow(), y.nrow());
  const double* xp = x.begin();
  double* op = out.begin();
  askrff::run_blocks(n_blocks(n, kGramBlockRows), n_threads, [&](std::size_t b) {
    const std::size_t begin = b * kGramBlockRows;
    askrff::approx_gram_rows(left, xp, n, begin, std::min(n, begin + kGramBlockRows), rf, op, n);
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
