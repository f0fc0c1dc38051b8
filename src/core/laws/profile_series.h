// Fourier series of 2 pi periodic functions h of a projection T = a'w, and
// their means against a Gaussian: for T ~ N(0, s^2),
//   E h(T) exp(i b T) = sum_k c_k exp(-(b + k)^2 s^2 / 2),
// which gives the characteristic functions of the lifted Gaussian laws
// (lifted_gaussian.h), whose profiles h are such functions, and of their
// parts with a phase that is a function of T (asymmetric_kernels.cpp).
#pragma once
#include <complex>
#include <functional>
#include <optional>
#include <vector>

#include "core/numerics/poll.h"
#include "core/laws/profiled_gaussian.h"

namespace askrff {

// h(t) = sum_{k = first}^{first + c.size() - 1} c[k - first] e^{ikt}
//        + sum_{k >= 1} even(k) cos(2 k t).
struct FourierSeries {
  int first = 0;
  std::vector<std::complex<double>> c;
  std::function<double(double)> even;  // of k = 1, 2, ...; empty: no such terms
};

// A profile's series: the cosine and sine profiles' in closed form (their
// kinks make the even terms fall only like 1 / k^2), the Sinh modulus's by
// numeric_series(); nullopt where that fails.
std::optional<FourierSeries> profile_series(Profile profile, double amplitude, const Poll& poll);

// The series of a smooth h by the trapezoid rule, on grids of 64, 128, ...
// points doubled until the coefficients in the grid's top quarter are below
// 1e-16 of the largest (an analytic h's fall geometrically), keeping those
// above 1e-15 of the largest (below is rounding); nullopt beyond 2^16
// points.
std::optional<FourierSeries> numeric_series(const std::function<std::complex<double>(double)>& h, const Poll& poll);

// E h(T) exp(i b T) for T ~ N(0, s^2), summing the terms with |b + k| s <=
// 9 (the others are below exp(-40) of their coefficients); s = 0 (T = 0)
// only for a series without even terms.
std::complex<double> gaussian_fourier_mean(const FourierSeries& h, double s, double b);

// The most even terms gaussian_fourier_mean() sums, whatever b: about 9 / s.
double even_terms(double s);

}  // namespace askrff
