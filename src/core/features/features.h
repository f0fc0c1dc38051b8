// Trigonometric feature matrices: cos and sin of x'W + phase, scaled per
// frequency, fused in one pass so the products never leave registers.
#pragma once
#include <cstddef>
#include <vector>

namespace askrff {

class PeriodicFunction;

// One side of a sampled map with its frequencies packed for the kernel:
// groups of kGroupWidth columns, zero-padded, each group stored k-major.
class PackedFeatureMap {
 public:
  static constexpr int kGroupWidth = 4;
  PackedFeatureMap(const double* omega, const double* phase, const double* weight, int d,
                   int n_frequencies);
  int d() const { return d_; }
  int n_frequencies() const { return n_frequencies_; }
  int n_groups() const { return n_groups_; }
  const double* group(int g) const { return omega_.data() + static_cast<std::size_t>(g) * d_ * kGroupWidth; }
  double phase(int f) const { return phase_[f]; }
  double weight(int f) const { return weight_[f]; }

 private:
  int d_, n_frequencies_, n_groups_;
  std::vector<double> omega_, phase_, weight_;
};

// Features of rows [row_begin, row_end) of x (column-major, leading dimension
// ld_x) into rows 0.. of out (leading dimension ld_out): column f holds
// weight_f cos(x'w_f + phase_f), column F + f the same with sin. A row's
// features do not depend on which other rows are computed with it.
void trig_features(const PackedFeatureMap& map, const double* x, std::size_t ld_x,
                   std::size_t row_begin, std::size_t row_end, double* out, std::size_t ld_out);

// Random periodic features of the same rows: column f holds
// scale * fun(x'w_f + phase_f); the map's weights are not used.
void periodic_features(const PackedFeatureMap& map, const PeriodicFunction& fun, double scale,
                       const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end,
                       double* out, std::size_t ld_out);

// The vectorized sine and cosine on their own (tests compare them with libm).
void sincos_array(const double* t, std::size_t n, double* sin_out, double* cos_out);

}  // namespace askrff
