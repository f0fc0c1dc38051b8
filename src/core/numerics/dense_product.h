// Dense matrix products of the core's hot loops (Gram blocks, the ridge
// cross-products, approximate Gram matrices, Nystrom features, the
// eigendecomposition), computed by packed, cache-blocked kernels compiled
// for each instruction set the CPU may have and chosen at run time
// (cpu_dispatch.h). Single-threaded: callers run them on their own blocks.
#pragma once
#include <Eigen/Dense>
#include <cstddef>

namespace askrff {

// A matrix read through strides: entry (i, j) at data[i * row_stride + j * col_stride].
struct StridedMatrix {
  const double* data;
  std::ptrdiff_t rows, cols, row_stride, col_stride;
  StridedMatrix transpose() const { return {data, cols, rows, col_stride, row_stride}; }
};

// Any Eigen matrix, block or map (column-major).
template <class Derived>
StridedMatrix strided(const Eigen::DenseBase<Derived>& m) {
  static_assert(!(Derived::Flags & Eigen::RowMajorBit), "strided() takes column-major matrices");
  return {m.derived().data(), static_cast<std::ptrdiff_t>(m.rows()), static_cast<std::ptrdiff_t>(m.cols()),
          static_cast<std::ptrdiff_t>(m.derived().innerStride()), static_cast<std::ptrdiff_t>(m.derived().outerStride())};
}

// c = alpha a b + beta c, c column-major (a.rows by b.cols, leading dimension
// ldc). With beta = 0, c is written without being read, so it may hold
// anything (uninitialized memory, NaN).
void gemm(double alpha, const StridedMatrix& a, const StridedMatrix& b, double beta, double* c, std::ptrdiff_t ldc);

// As gemm() for a product known to be symmetric (b = a' as stored, say):
// only the lower triangle of c (i >= j) is computed, read and written.
void gemm_lower(double alpha, const StridedMatrix& a, const StridedMatrix& b, double beta, double* c,
                std::ptrdiff_t ldc);

// Copies c's lower triangle onto its upper triangle (c square, n by n).
void mirror_lower(double* c, std::ptrdiff_t n, std::ptrdiff_t ldc);

}  // namespace askrff
