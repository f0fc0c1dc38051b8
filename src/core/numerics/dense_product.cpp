// STAND-IN until main's dispatched kernels land: Eigen's products compiled
// for AVX2 and FMA in this file only (the macros make Eigen pick its AVX
// packets; an int index keeps its templates apart from the other files'),
// so that the eigendecomposition can be timed. It assumes a CPU with AVX2 and
// FMA and must not be merged: main's dense_product.cpp replaces it.
#pragma GCC target("avx2,fma")
#ifndef __AVX2__
#define __AVX__ 1
#define __AVX2__ 1
#define __FMA__ 1
#endif
#define EIGEN_DEFAULT_DENSE_INDEX_TYPE int

#include "core/numerics/dense_product.h"

namespace askrff {

namespace {
using Strided = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
using Out = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

Strided view(const StridedMatrix& m) {
  return Strided(m.data, static_cast<int>(m.rows), static_cast<int>(m.cols),
                 Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(static_cast<int>(m.col_stride), static_cast<int>(m.row_stride)));
}

// Eigen's products are fast for unit inner stride only: copy the others.
template <class F>
void with_views(const StridedMatrix& a, const StridedMatrix& b, F f) {
  const auto run = [&](const auto& av) {
    if (b.row_stride == 1) {
      f(av, Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>(b.data, static_cast<int>(b.rows), static_cast<int>(b.cols),
                                                                      Eigen::OuterStride<>(static_cast<int>(b.col_stride))));
    } else if (b.col_stride == 1) {
      f(av, Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>(b.data, static_cast<int>(b.cols), static_cast<int>(b.rows),
                                                                      Eigen::OuterStride<>(static_cast<int>(b.row_stride)))
                .transpose());
    } else {
      f(av, Eigen::MatrixXd(view(b)));
    }
  };
  if (a.row_stride == 1) {
    run(Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>(a.data, static_cast<int>(a.rows), static_cast<int>(a.cols),
                                                                  Eigen::OuterStride<>(static_cast<int>(a.col_stride))));
  } else if (a.col_stride == 1) {
    run(Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>(a.data, static_cast<int>(a.cols), static_cast<int>(a.rows),
                                                                  Eigen::OuterStride<>(static_cast<int>(a.row_stride)))
            .transpose());
  } else {
    run(Eigen::MatrixXd(view(a)));
  }
}
}  // namespace

void gemm(double alpha, const StridedMatrix& a, const StridedMatrix& b, double beta, double* c, std::ptrdiff_t ldc) {
  if (a.rows == 0 || b.cols == 0) return;
  Out out(c, static_cast<int>(a.rows), static_cast<int>(b.cols), Eigen::OuterStride<>(static_cast<int>(ldc)));
  if (a.cols == 0) {
    if (beta == 0.0) out.setZero(); else out *= beta;
    return;
  }
  with_views(a, b, [&](const auto& av, const auto& bv) {
    if (beta == 0.0) {
      out.noalias() = alpha * av * bv;
    } else {
      if (beta != 1.0) out *= beta;
      out.noalias() += alpha * av * bv;
    }
  });
}

void gemm_lower(double alpha, const StridedMatrix& a, const StridedMatrix& b, double beta, double* c,
                std::ptrdiff_t ldc) {
  if (a.rows == 0 || b.cols == 0) return;
  Out out(c, static_cast<int>(a.rows), static_cast<int>(b.cols), Eigen::OuterStride<>(static_cast<int>(ldc)));
  if (a.cols == 0) {
    if (beta == 0.0) out.triangularView<Eigen::Lower>().setZero(); else out.triangularView<Eigen::Lower>() *= beta;
    return;
  }
  with_views(a, b, [&](const auto& av, const auto& bv) {
    if (beta == 0.0) out.triangularView<Eigen::Lower>().setZero();
    else if (beta != 1.0) out.triangularView<Eigen::Lower>() *= beta;
    out.triangularView<Eigen::Lower>() += alpha * av * bv;
  });
}

void mirror_lower(double* c, std::ptrdiff_t n, std::ptrdiff_t ldc) {
  for (std::ptrdiff_t j = 0; j < n; ++j) {
    for (std::ptrdiff_t i = j + 1; i < n; ++i) c[j + i * ldc] = c[i + j * ldc];
  }
}

}  // namespace askrff
