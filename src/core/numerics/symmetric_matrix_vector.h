// The symmetric matrix-vector product of the tridiagonal reduction, half
// its work and bound by memory bandwidth: each entry of the lower triangle
// is read once and used twice. Compiled per instruction set (cpu_dispatch.h).
#pragma once
#include <cstddef>

namespace askrff {

// y = A x for the symmetric A of order n whose lower triangle is stored
// column-major with leading dimension lda; the strict upper triangle is not read.
void symmetric_matrix_vector(const double* a, std::ptrdiff_t n, std::ptrdiff_t lda, const double* x, double* y);

}  // namespace askrff
