#include "core/features/maclaurin_features.h"

#include <stdexcept>

namespace askrff {

namespace {

class MaclaurinFeatureMap : public FeatureMap {
 public:
  MaclaurinFeatureMap(Eigen::MatrixXd rademacher, std::vector<int> degree, std::vector<double> scale)
      : rademacher_(std::move(rademacher)), degree_(std::move(degree)), scale_(std::move(scale)) {
    first_.reserve(degree_.size());
    Eigen::Index next = 0;
    for (int n : degree_) {
      first_.push_back(next);
      next += n;
    }
  }

  int dimension() const override { return static_cast<int>(rademacher_.rows()); }
  int n_columns() const override { return static_cast<int>(degree_.size()); }
  double row_cost() const override {
    const double projections = static_cast<double>(rademacher_.cols());
    return kProductWeight * 2.0 * projections * static_cast<double>(rademacher_.rows()) + projections +
           static_cast<double>(degree_.size());
  }

  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override {
    const Eigen::Index rows = static_cast<Eigen::Index>(row_end - row_begin);
    const Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>> data(
        x + row_begin, rows, rademacher_.rows(), Eigen::OuterStride<>(static_cast<Eigen::Index>(ld_x)));
    const Eigen::MatrixXd projections = data * rademacher_;
    for (std::size_t j = 0; j < degree_.size(); ++j) {
      double* column = out + j * ld_out;
      for (Eigen::Index i = 0; i < rows; ++i) column[i] = scale_[j];
      for (int level = 0; level < degree_[j]; ++level) {
        const double* factor = projections.col(first_[j] + level).data();
        for (Eigen::Index i = 0; i < rows; ++i) column[i] *= factor[i];
      }
    }
    require_bounded(out, static_cast<std::size_t>(rows), n_columns(), ld_out, "maclaurin_map()");
  }

 private:
  Eigen::MatrixXd rademacher_;
  std::vector<int> degree_;
  std::vector<double> scale_;
  std::vector<Eigen::Index> first_;
};

}  // namespace

std::unique_ptr<FeatureMap> make_maclaurin_feature_map(Eigen::MatrixXd rademacher, std::vector<int> degree,
                                                       std::vector<double> scale) {
  Eigen::Index total = 0;
  for (int n : degree) {
    if (n < 0) throw std::invalid_argument("a Random Maclaurin column needs a degree of at least 0");
    total += n;
  }
  if (rademacher.rows() < 1 || degree.empty() || scale.size() != degree.size() || rademacher.cols() != total) {
    throw std::invalid_argument(
        "a Random Maclaurin map needs d >= 1, a degree and a scale per column, and one Rademacher vector per degree");
  }
  return std::make_unique<MaclaurinFeatureMap>(std::move(rademacher), std::move(degree), std::move(scale));
}

}  // namespace askrff
