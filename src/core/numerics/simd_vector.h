// Vectors of doubles in GCC and Clang's vector extensions: one source for
// the dense kernels compiles to SSE2, AVX2 or AVX-512 registers according to
// the target of the function it is inlined into (cpu_dispatch.h).
#pragma once
#include <cstdint>

#if defined(__GNUC__)
#define ASKRFF_INLINE inline __attribute__((always_inline))
#else
#define ASKRFF_INLINE inline
#endif

// Register blocks stay in registers only if the loops over them are
// unrolled; GCC's -O2 does not do it by itself.
#if defined(__GNUC__) && !defined(__clang__)
#define ASKRFF_UNROLL _Pragma("GCC unroll 16")
#else
#define ASKRFF_UNROLL
#endif

namespace askrff {
namespace simd {

template <int Lanes>
struct Vec {
  typedef double f __attribute__((vector_size(8 * Lanes)));
  typedef std::int64_t i __attribute__((vector_size(8 * Lanes)));
};

}  // namespace simd
}  // namespace askrff
