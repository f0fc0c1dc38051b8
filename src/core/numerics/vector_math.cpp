#include "core/numerics/vector_math.h"

#include <algorithm>
#include <cstring>

#include "core/numerics/cpu_dispatch.h"
#include "core/numerics/simd_exp.h"

namespace askrff {

namespace {

template <int Lanes>
ASKRFF_INLINE void scaled_exp_span(double* v, std::size_t n, double factor) {
  typedef typename simd::Vec<Lanes>::f V;
  std::size_t i = 0;
  for (; i + Lanes <= n; i += Lanes) {
    V x, y;
    std::memcpy(&x, v + i, sizeof(V));
    simd::exp<Lanes>(x * factor, y);
    std::memcpy(v + i, &y, sizeof(V));
  }
  if (i == n) return;
  V x = {}, y;
  for (std::size_t j = i; j < n; ++j) x[j - i] = v[j];
  simd::exp<Lanes>(x * factor, y);
  for (std::size_t j = i; j < n; ++j) v[j] = y[j - i];
}

void scaled_exp_baseline(double* v, std::size_t n, double factor) { scaled_exp_span<2>(v, n, factor); }

#ifdef ASKRFF_X86_DISPATCH
ASKRFF_TARGET_AVX2 void scaled_exp_avx2(double* v, std::size_t n, double factor) { scaled_exp_span<4>(v, n, factor); }
// Four lanes here too: GCC 12 turns comparisons of eight doubles into
// scalar code, and the loop is bound by memory at four.
ASKRFF_TARGET_AVX512 void scaled_exp_avx512(double* v, std::size_t n, double factor) {
  scaled_exp_span<4>(v, n, factor);
}
#endif

}  // namespace

void scaled_exp(double* v, std::size_t n, double factor) {
  switch (active_instruction_set()) {
#ifdef ASKRFF_X86_DISPATCH
    case InstructionSet::avx512:
      return scaled_exp_avx512(v, n, factor);
    case InstructionSet::avx2:
      return scaled_exp_avx2(v, n, factor);
#endif
    default:
      return scaled_exp_baseline(v, n, factor);
  }
}

}  // namespace askrff
