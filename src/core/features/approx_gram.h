// Approximate Gram matrices scale * L(x) R(y)' a block at a time, so only one
// side's features and one block of the other's exist besides the result.
#pragma once
#include <Eigen/Dense>
#include <cstddef>

#include "core/features/feature_map.h"

namespace askrff {

// Rows of one side's feature matrix, computed on demand: from data through a
// feature map, or unpacked from stored one-bit features (sign_bits.h).
class FeatureRows {
 public:
  virtual ~FeatureRows() = default;
  virtual std::size_t n_rows() const = 0;
  virtual int n_columns() const = 0;
  // Flops per row, about (see FeatureMap::row_cost).
  virtual double row_cost() const { return 4.0 * n_columns(); }
  // Rows [row_begin, row_end) into rows 0.. of out (leading dimension ld_out).
  virtual void rows(std::size_t row_begin, std::size_t row_end, double* out, std::size_t ld_out) const = 0;
};

// Data x (column-major, n rows) through a feature map.
class MappedRows : public FeatureRows {
 public:
  MappedRows(const FeatureMap& map, const double* x, std::size_t n) : map_(map), x_(x), n_(n) {}
  std::size_t n_rows() const override { return n_; }
  int n_columns() const override { return map_.n_columns(); }
  double row_cost() const override { return map_.row_cost(); }
  void rows(std::size_t row_begin, std::size_t row_end, double* out, std::size_t ld_out) const override {
    map_.rows(x_, n_, row_begin, row_end, out, ld_out);
  }

 private:
  const FeatureMap& map_;
  const double* x_;
  std::size_t n_;
};

using ConstFeatures = Eigen::Map<const Eigen::MatrixXd>;

// Rows [row_begin, row_end) of scale * L R' into out (column-major, leading
// dimension ld_out): L from `left`, R = right_features (n_y by columns).
void approx_gram_rows(const FeatureRows& left, std::size_t row_begin, std::size_t row_end,
                      const ConstFeatures& right_features, double scale, double* out, std::size_t ld_out);

// Columns [col_begin, col_end) of scale * L R', L = left_features, R from
// `right`: the blocking for a large right side that is cheap to store.
void approx_gram_columns(const ConstFeatures& left_features, const FeatureRows& right, std::size_t col_begin,
                         std::size_t col_end, double scale, double* out, std::size_t ld_out);

}  // namespace askrff
