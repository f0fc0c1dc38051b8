#include "core/features/weighted_map_sum.h"

#include <stdexcept>
#include <utility>

namespace askrff {

namespace {

class WeightedMapSum final : public FeatureMap {
 public:
  WeightedMapSum(std::vector<WeightedComponent> components, int dimension, const double* weights, std::size_t n_rows)
      : components_(std::move(components)), dimension_(dimension), weights_(weights), n_rows_(n_rows) {
    if (components_.empty()) throw std::invalid_argument("a weighted sum of maps needs at least one map");
    for (const WeightedComponent& c : components_) {
      if (c.map->n_columns() != components_[0].map->n_columns()) {
        throw std::invalid_argument("the maps of a weighted sum must have one number of columns");
      }
      if (c.first_column < 0 || c.first_column + c.map->dimension() > dimension_) {
        throw std::invalid_argument("the maps of a weighted sum must read columns of the data");
      }
    }
  }

  int dimension() const override { return dimension_; }
  int n_columns() const override { return components_[0].map->n_columns(); }
  double row_cost() const override {
    return static_cast<double>(components_.size()) * components_[0].map->row_cost();
  }

  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override {
    if (row_end > n_rows_) throw std::invalid_argument("the rows are beyond the weights' rows");
    const std::size_t rows = row_end - row_begin;
    const int columns = n_columns();
    for (int c = 0; c < columns; ++c) {
      for (std::size_t i = 0; i < rows; ++i) out[static_cast<std::size_t>(c) * ld_out + i] = 0.0;
    }
    std::vector<double> part(rows * static_cast<std::size_t>(columns));
    for (std::size_t j = 0; j < components_.size(); ++j) {
      const double* weight = weights_ + j * n_rows_ + row_begin;
      bool any = false;
      for (std::size_t i = 0; i < rows; ++i) any = any || weight[i] != 0.0;
      if (!any) continue;  // a component these rows do not weigh
      const WeightedComponent& component = components_[j];
      component.map->rows(x + static_cast<std::size_t>(component.first_column) * ld_x, ld_x, row_begin, row_end,
                          part.data(), rows);
      for (int c = 0; c < columns; ++c) {
        double* column = out + static_cast<std::size_t>(c) * ld_out;
        const double* values = part.data() + static_cast<std::size_t>(c) * rows;
        for (std::size_t i = 0; i < rows; ++i) column[i] += weight[i] * values[i];
      }
    }
  }

 private:
  std::vector<WeightedComponent> components_;
  int dimension_;
  const double* weights_;
  std::size_t n_rows_;
};

}  // namespace

std::unique_ptr<FeatureMap> make_weighted_map_sum(std::vector<WeightedComponent> components, int dimension,
                                                  const double* weights, std::size_t n_rows) {
  return std::make_unique<WeightedMapSum>(std::move(components), dimension, weights, n_rows);
}

}  // namespace askrff
