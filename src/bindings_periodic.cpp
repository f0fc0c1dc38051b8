// Random periodic features (Schellekens and Jacques 2020), exported to R.
#include <Rcpp.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "adapters.h"
#include "guards.h"
#include "blocked_jobs.h"
#include "core/periodic/periodic_function.h"
#include "core/periodic/periodic_kernel.h"
#include "core/numerics/random.h"
#include "core/features/sign_bits.h"

namespace {

// Stream key of the dither, apart from every part's frequencies.
constexpr std::uint64_t kDitherPart = std::numeric_limits<std::uint32_t>::max();

// One-bit features of x, packed, point after point.
std::vector<std::uint8_t> packed_signs(const Rcpp::NumericMatrix& features, int n_threads) {
  const std::size_t n = features.nrow();
  const int m = features.ncol();
  std::vector<std::uint8_t> bits(n * askrff::sign_bytes(m));
  askrff::run_row_blocks(n, m, askrff::kFeatureBlockRows, n_threads, [&](std::size_t begin, std::size_t end) {
    askrff::pack_signs(features.begin(), n, m, begin, end, bits.data());
  });
  return bits;
}

// Square-wave features of data, packed block by block: the doubles of one
// block of rows exist at a time, never the whole n x m matrix.
std::vector<std::uint8_t> packed_signs_of_data(const Rcpp::NumericMatrix& x, const askrff::FeatureMap& square,
                                               int n_threads) {
  const std::size_t n = x.nrow();
  const int m = square.n_columns();
  const std::size_t bytes = askrff::sign_bytes(m);
  std::vector<std::uint8_t> bits(n * bytes);
  askrff::run_row_blocks(n, square.row_cost(), askrff::kFeatureBlockRows, n_threads,
                         [&](std::size_t begin, std::size_t end) {
    const std::size_t rows = end - begin;
    std::vector<double> block(rows * static_cast<std::size_t>(m));
    square.rows(x.begin(), n, begin, begin + rows, block.data(), rows);
    askrff::pack_signs(block.data(), rows, m, 0, rows, bits.data() + begin * bytes);
  });
  return bits;
}

// One side of a product: data through its periodic map, or (for a binary
// function, the square wave) packed bits, given or made from the data.
struct Side {
  std::string fun;
  bool binary;
  Rcpp::NumericMatrix data;
  std::vector<std::uint8_t> signs;
  std::size_t n;
};

Side make_side(SEXP data, SEXP packed, const std::string& fun, const Rcpp::NumericMatrix& omega,
               const Rcpp::NumericVector& dither, int n_threads) {
  Side side{fun, askrff::make_periodic_function(fun)->binary(), Rcpp::NumericMatrix(), {}, 0};
  if (!Rf_isNull(packed)) {
    askrff::require(side.binary && TYPEOF(packed) == RAWSXP && Rf_isMatrix(packed), "packed bits must be a raw matrix on a binary (square-wave) side");
    const Rcpp::RawMatrix raw(packed);
    askrff::require(static_cast<std::size_t>(raw.nrow()) == askrff::sign_bytes(omega.ncol()) && raw.ncol() >= 1,
                    "packed bits must have ceiling(m / 8) rows, one column per point");
    side.signs.assign(raw.begin(), raw.end());
    side.n = raw.ncol();
    return side;
  }
  askrff::require(TYPEOF(data) == REALSXP && Rf_isMatrix(data), "data must be a numeric matrix");
  side.data = Rcpp::NumericMatrix(data);
  askrff::require_data(side.data, omega.nrow(), "data");
  side.n = side.data.nrow();
  if (side.binary) side.signs = packed_signs_of_data(side.data, *askrff::periodic_map(omega, dither, fun), n_threads);
  return side;
}

}  // namespace

// [[Rcpp::export(.cpp_sample_dither)]]
Rcpp::NumericVector cpp_sample_dither(Rcpp::NumericVector seed_words, int m) {
  askrff::require(m >= 1, "m must be at least 1");
  askrff::Stream stream(askrff::seed_from_words(seed_words), kDitherPart, 0);
  Rcpp::NumericVector out(m);
  for (double& xi : out) xi = 2.0 * M_PI * stream.uniform();
  return out;
}

