// One side of a map as a function from rows of data to rows of features:
// trigonometric maps for the stationary measures, projection maps (step and
// ReLU of w'x) for the arc-cosine and NTK kernels, periodic maps for random
// periodic features, and the maps of nystrom_features.h,
// maclaurin_features.h and tensor_sketch_features.h. Features, approximate
// Gram matrices, ridge sums and predictions are computed through this one
// interface.
#pragma once
#include <Eigen/Dense>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace askrff {

// A matrix product runs about 16 times more flops a second than the scalar
// loops row_cost() counts, so its flops weigh 1/16 in a block's cost.
constexpr double kProductWeight = 1.0 / 16.0;

// Features are computed in blocks of at most this many rows. Products run in
// blocks of kGramBlockRows rows (fewer only at the end), so that the other
// factor, copied into the product's packed layout once per block, serves
// enough rows; and the symmetric product in tiles of this size.
constexpr std::size_t kFeatureBlockRows = 128;
constexpr std::size_t kGramBlockRows = 256;

class FeatureMap;

// A map whose features are b(x) W for a base map b and fixed weights W (b's
// columns by the map's), as Nystrom's K(x, Z) W: a product with fixed
// coefficients B (predictions) is then b(x) (W B), which needs no b(x) W.
// (Sums of products such as Z'Z stay on the features: W' (B'B) W would
// amplify the rounding of B'B by the square of W's scale.) Empty for other
// maps.
struct LinearForm {
  const FeatureMap* base = nullptr;
  const Eigen::MatrixXd* weights = nullptr;
};

class FeatureMap {
 public:
  virtual ~FeatureMap() = default;
  // Columns of the data it reads.
  virtual int dimension() const = 0;
  virtual int n_columns() const = 0;
  // Flops per row of features, about: the projection on every frequency and
  // its function; jobs use it to cut rows into blocks of bounded time.
  virtual double row_cost() const = 0;
  // Features of rows [row_begin, row_end) of x (column-major, leading
  // dimension ld_x) into rows 0.. of out (leading dimension ld_out).
  virtual void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end,
                    double* out, std::size_t ld_out) const = 0;
  virtual LinearForm linear_form() const { return {}; }
};

// Features within this bound keep the products and sums made of them (Gram
// matrices, Z'Z over up to 1e8 rows) finite. Maps whose weights come from a
// decomposition or a series, not from probabilities, check their blocks
// against it, since an edited map can hold finite weights that overflow:
// throws std::invalid_argument naming `maker`, the map's constructor.
constexpr double kFeatureBound = 1e150;
void require_bounded(const double* out, std::size_t rows, int columns, std::size_t ld_out, const char* maker);

// kind is "trig", "step", "relu" or "ntk"; omega is d by n_frequencies
// (column-major), phase and weight have one entry per frequency.
std::unique_ptr<FeatureMap> make_feature_map(const std::string& kind, const double* omega,
                                             const double* phase, const double* weight, int d,
                                             int n_frequencies);

// Random periodic features m^{-1/2} f(x'w_j + xi_j), j = 1..m, with f the
// periodic function named `fun` (periodic_function.h): omega is d by m, dither has m entries.
std::unique_ptr<FeatureMap> make_periodic_feature_map(const double* omega, const double* dither, int d, int m,
                                                      const std::string& fun);

// Number of feature columns of a map of this kind.
std::int64_t feature_columns(const std::string& kind, int d, int n_frequencies);

}  // namespace askrff
