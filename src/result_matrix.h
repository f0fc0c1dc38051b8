// Allocation of large results. The kernels write every entry, so R's zero fill
// is skipped. On Linux a large result is mapped with MAP_POPULATE through R's
// allocVector3 and a custom allocator: the kernel then provides all pages in
// one call, about four times faster than a page fault per 4 KiB on first
// touch, which otherwise costs more than computing the features
// (bench/RESULTS.md).
#pragma once
#include <Rcpp.h>

#include <cstddef>

#if defined(__linux__)
#include <R_ext/Rallocators.h>
#include <sys/mman.h>
#endif

namespace askrff {

#if defined(__linux__) && defined(MAP_POPULATE)
namespace detail {
// The mapping's length sits in front of the block R receives, for munmap.
constexpr std::size_t kHeader = 64;

inline void* populated_alloc(R_allocator_t*, std::size_t bytes) {
  const std::size_t length = bytes + kHeader;
  void* mapping = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (mapping == MAP_FAILED) return nullptr;
  *static_cast<std::size_t*>(mapping) = length;
  return static_cast<char*>(mapping) + kHeader;
}

inline void populated_free(R_allocator_t*, void* block) {
  char* mapping = static_cast<char*>(block) - kHeader;
  munmap(mapping, *reinterpret_cast<std::size_t*>(mapping));
}
}  // namespace detail
#endif

inline Rcpp::NumericMatrix uninitialized_matrix(int rows, int cols) {
#if defined(__linux__) && defined(MAP_POPULATE)
  const R_xlen_t size = static_cast<R_xlen_t>(rows) * cols;
  if (static_cast<std::size_t>(size) * sizeof(double) >= (std::size_t(16) << 20)) {
    static R_allocator_t allocator = {detail::populated_alloc, detail::populated_free, nullptr, nullptr};
    Rcpp::Shield<SEXP> vector(Rf_allocVector3(REALSXP, size, &allocator));
    Rcpp::Shield<SEXP> dim(Rf_allocVector(INTSXP, 2));
    INTEGER(dim)[0] = rows;
    INTEGER(dim)[1] = cols;
    Rf_setAttrib(vector, R_DimSymbol, dim);
    return Rcpp::NumericMatrix(static_cast<SEXP>(vector));
  }
#endif
  return Rcpp::NumericMatrix(Rcpp::no_init(rows, cols));
}

}  // namespace askrff
