#include "core/numerics/symmetric_matrix_vector.h"

#include <cstring>

#include "core/numerics/cpu_dispatch.h"
#include "core/numerics/simd_vector.h"

namespace askrff {
namespace {

// kColumns columns at a time: below their diagonal block, each vector of
// rows r adds sum_c a(r, c) x_c to y(r) and a(r, c) x(r) to column c's sum.
template <int Lanes>
ASKRFF_INLINE void product(const double* a, std::ptrdiff_t n, std::ptrdiff_t lda, const double* x, double* y) {
  typedef typename simd::Vec<Lanes>::f V;
  constexpr int kColumns = 6;
  for (std::ptrdiff_t i = 0; i < n; ++i) y[i] = 0.0;
  std::ptrdiff_t j = 0;
  for (; j + kColumns <= n; j += kColumns) {
    const double* column[kColumns];
    double sum[kColumns];
    V x_column[kColumns], partial[kColumns];
    ASKRFF_UNROLL
    for (int c = 0; c < kColumns; ++c) {
      column[c] = a + (j + c) * lda;
      const double xc = x[j + c];
      y[j + c] += column[c][j + c] * xc;
      sum[c] = 0.0;
      for (std::ptrdiff_t r = j + c + 1; r < j + kColumns; ++r) {
        y[r] += column[c][r] * xc;
        sum[c] += column[c][r] * x[r];
      }
      x_column[c] = V{} + xc;
      partial[c] = V{};
    }
    std::ptrdiff_t r = j + kColumns;
    for (; r + Lanes <= n; r += Lanes) {
      V xr, yr;
      std::memcpy(&xr, x + r, sizeof(V));
      std::memcpy(&yr, y + r, sizeof(V));
      ASKRFF_UNROLL
      for (int c = 0; c < kColumns; ++c) {
        V ac;
        std::memcpy(&ac, column[c] + r, sizeof(V));
        yr += ac * x_column[c];
        partial[c] += ac * xr;
      }
      std::memcpy(y + r, &yr, sizeof(V));
    }
    for (; r < n; ++r) {
      ASKRFF_UNROLL
      for (int c = 0; c < kColumns; ++c) {
        y[r] += column[c][r] * x[j + c];
        sum[c] += column[c][r] * x[r];
      }
    }
    ASKRFF_UNROLL
    for (int c = 0; c < kColumns; ++c) {
      double lanes[Lanes];
      std::memcpy(lanes, &partial[c], sizeof(V));
      for (int l = 0; l < Lanes; ++l) sum[c] += lanes[l];
      y[j + c] += sum[c];
    }
  }
  for (; j < n; ++j) {
    const double* column = a + j * lda;
    double sum = 0.0;
    y[j] += column[j] * x[j];
    for (std::ptrdiff_t r = j + 1; r < n; ++r) {
      y[r] += column[r] * x[j];
      sum += column[r] * x[r];
    }
    y[j] += sum;
  }
}

void product_baseline(const double* a, std::ptrdiff_t n, std::ptrdiff_t lda, const double* x, double* y) {
  product<2>(a, n, lda, x, y);
}

#ifdef ASKRFF_X86_DISPATCH
ASKRFF_TARGET_AVX2 void product_avx2(const double* a, std::ptrdiff_t n, std::ptrdiff_t lda, const double* x,
                                     double* y) {
  product<4>(a, n, lda, x, y);
}

ASKRFF_TARGET_AVX512 void product_avx512(const double* a, std::ptrdiff_t n, std::ptrdiff_t lda, const double* x,
                                         double* y) {
  product<8>(a, n, lda, x, y);
}
#endif

}  // namespace

void symmetric_matrix_vector(const double* a, std::ptrdiff_t n, std::ptrdiff_t lda, const double* x, double* y) {
  switch (active_instruction_set()) {
#ifdef ASKRFF_X86_DISPATCH
    case InstructionSet::avx512:
      return product_avx512(a, n, lda, x, y);
    case InstructionSet::avx2:
      return product_avx2(a, n, lda, x, y);
#endif
    default:
      return product_baseline(a, n, lda, x, y);
  }
}

}  // namespace askrff
