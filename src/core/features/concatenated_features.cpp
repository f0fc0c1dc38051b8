#include "core/features/concatenated_features.h"

#include <stdexcept>
#include <utility>

namespace askrff {

namespace {

class ConcatenatedMap final : public FeatureMap {
 public:
  explicit ConcatenatedMap(std::vector<MapPart> parts) : parts_(std::move(parts)) {
    if (parts_.empty()) throw std::invalid_argument("a concatenated map needs at least one part");
    for (const MapPart& part : parts_) {
      if (!part.map && part.columns < 1) throw std::invalid_argument("a part given as data needs at least one column");
      dimension_ += part.map ? part.map->dimension() : part.columns;
      columns_ += part.map ? part.map->n_columns() : part.columns;
      cost_ += part.map ? part.map->row_cost() : part.columns;
    }
  }

  int dimension() const override { return dimension_; }
  int n_columns() const override { return columns_; }
  double row_cost() const override { return cost_; }

  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override {
    std::size_t input = 0, output = 0;
    for (const MapPart& part : parts_) {
      if (part.map) {
        part.map->rows(x + input * ld_x, ld_x, row_begin, row_end, out + output * ld_out, ld_out);
        input += static_cast<std::size_t>(part.map->dimension());
        output += static_cast<std::size_t>(part.map->n_columns());
        continue;
      }
      for (int c = 0; c < part.columns; ++c, ++input, ++output) {
        for (std::size_t r = row_begin; r < row_end; ++r) out[output * ld_out + (r - row_begin)] = x[input * ld_x + r];
      }
    }
  }

 private:
  std::vector<MapPart> parts_;
  int dimension_ = 0, columns_ = 0;
  double cost_ = 0.0;
};

}  // namespace

std::unique_ptr<FeatureMap> make_concatenated_feature_map(std::vector<MapPart> parts) {
  return std::make_unique<ConcatenatedMap>(std::move(parts));
}

}  // namespace askrff
