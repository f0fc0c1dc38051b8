#include "core/features/fastfood_features.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "core/numerics/walsh_hadamard.h"

namespace askrff {

namespace {

class FastfoodFeatureMap : public FeatureMap {
 public:
  FastfoodFeatureMap(int d, int size, int n_frequencies, double amplitude, std::vector<FastfoodBlock> blocks)
      : d_(d), size_(size), n_(n_frequencies), amplitude_(amplitude), blocks_(std::move(blocks)) {}

  int dimension() const override { return d_; }
  int n_columns() const override { return 2 * n_; }
  double row_cost() const override {
    const double transform = 2.0 * size_ * std::log2(static_cast<double>(size_)) + 3.0 * size_;
    return static_cast<double>(blocks_.size()) * transform + 40.0 * n_;
  }

  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override {
    std::vector<double> padded(static_cast<std::size_t>(size_)), mixed(padded);
    const std::size_t size = static_cast<std::size_t>(size_), n = static_cast<std::size_t>(n_);
    for (std::size_t r = row_begin; r < row_end; ++r) {
      double* row_out = out + (r - row_begin);
      for (std::size_t b = 0; b < blocks_.size(); ++b) {
        const FastfoodBlock& block = blocks_[b];
        // H B x, x padded with zeros
        for (std::size_t j = 0; j < size; ++j) {
          padded[j] = j < static_cast<std::size_t>(d_) ? block.sign[j] * x[r + j * ld_x] : 0.0;
        }
        walsh_hadamard(padded.data(), size_);
        // H G P (H B x), then S
        for (std::size_t k = 0; k < size; ++k) {
          mixed[k] = block.gaussian[k] * padded[static_cast<std::size_t>(block.permutation[k])];
        }
        walsh_hadamard(mixed.data(), size_);
        for (std::size_t k = 0; k < size && b * size + k < n; ++k) {
          const double projection = block.scale[k] * mixed[k];
          const std::size_t column = b * size + k;
          row_out[column * ld_out] = amplitude_ * std::cos(projection);
          row_out[(n + column) * ld_out] = amplitude_ * std::sin(projection);
        }
      }
    }
  }

 private:
  int d_, size_, n_;
  double amplitude_;
  std::vector<FastfoodBlock> blocks_;
};

}  // namespace

std::unique_ptr<FeatureMap> make_fastfood_feature_map(int d, int size, int n_frequencies, double amplitude,
                                                      std::vector<FastfoodBlock> blocks) {
  if (d < 1 || size < d || (size & (size - 1)) != 0 || n_frequencies < 1 ||
      static_cast<double>(blocks.size()) * size < n_frequencies || !(amplitude > 0.0) || !std::isfinite(amplitude)) {
    throw std::invalid_argument("a Fastfood map needs d <= size, a power of two, enough blocks and a positive amplitude");
  }
  for (const FastfoodBlock& block : blocks) {
    const std::size_t size_entries = static_cast<std::size_t>(size);
    if (block.sign.size() != size_entries || block.gaussian.size() != size_entries ||
        block.scale.size() != size_entries || block.permutation.size() != size_entries) {
      throw std::invalid_argument("every Fastfood block needs size signs, normals, scales and a permutation");
    }
    std::vector<char> seen(size_entries, 0);
    for (const int p : block.permutation) {
      if (p < 0 || p >= size || seen[static_cast<std::size_t>(p)]) {
        throw std::invalid_argument("a Fastfood block's permutation must hold 1 to size once each");
      }
      seen[static_cast<std::size_t>(p)] = 1;
    }
    for (std::size_t k = 0; k < size_entries; ++k) {
      if (!std::isfinite(block.gaussian[k]) || !std::isfinite(block.scale[k]) || std::abs(block.sign[k]) != 1.0) {
        throw std::invalid_argument("a Fastfood block's signs must be -1 or 1 and its normals and scales finite");
      }
    }
  }
  return std::make_unique<FastfoodFeatureMap>(d, size, n_frequencies, amplitude, std::move(blocks));
}

}  // namespace askrff
