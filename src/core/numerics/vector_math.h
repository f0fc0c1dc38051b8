// Elementwise functions over arrays, vectorized for the instruction set in
// force (cpu_dispatch.h).
#pragma once
#include <cstddef>

namespace askrff {

// v[i] = exp(factor * v[i]) for i < n; within about one ulp of libm's exp.
void scaled_exp(double* v, std::size_t n, double factor);

}  // namespace askrff
