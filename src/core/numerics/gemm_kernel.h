// The packed, cache-blocked matrix product behind dense_product.h, written
// once for any vector width; dense_product.cpp instantiates it per
// instruction set. Included only there.
//
// The layout is the one of Goto and van de Geijn (2008), "Anatomy of
// high-performance matrix multiplication": a panel of kc rows of b is copied
// into slivers nr columns wide (kept in the L3 cache), a block of mc rows of
// a into slivers mr rows tall (kept in L2), and a register block of mr by nr
// accumulators multiplies one sliver of each, a rank-one update per step of
// k, while the b sliver stays in L1.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "core/numerics/dense_product.h"
#include "core/numerics/simd_vector.h"

namespace askrff {
namespace simd {

// Block sizes of one instruction set: mr = kMrVectors * Lanes rows by kNr
// columns of accumulators in registers.
template <int LanesArg, int MrVectors, int Nr, int Mc>
struct GemmShape {
  static constexpr int kLanes = LanesArg;
  static constexpr int kMrVectors = MrVectors;
  static constexpr int kMr = MrVectors * LanesArg;
  static constexpr int kNr = Nr;
  static constexpr int kKc = 256;
  static constexpr int kMc = Mc;
  static constexpr int kNc = (2048 / Nr) * Nr;
};

// The packing buffers of one thread, kept between calls so that a product
// does not fault in fresh pages; aligned for the vector loads.
struct PackBuffers {
  std::vector<double> a, b;
  static double* aligned(std::vector<double>& v, std::size_t n) {
    if (v.size() < n + 8) v.resize(n + 8);
    const std::size_t misaligned = reinterpret_cast<std::uintptr_t>(v.data()) % 64;
    return v.data() + (misaligned == 0 ? 0 : (64 - misaligned) / sizeof(double));
  }
};

inline PackBuffers& pack_buffers() {
  static thread_local PackBuffers buffers;
  return buffers;
}

inline double entry(const StridedMatrix& m, std::ptrdiff_t i, std::ptrdiff_t j) {
  return m.data[i * m.row_stride + j * m.col_stride];
}

// Rows [row, row + rows) by columns [col, col + cols) of m into slivers of
// `width` rows: sliver s holds, for each column p, its `width` rows
// contiguous, zero past the last row. Reads along the unit stride.
ASKRFF_INLINE void pack_slivers(const StridedMatrix& m, std::ptrdiff_t row, std::ptrdiff_t rows, std::ptrdiff_t col,
                                std::ptrdiff_t cols, int width, double* out) {
  for (std::ptrdiff_t s = 0; s < rows; s += width) {
    const int valid = static_cast<int>(std::min<std::ptrdiff_t>(width, rows - s));
    double* sliver = out + s * cols;
    if (m.row_stride == 1) {
      for (std::ptrdiff_t p = 0; p < cols; ++p) {
        const double* src = m.data + (row + s) + (col + p) * m.col_stride;
        double* dst = sliver + p * width;
        for (int r = 0; r < valid; ++r) dst[r] = src[r];
        for (int r = valid; r < width; ++r) dst[r] = 0.0;
      }
    } else {
      for (int r = 0; r < width; ++r) {
        if (r >= valid) {
          for (std::ptrdiff_t p = 0; p < cols; ++p) sliver[p * width + r] = 0.0;
          continue;
        }
        const double* src = m.data + (row + s + r) * m.row_stride + col * m.col_stride;
        for (std::ptrdiff_t p = 0; p < cols; ++p) sliver[p * width + r] = src[p * m.col_stride];
      }
    }
  }
}

// acc = sum over p < kc of a_sliver(:, p) b_sliver(p, :).
template <class S>
ASKRFF_INLINE void register_block(std::ptrdiff_t kc, const double* a, const double* b,
                                  typename Vec<S::kLanes>::f (&acc)[S::kNr][S::kMrVectors]) {
  typedef typename Vec<S::kLanes>::f V;
  ASKRFF_UNROLL
  for (int j = 0; j < S::kNr; ++j) {
    ASKRFF_UNROLL
    for (int v = 0; v < S::kMrVectors; ++v) acc[j][v] = V{} ;
  }
  for (std::ptrdiff_t p = 0; p < kc; ++p) {
    V av[S::kMrVectors];
    ASKRFF_UNROLL
    for (int v = 0; v < S::kMrVectors; ++v) std::memcpy(&av[v], a + v * S::kLanes, sizeof(V));
    ASKRFF_UNROLL
    for (int j = 0; j < S::kNr; ++j) {
      const double bj = b[j];
      ASKRFF_UNROLL
      for (int v = 0; v < S::kMrVectors; ++v) acc[j][v] += av[v] * bj;
    }
    a += S::kMr;
    b += S::kNr;
  }
}

// c(i, j) = alpha acc(i, j) + beta c(i, j) for the block's rows < rows and
// columns < cols, and with `lower` only where first_row + i >= first_col + j;
// beta = 0 does not read c.
template <class S>
ASKRFF_INLINE void store_block(const typename Vec<S::kLanes>::f (&acc)[S::kNr][S::kMrVectors], double alpha,
                               double beta, double* c, std::ptrdiff_t ldc, int rows, int cols, bool lower,
                               std::ptrdiff_t first_row, std::ptrdiff_t first_col) {
  typedef typename Vec<S::kLanes>::f V;
  const bool whole = rows == S::kMr && cols == S::kNr && (!lower || first_row >= first_col + S::kNr - 1);
  if (whole) {
    ASKRFF_UNROLL
    for (int j = 0; j < S::kNr; ++j) {
      double* column = c + j * ldc;
      ASKRFF_UNROLL
      for (int v = 0; v < S::kMrVectors; ++v) {
        V out = acc[j][v] * alpha;
        if (beta != 0.0) {
          V old;
          std::memcpy(&old, column + v * S::kLanes, sizeof(V));
          out += old * beta;
        }
        std::memcpy(column + v * S::kLanes, &out, sizeof(V));
      }
    }
    return;
  }
  double tile[S::kNr][S::kMr];
  std::memcpy(tile, acc, sizeof(tile));
  for (int j = 0; j < cols; ++j) {
    const int i_begin = lower ? static_cast<int>(std::max<std::ptrdiff_t>(0, first_col + j - first_row)) : 0;
    for (int i = i_begin; i < rows; ++i) {
      double& out = c[i + j * ldc];
      out = beta == 0.0 ? alpha * tile[j][i] : alpha * tile[j][i] + beta * out;
    }
  }
}

// c = alpha a b + beta c (only entries with i >= j when `lower`).
template <class S>
ASKRFF_INLINE void blocked_gemm(double alpha, const StridedMatrix& a, const StridedMatrix& b, double beta, double* c,
                                std::ptrdiff_t ldc, bool lower) {
  typedef typename Vec<S::kLanes>::f V;
  const std::ptrdiff_t m = a.rows, n = b.cols, k = a.cols;
  PackBuffers& buffers = pack_buffers();
  // kNc and kMc are multiples of kNr and kMr
  const std::ptrdiff_t nc_max = std::min<std::ptrdiff_t>(S::kNc, ((n + S::kNr - 1) / S::kNr) * S::kNr);
  const std::ptrdiff_t mc_max = std::min<std::ptrdiff_t>(S::kMc, ((m + S::kMr - 1) / S::kMr) * S::kMr);
  const std::ptrdiff_t kc_max = std::min<std::ptrdiff_t>(S::kKc, k);
  double* packed_b = PackBuffers::aligned(buffers.b, static_cast<std::size_t>(nc_max * kc_max));
  double* packed_a = PackBuffers::aligned(buffers.a, static_cast<std::size_t>(mc_max * kc_max));
  V acc[S::kNr][S::kMrVectors];
  for (std::ptrdiff_t jc = 0; jc < n; jc += S::kNc) {
    const std::ptrdiff_t nc = std::min<std::ptrdiff_t>(S::kNc, n - jc);
    if (lower && jc >= m) break;
    for (std::ptrdiff_t pc = 0; pc < k; pc += S::kKc) {
      const std::ptrdiff_t kc = std::min<std::ptrdiff_t>(S::kKc, k - pc);
      const double beta_here = pc == 0 ? beta : 1.0;
      pack_slivers(b.transpose(), jc, nc, pc, kc, S::kNr, packed_b);
      for (std::ptrdiff_t ic = 0; ic < m; ic += S::kMc) {
        const std::ptrdiff_t mc = std::min<std::ptrdiff_t>(S::kMc, m - ic);
        if (lower && ic + mc <= jc) continue;
        pack_slivers(a, ic, mc, pc, kc, S::kMr, packed_a);
        for (std::ptrdiff_t jr = 0; jr < nc; jr += S::kNr) {
          const int cols = static_cast<int>(std::min<std::ptrdiff_t>(S::kNr, nc - jr));
          for (std::ptrdiff_t ir = 0; ir < mc; ir += S::kMr) {
            const int rows = static_cast<int>(std::min<std::ptrdiff_t>(S::kMr, mc - ir));
            const std::ptrdiff_t i0 = ic + ir, j0 = jc + jr;
            if (lower && i0 + rows - 1 < j0) continue;
            register_block<S>(kc, packed_a + ir * kc, packed_b + jr * kc, acc);
            store_block<S>(acc, alpha, beta_here, c + i0 + j0 * ldc, ldc, rows, cols, lower, i0, j0);
          }
        }
      }
    }
  }
}

}  // namespace simd
}  // namespace askrff
