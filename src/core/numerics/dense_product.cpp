#include "core/numerics/dense_product.h"

#include <algorithm>

namespace askrff {

namespace {
double entry(const StridedMatrix& m, std::ptrdiff_t i, std::ptrdiff_t j) {
  return m.data[i * m.row_stride + j * m.col_stride];
}

void product(double alpha, const StridedMatrix& a, const StridedMatrix& b, double beta, double* c,
             std::ptrdiff_t ldc, bool lower) {
  for (std::ptrdiff_t j = 0; j < b.cols; ++j) {
    for (std::ptrdiff_t i = lower ? j : 0; i < a.rows; ++i) {
      double sum = 0.0;
      for (std::ptrdiff_t k = 0; k < a.cols; ++k) sum += entry(a, i, k) * entry(b, k, j);
      double& out = c[i + j * ldc];
      out = beta == 0.0 ? alpha * sum : alpha * sum + beta * out;
    }
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
  for (std::ptrdiff_t j = 0; j < n; ++j) {
    for (std::ptrdiff_t i = j + 1; i < n; ++i) c[j + i * ldc] = c[i + j * ldc];
  }
}

}  // namespace askrff
