// Vectorized exp for doubles in GCC and Clang's vector extensions, for the
// dense kernels of every instruction set (cpu_dispatch.h).
//
// Method: exp(x) = 2^k exp(r) with k = round(x / ln 2) and r = x - k ln 2 in
// [-ln 2 / 2, ln 2 / 2], k ln 2 subtracted in two parts (fdlibm's ln2_hi has
// 32 significant bits, so k ln2_hi is exact), exp(r) by its Taylor
// polynomial of degree 13 (truncation below 1e-17 relative) in Horner's
// form, and 2^k written into the exponent bits. About one ulp. Lanes whose
// result would be subnormal, infinite or NaN take libm's exp; those below
// -745.2, where exp rounds to zero, are zero.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/numerics/simd_vector.h"

namespace askrff {
namespace simd {

// The result goes through a reference, as sincos's does: a vector returned
// by value from a function without the caller's target changes the ABI.
template <int Lanes>
ASKRFF_INLINE void exp(const typename Vec<Lanes>::f& x, typename Vec<Lanes>::f& out) {
  typedef typename Vec<Lanes>::f V;
  typedef typename Vec<Lanes>::i I;
  // 2^k stays normal and finite for k in [-1021, 1023]
  constexpr double kLowest = -708.0, kHighest = 709.0, kZero = -745.2;
  const double inv_ln2 = 1.44269504088896338700e+00;
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  // Adding 1.5 * 2^52 rounds to an integer held in the low mantissa bits.
  const double shifter = 6755399441055744.0;
  const V lowest = V{} + kLowest, highest = V{} + kHighest;
  const I outside = (x < lowest) | (x > highest) | (x != x);
  V clamped = x < lowest ? lowest : x;
  clamped = clamped > highest ? highest : clamped;
  const V shifted = clamped * inv_ln2 + shifter;
  const V k = shifted - shifter;
  const V r = (clamped - k * ln2_hi) - k * ln2_lo;
  V p = V{} + 1.0 / 6227020800.0;
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  const V shifter_v = V{} + shifter;
  const I two_to_k = (((I)shifted - (I)shifter_v) + 1023) << 52;
  out = p * (V)two_to_k;
  // the tails: exactly as libm, and NaN through it
  bool any_outside = false;
  for (int lane = 0; lane < Lanes; ++lane) any_outside |= outside[lane] != 0;
  if (!any_outside) return;
  for (int lane = 0; lane < Lanes; ++lane) {
    if (outside[lane] != 0) out[lane] = x[lane] < kZero ? 0.0 : std::exp(x[lane]);
  }
}

}  // namespace simd
}  // namespace askrff
