// Allocation of large results. The kernels write every entry, so R's zero fill
// is skipped. On Linux a large result is mapped through R's allocVector3 and a
// custom allocator, aligned to 2 MB and advised to use transparent huge pages
// where the system grants them; the threads that compute the result then
// touch its pages first, each fault providing (and zeroing) 2 MB in the
// thread that needs it. Where the system grants no huge pages, a page fault
// per 4 KiB costs more than computing features (bench/RESULTS.md), so the
// operating system provides all the pages before the kernels run instead
// (MADV_POPULATE_WRITE, or MAP_POPULATE over the range before Linux 5.14), as
// it does for a result of a gigabyte or more, whose first blocks would
// otherwise fault in much of it before a user interrupt is next checked:
// those pages come 64 MB at a time with a check for an interrupt between.
#pragma once
#include <Rcpp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

#if defined(__linux__)
#include <R_ext/Rallocators.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace askrff {

#if defined(__linux__) && defined(MAP_POPULATE)
namespace detail {
// The mapping's start and length sit in front of the block R receives, for
// munmap.
struct MappingHeader {
  void* start;
  std::size_t length;
};
constexpr std::size_t kHeader = 64;
constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kPopulateBytes = std::size_t(64) << 20;
constexpr std::size_t kPopulateAlways = std::size_t(1) << 30;

// Whether the kernel grants transparent huge pages to a mapping that asks
// (the setting is "always" or "madvise", not "never").
inline bool huge_pages_granted() {
  static const bool granted = [] {
    std::FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f) return false;
    char setting[128] = {0};
    const bool read = std::fgets(setting, sizeof(setting), f) != nullptr;
    std::fclose(f);
    return read && std::strstr(setting, "[never]") == nullptr;
  }();
  return granted;
}

inline void* mapped_alloc(R_allocator_t*, std::size_t bytes) {
  const std::size_t length = bytes + kHeader + kHugePage;
  void* mapping = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) return nullptr;
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(mapping);
  char* aligned = reinterpret_cast<char*>((start + kHugePage - 1) / kHugePage * kHugePage);
#if defined(MADV_HUGEPAGE)
  if (huge_pages_granted()) madvise(aligned, bytes + kHeader, MADV_HUGEPAGE);
#endif
  *reinterpret_cast<MappingHeader*>(aligned) = {mapping, length};
  return aligned + kHeader;
}

inline void mapped_free(R_allocator_t*, void* block) {
  const MappingHeader header = *reinterpret_cast<MappingHeader*>(static_cast<char*>(block) - kHeader);
  munmap(header.start, header.length);
}

// Provides the pages of [begin, end), inside one of our mappings, from the
// first page boundary on (the page before holds R's header, already
// touched), a chunk at a time.
inline void populate(char* begin, char* end) {
  const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  char* p = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(begin) + page - 1) / page * page);
  bool advise = true;
  while (p < end) {
    const std::size_t length = std::min(kPopulateBytes, static_cast<std::size_t>(end - p));
#if defined(MADV_POPULATE_WRITE)
    if (advise && madvise(p, length, MADV_POPULATE_WRITE) != 0) advise = false;
#else
    advise = false;
#endif
    if (!advise && mmap(p, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_POPULATE,
                        -1, 0) == MAP_FAILED) {
      throw std::bad_alloc();
    }
    p += length;
    Rcpp::checkUserInterrupt();
  }
}
}  // namespace detail
#endif

inline Rcpp::NumericMatrix uninitialized_matrix(int rows, int cols) {
#if defined(__linux__) && defined(MAP_POPULATE)
  const R_xlen_t size = static_cast<R_xlen_t>(rows) * cols;
  if (static_cast<std::size_t>(size) * sizeof(double) >= (std::size_t(16) << 20)) {
    static R_allocator_t allocator = {detail::mapped_alloc, detail::mapped_free, nullptr, nullptr};
    Rcpp::Shield<SEXP> vector(Rf_allocVector3(REALSXP, size, &allocator));
    char* data = reinterpret_cast<char*>(REAL(vector));
    const std::size_t bytes = static_cast<std::size_t>(size) * sizeof(double);
    if (!detail::huge_pages_granted() || bytes >= detail::kPopulateAlways) detail::populate(data, data + bytes);
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
