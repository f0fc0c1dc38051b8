// One-bit features stored as bits: feature f of a point is bit f % 8 of its
// byte f / 8 (1 for +, 0 for -), ceil(m / 8) bytes per point, points one after
// another. Products with them never need the doubles the bits stand for.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/features/approx_gram.h"

namespace askrff {

inline std::size_t sign_bytes(int m) { return (static_cast<std::size_t>(m) + 7) / 8; }

// Bits of rows [row_begin, row_end) of the column-major n by m matrix
// `features`: set where the entry is positive.
void pack_signs(const double* features, std::size_t n, int m, std::size_t row_begin, std::size_t row_end,
                std::uint8_t* bits);

// Packed rows as features: +value or -value.
class SignRows : public FeatureRows {
 public:
  SignRows(const std::uint8_t* bits, std::size_t n, int m, double value)
      : bits_(bits), n_(n), m_(m), value_(value) {}
  std::size_t n_rows() const override { return n_; }
  int n_columns() const override { return m_; }
  void rows(std::size_t row_begin, std::size_t row_end, double* out, std::size_t ld_out) const override;
  const std::uint8_t* row_bits(std::size_t i) const { return bits_ + i * sign_bytes(m_); }

 private:
  const std::uint8_t* bits_;
  std::size_t n_;
  int m_;
  double value_;
};

// A side's bits as 64-bit words per point (unused high bits zero), the
// form the bit products read.
struct SignWords {
  explicit SignWords(const SignRows& side);
  std::size_t n_rows, n_words;
  std::vector<std::uint64_t> words;
  const std::uint64_t* row(std::size_t i) const { return words.data() + i * n_words; }
};

// Rows [row_begin, row_end) of scale * <s_i, t_j> for sign vectors of +-1
// entries, from m - 2 * (number of differing bits): exact in integers.
void sign_gram_rows(const SignWords& left, const SignWords& right, int m, std::size_t row_begin,
                    std::size_t row_end, double scale, double* out, std::size_t ld_out);

}  // namespace askrff