// The names of the core's periodic functions, in the registry's order.
// [[Rcpp::export(.cpp_periodic_functions)]]
Rcpp::CharacterVector cpp_periodic_functions() {
  Rcpp::CharacterVector out;
  for (const askrff::PeriodicFunctionEntry& entry : askrff::periodic_functions()) out.push_back(entry.name);
  return out;
}

// What R reads of the periodic function named `fun`: whether it is binary,
// <f, f> and F_1, its last harmonic (0 for infinitely many) and its
// variation, and for a step function the c = cos t where it jumps and its
// level on each cell of c between -1, the jumps and 1. Throws for a name
// the core does not know.
// [[Rcpp::export(.cpp_periodic_function)]]
Rcpp::List cpp_periodic_function(std::string fun) {
  const auto f = askrff::make_periodic_function(fun);
  const std::vector<double> jumps = f->cosine_jumps();
  std::vector<double> edges{-1.0};
  edges.insert(edges.end(), jumps.begin(), jumps.end());
  edges.push_back(1.0);
  Rcpp::NumericVector levels(jumps.empty() ? 0 : static_cast<R_xlen_t>(jumps.size() + 1));
  for (R_xlen_t i = 0; i < levels.size(); ++i) levels[i] = f->from_cosine(0.5 * (edges[i] + edges[i + 1]));
  return Rcpp::List::create(Rcpp::Named("binary") = f->binary(), Rcpp::Named("norm") = askrff::inner_product(*f, *f),
                            Rcpp::Named("first") = f->coefficient(1),
                            Rcpp::Named("last_harmonic") = static_cast<double>(f->last_harmonic()),
                            Rcpp::Named("variation") = f->variation(), Rcpp::Named("cosine_jumps") = jumps,
                            Rcpp::Named("levels") = levels);
}

// F_k of the periodic function named `fun` one k at a time (coefficient(k),
// which the expected kernel uses beyond its table), for tests against the
// table of coefficients().
// [[Rcpp::export(.cpp_periodic_coefficient)]]
Rcpp::NumericVector cpp_periodic_coefficient(std::string fun, Rcpp::NumericVector k) {
  const auto f = askrff::make_periodic_function(fun);
  Rcpp::NumericVector out(k.size());
  for (R_xlen_t i = 0; i < k.size(); ++i) {
    askrff::require(k[i] >= 1 && k[i] <= 1e6 && k[i] == std::floor(k[i]), "k must be whole numbers in 1..1e6");
    out[i] = f->coefficient(static_cast<long>(k[i]));
  }
  return out;
}

// F_1..F_k_max of the periodic function named `fun`.
// [[Rcpp::export(.cpp_periodic_coefficients)]]
Rcpp::NumericVector cpp_periodic_coefficients(std::string fun, int k_max) {
  askrff::require(k_max >= 1 && k_max <= 1000000, "k_max must lie in 1..1e6");
  const std::vector<double> f = askrff::make_periodic_function(fun)->coefficients(k_max);
  return Rcpp::NumericVector(f.begin(), f.end());
}

// [[Rcpp::export(.cpp_periodic_inner_product)]]
double cpp_periodic_inner_product(std::string left, std::string right) {
  return askrff::inner_product(*askrff::make_periodic_function(left), *askrff::make_periodic_function(right));
}

// The expected kernel of a pair of periodic maps at distances from the
// origin (Euclidean, or L1 for the Laplace kernel), with the series terms
// each took: for tests of its accuracy and of its work.
// [[Rcpp::export(.cpp_expected_kernel_at)]]
Rcpp::List cpp_expected_kernel_at(Rcpp::List kernel, Rcpp::NumericVector distances) {
  const std::vector<askrff::ExpectedKernelValue> at =
      askrff::expected_kernel_at(askrff::kernel_spec(kernel), Rcpp::as<std::vector<double>>(distances));
  Rcpp::NumericVector value(at.size()), terms(at.size());
  for (std::size_t i = 0; i < at.size(); ++i) {
    value[i] = at[i].value;
    terms[i] = static_cast<double>(at[i].terms);
  }
  return Rcpp::List::create(Rcpp::Named("value") = value, Rcpp::Named("terms") = terms);
}

