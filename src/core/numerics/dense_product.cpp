#include "core/numerics/dense_product.h"

#include "core/numerics/cpu_dispatch.h"
#include "core/numerics/gemm_kernel.h"

namespace askrff {

namespace {

// Register blocks: 12 of 16 vector registers hold accumulators with SSE2 and
// AVX2, 24 of 32 with AVX-512.
using BaselineShape = simd::GemmShape<2, 2, 6, 128>;
using Avx2Shape = simd::GemmShape<4, 2, 6, 96>;
using Avx512Shape = simd::GemmShape<8, 3, 8, 144>;

void gemm_baseline(double alpha, const StridedMatrix& a, const StridedMatrix& b, double beta, double* c,
                   std::ptrdiff_t ldc, bool lower) {
  simd::blocked_gemm<BaselineShape>(alpha, a, b, beta, c, ldc, lower);
}

#ifdef ASKRFF_X86_DISPATCH
ASKRFF_TARGET_AVX2 void gemm_avx2(double alpha, const StridedMatrix& a, const StridedMatrix& b, double beta,
                                  double* c, std::ptrdiff_t ldc, bool lower) {
  simd::blocked_gemm<Avx2Shape>(alpha, a, b, beta, c, ldc, lower);
}

ASKRFF_TARGET_AVX512 void gemm_avx512(double alpha, const StridedMatrix& a, const StridedMatrix& b, double beta,
                                      double* c, std::ptrdiff_t ldc, bool lower) {
  simd::blocked_gemm<Avx512Shape>(alpha, a, b, beta, c, ldc, lower);
}
#endif

// c = beta c where the product is empty (no columns in a, or alpha = 0).
void scale_only(double beta, double* c, std::ptrdiff_t rows, std::ptrdiff_t cols, std::ptrdiff_t ldc, bool lower) {
  for (std::ptrdiff_t j = 0; j < cols; ++j) {
    for (std::ptrdiff_t i = lower ? j : 0; i < rows; ++i) {
      double& out = c[i + j * ldc];
      out = beta == 0.0 ? 0.0 : beta * out;
    }
  }
}

void product(double alpha, const StridedMatrix& a, const StridedMatrix& b, double beta, double* c, std::ptrdiff_t ldc,
             bool lower) {
  if (a.rows <= 0 || b.cols <= 0) return;
  if (a.cols == 0 || alpha == 0.0) return scale_only(beta, c, a.rows, b.cols, ldc, lower);
  switch (active_instruction_set()) {
#ifdef ASKRFF_X86_DISPATCH
    case InstructionSet::avx512:
      return gemm_avx512(alpha, a, b, beta, c, ldc, lower);
    case InstructionSet::avx2:
      return gemm_avx2(alpha, a, b, beta, c, ldc, lower);
#endif
    default:
      return gemm_baseline(alpha, a, b, beta, c, ldc, lower);
  }
}

}  // namespace

void gemm(double alpha, const StridedMatrix& a, const StridedMatrix& b, double beta, double* c, std::ptrdiff_t ldc) {
  product(alpha, a, b, beta, c, ldc, false);
}

void gemm_lower(double alpha, const StridedMatrix& a, const StridedMatrix& b, double beta, double* c,
                std::ptrdiff_t ldc) {
  product(alpha, a, b, beta, c, ldc, true);
}

void mirror_lower(double* c, std::ptrdiff_t n, std::ptrdiff_t ldc) {
  // in tiles, so that both the columns read and the rows written stay in cache
  constexpr std::ptrdiff_t kTile = 64;
  for (std::ptrdiff_t jb = 0; jb < n; jb += kTile) {
    for (std::ptrdiff_t ib = jb; ib < n; ib += kTile) {
      for (std::ptrdiff_t j = jb; j < std::min(n, jb + kTile); ++j) {
        for (std::ptrdiff_t i = std::max(ib, j + 1); i < std::min(n, ib + kTile); ++i) c[j + i * ldc] = c[i + j * ldc];
      }
    }
  }
}

}  // namespace askrff
