#include "core/features/features.h"

#include "core/features/trig_feature_loop.h"
#include "core/numerics/cpu_dispatch.h"
#include "core/periodic/periodic_function.h"

namespace askrff {

PackedFeatureMap::PackedFeatureMap(const double* omega, const double* phase, const double* weight,
                                   int d, int n_frequencies)
    : d_(d),
      n_frequencies_(n_frequencies),
      n_groups_((n_frequencies + kGroupWidth - 1) / kGroupWidth),
      omega_(static_cast<std::size_t>(n_groups_) * d * kGroupWidth, 0.0),
      phase_(phase, phase + n_frequencies),
      weight_(weight, weight + n_frequencies) {
  for (int f = 0; f < n_frequencies; ++f) {
    double* dst = omega_.data() + static_cast<std::size_t>(f / kGroupWidth) * d * kGroupWidth + f % kGroupWidth;
    for (int k = 0; k < d; ++k) dst[k * kGroupWidth] = omega[static_cast<std::size_t>(f) * d + k];
  }
}

namespace {

// The loops compiled for one vector width; trig_rows_for and friends call them
// from functions compiled for the matching instruction set.
template <int Lanes>
ASKRFF_INLINE void trig_rows(const PackedFeatureMap& map, const double* x, std::size_t ld_x, std::size_t row_begin,
                             std::size_t row_end, double* out, std::size_t ld_out) {
  simd::trig_feature_rows<Lanes>(map, x, ld_x, row_begin, row_end, simd::TrigSink<Lanes>{map, out, ld_out});
}

template <int Lanes>
ASKRFF_INLINE void cosine_rows(const PackedFeatureMap& map, const double* x, std::size_t ld_x, std::size_t row_begin,
                               std::size_t row_end, double* out, std::size_t ld_out) {
  simd::trig_feature_rows<Lanes>(map, x, ld_x, row_begin, row_end, simd::CosineSink<Lanes>{out, ld_out});
}

using RowsFunction = void (*)(const PackedFeatureMap&, const double*, std::size_t, std::size_t, std::size_t, double*,
                              std::size_t);
using SincosFunction = void (*)(const double*, std::size_t, double*, double*);

void trig_rows_baseline(const PackedFeatureMap& map, const double* x, std::size_t ld_x, std::size_t row_begin,
                        std::size_t row_end, double* out, std::size_t ld_out) {
  trig_rows<2>(map, x, ld_x, row_begin, row_end, out, ld_out);
}
void cosine_rows_baseline(const PackedFeatureMap& map, const double* x, std::size_t ld_x, std::size_t row_begin,
                          std::size_t row_end, double* out, std::size_t ld_out) {
  cosine_rows<2>(map, x, ld_x, row_begin, row_end, out, ld_out);
}
void sincos_baseline(const double* t, std::size_t n, double* s, double* c) { simd::sincos_span<2>(t, n, s, c); }

#ifdef ASKRFF_X86_DISPATCH
ASKRFF_TARGET_AVX2 void trig_rows_avx2(const PackedFeatureMap& map, const double* x, std::size_t ld_x,
                                       std::size_t row_begin, std::size_t row_end, double* out, std::size_t ld_out) {
  trig_rows<4>(map, x, ld_x, row_begin, row_end, out, ld_out);
}
ASKRFF_TARGET_AVX2 void cosine_rows_avx2(const PackedFeatureMap& map, const double* x, std::size_t ld_x,
                                         std::size_t row_begin, std::size_t row_end, double* out, std::size_t ld_out) {
  cosine_rows<4>(map, x, ld_x, row_begin, row_end, out, ld_out);
}
ASKRFF_TARGET_AVX2 void sincos_avx2(const double* t, std::size_t n, double* s, double* c) {
  simd::sincos_span<4>(t, n, s, c);
}
ASKRFF_TARGET_AVX512 void trig_rows_avx512(const PackedFeatureMap& map, const double* x, std::size_t ld_x,
                                           std::size_t row_begin, std::size_t row_end, double* out,
                                           std::size_t ld_out) {
  trig_rows<8>(map, x, ld_x, row_begin, row_end, out, ld_out);
}
ASKRFF_TARGET_AVX512 void cosine_rows_avx512(const PackedFeatureMap& map, const double* x, std::size_t ld_x,
                                             std::size_t row_begin, std::size_t row_end, double* out,
                                             std::size_t ld_out) {
  cosine_rows<8>(map, x, ld_x, row_begin, row_end, out, ld_out);
}
ASKRFF_TARGET_AVX512 void sincos_avx512(const double* t, std::size_t n, double* s, double* c) {
  simd::sincos_span<8>(t, n, s, c);
}
#endif

// The entry point of the path in force.
template <class F>
F for_active_path(F baseline, F avx2, F avx512) {
  switch (active_instruction_set()) {
    case InstructionSet::avx512:
      return avx512;
    case InstructionSet::avx2:
      return avx2;
    default:
      return baseline;
  }
}

#ifdef ASKRFF_X86_DISPATCH
RowsFunction trig_rows_for() { return for_active_path(trig_rows_baseline, trig_rows_avx2, trig_rows_avx512); }
RowsFunction cosine_rows_for() {
  return for_active_path(cosine_rows_baseline, cosine_rows_avx2, cosine_rows_avx512);
}
SincosFunction sincos_for() { return for_active_path(sincos_baseline, sincos_avx2, sincos_avx512); }
#else
RowsFunction trig_rows_for() { return trig_rows_baseline; }
RowsFunction cosine_rows_for() { return cosine_rows_baseline; }
SincosFunction sincos_for() { return sincos_baseline; }
#endif

}  // namespace

void trig_features(const PackedFeatureMap& map, const double* x, std::size_t ld_x,
                   std::size_t row_begin, std::size_t row_end, double* out, std::size_t ld_out) {
  trig_rows_for()(map, x, ld_x, row_begin, row_end, out, ld_out);
}

void periodic_features(const PackedFeatureMap& map, const PeriodicFunction& fun, double scale,
                       const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end,
                       double* out, std::size_t ld_out) {
  cosine_rows_for()(map, x, ld_x, row_begin, row_end, out, ld_out);
  // One call of the function per column of the block, while it is in cache.
  const std::size_t rows = row_end - row_begin;
  for (int f = 0; f < map.n_frequencies(); ++f) {
    double* column = out + static_cast<std::size_t>(f) * ld_out;
    fun.from_cosines(column, rows);
    for (std::size_t i = 0; i < rows; ++i) column[i] *= scale;
  }
}

void sincos_array(const double* t, std::size_t n, double* sin_out, double* cos_out) {
  sincos_for()(t, n, sin_out, cos_out);
}

}  // namespace askrff