// [[Rcpp::export(.cpp_periodic_values)]]
Rcpp::NumericVector cpp_periodic_values(std::string fun, Rcpp::NumericVector t) {
  const auto f = askrff::make_periodic_function(fun);
  Rcpp::NumericVector out(t.size());
  for (R_xlen_t i = 0; i < t.size(); ++i) out[i] = f->from_cosine(std::cos(t[i]));
  return out;
}

// Bits of +-1 features as an R raw matrix, one column of bytes per point.
// [[Rcpp::export(.cpp_pack_signs)]]
Rcpp::RawMatrix cpp_pack_signs(Rcpp::NumericMatrix features, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require(features.nrow() >= 1 && features.ncol() >= 1, "features must have rows and columns");
  const std::vector<std::uint8_t> bits = packed_signs(features, n_threads);
  Rcpp::RawMatrix out(static_cast<int>(askrff::sign_bytes(features.ncol())), features.nrow());
  std::copy(bits.begin(), bits.end(), out.begin());
  return out;
}

// [[Rcpp::export(.cpp_unpack_signs)]]
Rcpp::NumericMatrix cpp_unpack_signs(Rcpp::RawMatrix bits, int m, double value, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require(m >= 1 && static_cast<std::size_t>(bits.nrow()) == askrff::sign_bytes(m) && bits.ncol() >= 1,
                  "packed bits must have ceiling(m / 8) rows, one column per point");
  const askrff::SignRows side(bits.begin(), bits.ncol(), m, value);
  return askrff::features(side, n_threads);
}

// scale * <z_f(x_i), z_g(y_j)>. x_data or x_packed is NULL (likewise y); a
// binary side (the square wave) is always multiplied from its bits, so data and packed
// features of the same points give identical results.
// [[Rcpp::export(.cpp_rpf_gram)]]
Rcpp::NumericMatrix cpp_rpf_gram(SEXP x_data, SEXP x_packed, SEXP y_data, SEXP y_packed, Rcpp::NumericMatrix omega,
                                 Rcpp::NumericVector dither, std::string left_fun, std::string right_fun, double scale,
                                 int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require(omega.nrow() >= 1 && omega.ncol() >= 1 && dither.size() == omega.ncol(),
                  "the map needs frequencies and one dither per frequency");
  const int m = omega.ncol();
  const double value = 1.0 / std::sqrt(static_cast<double>(m));
  const Side left = make_side(x_data, x_packed, left_fun, omega, dither, n_threads);
  const Side right = make_side(y_data, y_packed, right_fun, omega, dither, n_threads);
  if (left.binary && right.binary) {
    const askrff::SignWords lw(askrff::SignRows(left.signs.data(), left.n, m, value));
    const askrff::SignWords rw(askrff::SignRows(right.signs.data(), right.n, m, value));
    Rcpp::NumericMatrix out = askrff::uninitialized_matrix(static_cast<int>(left.n), static_cast<int>(right.n));
    double* op = out.begin();
    askrff::run_row_blocks(left.n, static_cast<double>(right.n) * lw.n_words * 4.0, askrff::kGramBlockRows, n_threads,
                           [&](std::size_t begin, std::size_t end) {
                             askrff::sign_gram_rows(lw, rw, m, begin, end, scale / m, op, left.n);
                           });
    return out;
  }
  if (right.binary) {
    const Rcpp::NumericMatrix lf = askrff::features(left.data, *askrff::periodic_map(omega, dither, left_fun), n_threads);
    return askrff::gram_by_right_rows(askrff::as_features(lf), askrff::SignRows(right.signs.data(), right.n, m, value),
                                      scale, n_threads);
  }
  const Rcpp::NumericMatrix rf = askrff::features(right.data, *askrff::periodic_map(omega, dither, right_fun), n_threads);
  if (left.binary) {
    return askrff::gram_by_left_rows(askrff::SignRows(left.signs.data(), left.n, m, value), askrff::as_features(rf),
                                     scale, n_threads);
  }
  const auto left_map = askrff::periodic_map(omega, dither, left_fun);
  return askrff::gram_by_left_rows(askrff::MappedRows(*left_map, left.data.begin(), left.n), askrff::as_features(rf),
                                   scale, n_threads);
}
