// The fused loop of trigonometric features (projection, sincos, scaling),
// written once for any vector width; features.cpp
// instantiates it per instruction set. Included only there.
#pragma once
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/features/features.h"
#include "core/features/simd_sincos.h"

namespace askrff {
namespace simd {

template <int Lanes>
ASKRFF_INLINE void store_rows(double* dst, const typename Vec<Lanes>::f& v, int valid) {
  if (valid >= Lanes) {
    std::memcpy(dst, &v, sizeof(v));
  } else {
    for (int lane = 0; lane < valid; ++lane) dst[lane] = v[lane];
  }
}

// Where trigonometric features go: column f holds weight_f cos, column F + f
// weight_f sin. sink.store(f, row, sin, cos, valid) receives the values of
// rows row.. of frequency f.
template <int Lanes>
struct TrigSink {
  const PackedFeatureMap& map;
  double* out;
  std::size_t ld_out;
  ASKRFF_INLINE void store(int f, std::size_t row, const typename Vec<Lanes>::f& s,
                           const typename Vec<Lanes>::f& co, int valid) const {
    const double w = map.weight(f);
    store_rows<Lanes>(out + static_cast<std::size_t>(f) * ld_out + row, co * w, valid);
    store_rows<Lanes>(out + static_cast<std::size_t>(map.n_frequencies() + f) * ld_out + row, s * w, valid);
  }
};

// Random periodic features, first stage: column f holds cos(x'w_f + phase_f);
// periodic_features() then applies the periodic function column by column.
template <int Lanes>
struct CosineSink {
  double* out;
  std::size_t ld_out;
  ASKRFF_INLINE void store(int f, std::size_t row, const typename Vec<Lanes>::f&,
                           const typename Vec<Lanes>::f& co, int valid) const {
    store_rows<Lanes>(out + static_cast<std::size_t>(f) * ld_out + row, co, valid);
  }
};

// Rows are taken in panels of 2 * Lanes, copied and zero-padded so every row
// goes through identical arithmetic; each panel meets each group of
// frequencies in a register-blocked product, then sincos and the sink.
template <int Lanes, class Sink>
ASKRFF_INLINE void trig_feature_rows(const PackedFeatureMap& map, const double* x, std::size_t ld_x,
                                     std::size_t row_begin, std::size_t row_end, const Sink& sink) {
  typedef typename Vec<Lanes>::f V;
  constexpr int kPanel = 2 * Lanes;
  constexpr int kGroup = PackedFeatureMap::kGroupWidth;
  const int d = map.d();
  const int n_freq = map.n_frequencies();
  const std::size_t rows = row_end - row_begin;
  const std::size_t n_panels = (rows + kPanel - 1) / kPanel;

  std::vector<double> panels(n_panels * d * kPanel, 0.0);
  for (std::size_t p = 0; p < n_panels; ++p) {
    const std::size_t first = p * kPanel;
    const int valid = static_cast<int>(std::min<std::size_t>(kPanel, rows - first));
    double* panel = panels.data() + p * d * kPanel;
    for (int k = 0; k < d; ++k) {
      const double* column = x + k * ld_x + row_begin + first;
      for (int r = 0; r < valid; ++r) panel[k * kPanel + r] = column[r];
    }
  }

  for (int g = 0; g < map.n_groups(); ++g) {
    const double* w = map.group(g);
    const int in_group = std::min(kGroup, n_freq - g * kGroup);
    for (std::size_t p = 0; p < n_panels; ++p) {
      const double* panel = panels.data() + p * d * kPanel;
      V acc[kGroup][2] = {};
      for (int k = 0; k < d; ++k) {
        V x0, x1;
        std::memcpy(&x0, panel + k * kPanel, sizeof(V));
        std::memcpy(&x1, panel + k * kPanel + Lanes, sizeof(V));
ASKRFF_UNROLL
        for (int c = 0; c < kGroup; ++c) {
          const double wk = w[k * kGroup + c];
          acc[c][0] += x0 * wk;
          acc[c][1] += x1 * wk;
        }
      }
      const std::size_t first = p * kPanel;
      const int valid = static_cast<int>(std::min<std::size_t>(kPanel, rows - first));
      // the range test once per panel and group; the rare panel with a
      // large argument is stored again through libm's lanes
      typename Vec<Lanes>::i large = {};
      for (int c = 0; c < in_group; ++c) {
        const int f = g * kGroup + c;
        for (int half = 0; half < 2; ++half) {
          const V t = acc[c][half] + map.phase(f);
          mark_large_lanes<Lanes>(t, large);
          V s, co;
          sincos_in_range<Lanes>(t, s, co);
          sink.store(f, first + half * Lanes, s, co, valid - half * Lanes);
        }
      }
      if (any_lane<Lanes>(large)) {
        for (int c = 0; c < in_group; ++c) {
          const int f = g * kGroup + c;
          for (int half = 0; half < 2; ++half) {
            V s, co;
            sincos<Lanes>(acc[c][half] + map.phase(f), s, co);
            sink.store(f, first + half * Lanes, s, co, valid - half * Lanes);
          }
        }
      }
    }
  }
}

template <int Lanes>
ASKRFF_INLINE void sincos_span(const double* t, std::size_t n, double* sin_out, double* cos_out) {
  typedef typename Vec<Lanes>::f V;
  for (std::size_t i = 0; i < n; i += Lanes) {
    const int valid = static_cast<int>(std::min<std::size_t>(Lanes, n - i));
    V v = {};
    for (int lane = 0; lane < valid; ++lane) v[lane] = t[i + lane];
    V s, c;
    sincos<Lanes>(v, s, c);
    store_rows<Lanes>(sin_out + i, s, valid);
    store_rows<Lanes>(cos_out + i, c, valid);
  }
}

}  // namespace simd
}  // namespace askrff
