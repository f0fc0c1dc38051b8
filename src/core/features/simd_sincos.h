// Vectorized sine and cosine for doubles, written with GCC vector extensions
// so that one source compiles to SSE2 (two lanes) and, in a function with
// target("avx2,fma"), to AVX2 (four lanes). Eigen vectorizes sin/cos only for
// float, and libm's scalar calls dominate random Fourier features.
//
// Method: Cody-Waite reduction by pi/2 with a three-part constant (fdlibm's
// pio2_1..3; pio2_1 has 33 significant bits, so q * pio2_1 is exact for
// |q| < 2^20), then fdlibm's minimax polynomials on [-pi/4, pi/4]. Accuracy is
// about one ulp for |t| < 1e6; larger |t| falls back to libm lane by lane.
#pragma once
#include <cmath>
#include <cstdint>

#include "core/numerics/simd_vector.h"

namespace askrff {
namespace simd {

constexpr double kReductionLimit = 1e6;

// Marks in `large` (all bits set) the lanes of t beyond the reduction's
// range, which the polynomial path gets wrong; NaN is not among them and
// stays NaN. (An out-parameter: a vector returned by value changes the
// ABI where the instruction set is not the file's, -Wpsabi.)
template <int Lanes>
ASKRFF_INLINE void mark_large_lanes(const typename Vec<Lanes>::f& t, typename Vec<Lanes>::i& large) {
  typedef typename Vec<Lanes>::f V;
  typedef typename Vec<Lanes>::i I;
  large |= (V)((I)t & INT64_MAX) > kReductionLimit;
}

template <int Lanes>
ASKRFF_INLINE bool any_lane(const typename Vec<Lanes>::i& mask) {
  bool any = false;
  for (int lane = 0; lane < Lanes; ++lane) any |= mask[lane] != 0;
  return any;
}

// sin and cos of the lanes within the reduction's range; callers test
// mark_large_lanes() themselves, once for many vectors, as the test across
// lanes costs as much as a third of the polynomials.
template <int Lanes>
ASKRFF_INLINE void sincos_in_range(const typename Vec<Lanes>::f& t, typename Vec<Lanes>::f& sin_out,
                                   typename Vec<Lanes>::f& cos_out) {
  typedef typename Vec<Lanes>::f V;
  typedef typename Vec<Lanes>::i I;
  const double two_over_pi = 6.36619772367581382433e-01;
  const double pio2_1 = 1.57079632673412561417e+00;
  const double pio2_2 = 6.07710050630396597660e-11;
  const double pio2_3 = 2.02226624871116645580e-21;
  // Adding 1.5 * 2^52 rounds to an integer held in the low mantissa bits.
  const double shifter = 6755399441055744.0;
  const double s1 = -1.66666666666666324348e-01, s2 = 8.33333333332248946124e-03,
               s3 = -1.98412698298579493134e-04, s4 = 2.75573137070700676789e-06,
               s5 = -2.50507602534068634195e-08, s6 = 1.58969099521155010221e-10;
  const double c1 = 4.16666666666666019037e-02, c2 = -1.38888888888741095749e-03,
               c3 = 2.48015872894767294178e-05, c4 = -2.75573143513906633035e-07,
               c5 = 2.08757232129817482790e-09, c6 = -1.13596475577881948265e-11;

  V shifted = t * two_over_pi + shifter;
  const I quadrant = (I)shifted;
  const V q = shifted - shifter;
  V r = t - q * pio2_1;
  r = r - q * pio2_2;
  r = r - q * pio2_3;
  const V z = r * r;
  const V sin_poly = r + (r * z) * (s1 + z * (s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)))));
  const V half_z = 0.5 * z;
  const V w = 1.0 - half_z;
  // fdlibm's compensated form of 1 - z/2 + z^2 P(z).
  const V cos_poly =
      w + (((1.0 - w) - half_z) + (z * z) * (c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * c6))))));
  const I odd = (quadrant & 1) != 0;
  const V s = odd ? cos_poly : sin_poly;
  const V c = odd ? sin_poly : cos_poly;
  const I sin_sign = (quadrant & 2) << 62;
  const I cos_sign = ((quadrant + 1) & 2) << 62;
  sin_out = (V)((I)s ^ sin_sign);
  cos_out = (V)((I)c ^ cos_sign);

}

// sin and cos of every lane: lanes beyond the reduction's range from libm.
template <int Lanes>
ASKRFF_INLINE void sincos(const typename Vec<Lanes>::f& t, typename Vec<Lanes>::f& sin_out,
                          typename Vec<Lanes>::f& cos_out) {
  sincos_in_range<Lanes>(t, sin_out, cos_out);
  typename Vec<Lanes>::i large = {};
  mark_large_lanes<Lanes>(t, large);
  if (any_lane<Lanes>(large)) {
    for (int lane = 0; lane < Lanes; ++lane) {
      if (large[lane] != 0) {
        sin_out[lane] = std::sin(t[lane]);
        cos_out[lane] = std::cos(t[lane]);
      }
    }
  }
}

}  // namespace simd
}  // namespace askrff
