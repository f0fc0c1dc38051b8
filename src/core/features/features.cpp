#include "core/features/features.h"

#include "core/features/trig_feature_loop.h"
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

void trig_rows_portable(const PackedFeatureMap& map, const double* x, std::size_t ld_x,
                        std::size_t row_begin, std::size_t row_end, double* out, std::size_t ld_out) {
  simd::trig_feature_rows<2>(map, x, ld_x, row_begin, row_end, simd::TrigSink<2>{map, out, ld_out});
}

void cosine_rows_portable(const PackedFeatureMap& map, const double* x, std::size_t ld_x, std::size_t row_begin,
                          std::size_t row_end, double* out, std::size_t ld_out) {
  simd::trig_feature_rows<2>(map, x, ld_x, row_begin, row_end, simd::CosineSink<2>{out, ld_out});
}

void sincos_portable(const double* t, std::size_t n, double* s, double* c) {
  simd::sincos_span<2>(t, n, s, c);
}

#if defined(__GNUC__) && defined(__x86_64__)
#define ASKRFF_HAVE_AVX2_PATH 1
__attribute__((target("avx2,fma"))) void trig_rows_avx2(const PackedFeatureMap& map, const double* x,
                                                        std::size_t ld_x, std::size_t row_begin,
                                                        std::size_t row_end, double* out,
                                                        std::size_t ld_out) {
  simd::trig_feature_rows<4>(map, x, ld_x, row_begin, row_end, simd::TrigSink<4>{map, out, ld_out});
}

__attribute__((target("avx2,fma"))) void cosine_rows_avx2(const PackedFeatureMap& map, const double* x,
                                                          std::size_t ld_x, std::size_t row_begin,
                                                          std::size_t row_end, double* out, std::size_t ld_out) {
  simd::trig_feature_rows<4>(map, x, ld_x, row_begin, row_end, simd::CosineSink<4>{out, ld_out});
}

__attribute__((target("avx2,fma"))) void sincos_avx2(const double* t, std::size_t n, double* s, double* c) {
  simd::sincos_span<4>(t, n, s, c);
}

int cpu_simd_level() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
}
#else
int cpu_simd_level() { return 0; }
#endif

int& active_level() {
  static int level = cpu_simd_level();
  return level;
}

}  // namespace

int simd_level() { return active_level(); }

int set_simd_level(int level) {
  active_level() = std::max(0, std::min(level, cpu_simd_level()));
  return active_level();
}

void trig_features(const PackedFeatureMap& map, const double* x, std::size_t ld_x,
                   std::size_t row_begin, std::size_t row_end, double* out, std::size_t ld_out) {
#ifdef ASKRFF_HAVE_AVX2_PATH
  if (active_level() == 1) return trig_rows_avx2(map, x, ld_x, row_begin, row_end, out, ld_out);
#endif
  trig_rows_portable(map, x, ld_x, row_begin, row_end, out, ld_out);
}

void periodic_features(const PackedFeatureMap& map, const PeriodicFunction& fun, double scale,
                       const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end,
                       double* out, std::size_t ld_out) {
#ifdef ASKRFF_HAVE_AVX2_PATH
  if (active_level() == 1) {
    cosine_rows_avx2(map, x, ld_x, row_begin, row_end, out, ld_out);
  } else {
    cosine_rows_portable(map, x, ld_x, row_begin, row_end, out, ld_out);
  }
#else
  cosine_rows_portable(map, x, ld_x, row_begin, row_end, out, ld_out);
#endif
  // One call of the function per column of the block, while it is in cache.
  const std::size_t rows = row_end - row_begin;
  for (int f = 0; f < map.n_frequencies(); ++f) {
    double* column = out + static_cast<std::size_t>(f) * ld_out;
    fun.from_cosines(column, rows);
    for (std::size_t i = 0; i < rows; ++i) column[i] *= scale;
  }
}

void sincos_array(const double* t, std::size_t n, double* sin_out, double* cos_out) {
#ifdef ASKRFF_HAVE_AVX2_PATH
  if (active_level() == 1) return sincos_avx2(t, n, sin_out, cos_out);
#endif
  sincos_portable(t, n, sin_out, cos_out);
}

}  // namespace askrff
