#include "core/features/directional_derivative.h"

#include <stdexcept>
#include <utility>

namespace askrff {

namespace {

class DirectionalDerivativeMap final : public FeatureMap {
 public:
  DirectionalDerivativeMap(std::vector<std::unique_ptr<FeatureMap>> partials, const double* jacobian,
                           std::size_t n_rows)
      : partials_(std::move(partials)), jacobian_(jacobian), n_rows_(n_rows) {
    if (partials_.empty()) throw std::invalid_argument("a directional derivative needs at least one coordinate");
    for (const auto& partial : partials_) {
      if (partial->dimension() != partials_[0]->dimension() || partial->n_columns() != partials_[0]->n_columns()) {
        throw std::invalid_argument("the partial derivative maps must have one dimension and one number of columns");
      }
    }
  }

  int dimension() const override { return partials_[0]->dimension(); }
  int n_columns() const override { return partials_[0]->n_columns(); }
  double row_cost() const override { return static_cast<double>(partials_.size()) * partials_[0]->row_cost(); }

  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override {
    if (row_end > n_rows_) throw std::invalid_argument("the rows are beyond the directions' rows");
    const std::size_t rows = row_end - row_begin;
    const int columns = n_columns();
    for (int c = 0; c < columns; ++c) {
      for (std::size_t i = 0; i < rows; ++i) out[static_cast<std::size_t>(c) * ld_out + i] = 0.0;
    }
    std::vector<double> partial(rows * static_cast<std::size_t>(columns));
    for (std::size_t j = 0; j < partials_.size(); ++j) {
      const double* weight = jacobian_ + j * n_rows_ + row_begin;
      bool any = false;
      for (std::size_t i = 0; i < rows; ++i) any = any || weight[i] != 0.0;
      if (!any) continue;  // a coordinate the variable does not move in these rows
      partials_[j]->rows(x, ld_x, row_begin, row_end, partial.data(), rows);
      for (int c = 0; c < columns; ++c) {
        double* column = out + static_cast<std::size_t>(c) * ld_out;
        const double* values = partial.data() + static_cast<std::size_t>(c) * rows;
        for (std::size_t i = 0; i < rows; ++i) column[i] += weight[i] * values[i];
      }
    }
  }

 private:
  std::vector<std::unique_ptr<FeatureMap>> partials_;
  const double* jacobian_;
  std::size_t n_rows_;
};

}  // namespace

std::unique_ptr<FeatureMap> make_directional_derivative_map(std::vector<std::unique_ptr<FeatureMap>> partials,
                                                            const double* jacobian, std::size_t n_rows) {
  return std::make_unique<DirectionalDerivativeMap>(std::move(partials), jacobian, n_rows);
}

}  // namespace askrff
