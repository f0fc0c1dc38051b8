#include "core/features/sign_bits.h"

#include <cstring>

namespace askrff {

void pack_signs(const double* features, std::size_t n, int m, std::size_t row_begin, std::size_t row_end,
                std::uint8_t* bits) {
  const std::size_t bytes = sign_bytes(m);
  std::memset(bits + row_begin * bytes, 0, (row_end - row_begin) * bytes);
  for (int f = 0; f < m; ++f) {
    const double* column = features + static_cast<std::size_t>(f) * n;
    const std::uint8_t mask = static_cast<std::uint8_t>(1u << (f % 8));
    for (std::size_t i = row_begin; i < row_end; ++i) {
      if (column[i] > 0.0) bits[i * bytes + f / 8] |= mask;
    }
  }
}

void SignRows::rows(std::size_t row_begin, std::size_t row_end, double* out, std::size_t ld_out) const {
  for (std::size_t i = row_begin; i < row_end; ++i) {
    const std::uint8_t* b = row_bits(i);
    double* dst = out + (i - row_begin);
    for (int f = 0; f < m_; ++f) {
      dst[static_cast<std::size_t>(f) * ld_out] = (b[f / 8] >> (f % 8)) & 1u ? value_ : -value_;
    }
  }
}

SignWords::SignWords(const SignRows& side)
    : n_rows(side.n_rows()), n_words((static_cast<std::size_t>(side.n_columns()) + 63) / 64),
      words(n_rows * n_words, 0) {
  const std::size_t bytes = sign_bytes(side.n_columns());
  for (std::size_t i = 0; i < n_rows; ++i) {
    const std::uint8_t* b = side.row_bits(i);
    for (std::size_t byte = 0; byte < bytes; ++byte) {
      words[i * n_words + byte / 8] |= static_cast<std::uint64_t>(b[byte]) << (8 * (byte % 8));
    }
  }
}

namespace {

// Always inlined, so that __builtin_popcountll expands with the caller's
// instruction set.
inline __attribute__((always_inline)) void sign_rows(const SignWords& left, const SignWords& right, int m,
                                                     std::size_t row_begin, std::size_t row_end, double scale,
                                                     double* out, std::size_t ld_out) {
  const std::size_t n_words = left.n_words;
  for (std::size_t j = 0; j < right.n_rows; ++j) {
    const std::uint64_t* r = right.row(j);
    for (std::size_t i = row_begin; i < row_end; ++i) {
      const std::uint64_t* l = left.row(i);
      int differ = 0;
      for (std::size_t w = 0; w < n_words; ++w) differ += __builtin_popcountll(l[w] ^ r[w]);
      out[i + j * ld_out] = scale * (m - 2 * differ);
    }
  }
}

void sign_rows_portable(const SignWords& left, const SignWords& right, int m, std::size_t row_begin,
                        std::size_t row_end, double scale, double* out, std::size_t ld_out) {
  sign_rows(left, right, m, row_begin, row_end, scale, out, ld_out);
}

#if defined(__GNUC__) && defined(__x86_64__)
// With the POPCNT instruction a word costs one instruction instead of a
// dozen; chosen at run time, as the AVX2 features are.
__attribute__((target("popcnt"))) void sign_rows_popcnt(const SignWords& left, const SignWords& right, int m,
                                                        std::size_t row_begin, std::size_t row_end,
                                                        double scale, double* out, std::size_t ld_out) {
  sign_rows(left, right, m, row_begin, row_end, scale, out, ld_out);
}

bool have_popcnt() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("popcnt");
}
#endif

}  // namespace

void sign_gram_rows(const SignWords& left, const SignWords& right, int m, std::size_t row_begin,
                    std::size_t row_end, double scale, double* out, std::size_t ld_out) {
#if defined(__GNUC__) && defined(__x86_64__)
  static const bool popcnt = have_popcnt();
  if (popcnt) return sign_rows_popcnt(left, right, m, row_begin, row_end, scale, out, ld_out);
#endif
  sign_rows_portable(left, right, m, row_begin, row_end, scale, out, ld_out);
}

}  // namespace askrff
