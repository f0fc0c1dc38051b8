#include "core/features/tensor_sketch_features.h"

#include <cmath>
#include <stdexcept>

#include "core/numerics/fft.h"

namespace askrff {

namespace {

class TensorSketchFeatureMap : public FeatureMap {
 public:
  TensorSketchFeatureMap(int d, bool has_constant, double constant, std::vector<SketchBlock> blocks)
      : d_(d), has_constant_(has_constant), constant_(constant), blocks_(std::move(blocks)) {
    for (const SketchBlock& block : blocks_) dft_.emplace_back(block.degree > 1 ? block.columns : 1);
  }

  int dimension() const override { return d_; }
  int n_columns() const override {
    int columns = has_constant_ ? 1 : 0;
    for (const SketchBlock& block : blocks_) columns += block.columns;
    return columns;
  }
  // A block's sketches and, above degree 1, a transform of each and an inverse
  // one, each about 5 n log2 n flops (twice that padded for Bluestein's).
  double row_cost() const override {
    double cost = 1.0;
    for (const SketchBlock& block : blocks_) {
      const double n = block.columns;
      cost += 2.0 * d_ * block.degree + n;
      if (block.degree > 1) cost += 20.0 * (block.degree + 1) * n * std::log2(2.0 * n + 2.0);
    }
    return cost;
  }

  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override {
    std::vector<double> sketch;
    std::vector<Complex> spectrum, level, work;
    for (std::size_t i = 0; i < row_end - row_begin; ++i) {
      const double* row = x + row_begin + i;
      double* target = out + i;
      if (has_constant_) {
        *target = constant_;
        target += ld_out;
      }
      for (std::size_t b = 0; b < blocks_.size(); ++b) {
        const SketchBlock& block = blocks_[b];
        const std::size_t n = static_cast<std::size_t>(block.columns);
        if (block.degree == 1) {
          count_sketch(block, 0, row, ld_x, sketch);
          for (std::size_t h = 0; h < n; ++h) target[h * ld_out] = block.scale * sketch[h];
        } else {
          for (int l = 0; l < block.degree; ++l) {
            count_sketch(block, l, row, ld_x, sketch);
            std::vector<Complex>& into = l == 0 ? spectrum : level;
            into.assign(sketch.begin(), sketch.end());
            dft_[b].forward(into.data(), work);
            if (l > 0) {
              for (std::size_t h = 0; h < n; ++h) spectrum[h] = times(spectrum[h], level[h]);
            }
          }
          dft_[b].inverse(spectrum.data(), work);
          for (std::size_t h = 0; h < n; ++h) target[h * ld_out] = block.scale * (spectrum[h].real() / block.columns);
        }
        target += n * ld_out;
      }
    }
    require_bounded(out, row_end - row_begin, n_columns(), ld_out, "tensor_sketch_map()");
  }

 private:
  // Sketch `level` of one row: bucket h sums sign_a x_a over the coordinates
  // a hashed to h, in the order of a.
  void count_sketch(const SketchBlock& block, int level, const double* row, std::size_t ld_x,
                    std::vector<double>& sketch) const {
    sketch.assign(static_cast<std::size_t>(block.columns), 0.0);
    const std::size_t offset = static_cast<std::size_t>(level) * d_;
    for (int a = 0; a < d_; ++a) {
      sketch[static_cast<std::size_t>(block.hash[offset + a])] += row[a * ld_x] * block.sign[offset + a];
    }
  }

  int d_;
  bool has_constant_;
  double constant_;
  std::vector<SketchBlock> blocks_;
  std::vector<Dft> dft_;
};

}  // namespace

std::unique_ptr<FeatureMap> make_tensor_sketch_feature_map(int d, bool has_constant, double constant,
                                                           std::vector<SketchBlock> blocks) {
  if (d < 1 || (blocks.empty() && !has_constant)) {
    throw std::invalid_argument("a Tensor Sketch map needs d >= 1 and a feature column");
  }
  long long columns = has_constant ? 1 : 0;
  for (const SketchBlock& block : blocks) {
    const std::size_t entries = static_cast<std::size_t>(d) * static_cast<std::size_t>(block.degree);
    if (block.degree < 1 || block.columns < 1 || block.hash.size() != entries || block.sign.size() != entries) {
      throw std::invalid_argument("a sketch block needs a degree, columns, and a hash and a sign per coordinate and level");
    }
    for (int h : block.hash) {
      if (h < 0 || h >= block.columns) throw std::invalid_argument("a sketch's hashes must name one of its block's columns");
    }
    columns += block.columns;
  }
  if (columns > 2147483647LL) throw std::invalid_argument("a Tensor Sketch map has at most 2^31 - 1 columns");
  return std::make_unique<TensorSketchFeatureMap>(d, has_constant, constant, std::move(blocks));
}

}  // namespace askrff
