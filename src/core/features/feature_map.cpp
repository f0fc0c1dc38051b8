#include "core/features/feature_map.h"

#include <climits>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/features/features.h"
#include "core/periodic/periodic_function.h"
#include "core/features/projection_features.h"

namespace askrff {

namespace {

class TrigFeatureMap : public FeatureMap {
 public:
  TrigFeatureMap(const double* omega, const double* phase, const double* weight, int d, int n_frequencies)
      : packed_(omega, phase, weight, d, n_frequencies) {}
  int dimension() const override { return packed_.d(); }
  int n_columns() const override { return 2 * packed_.n_frequencies(); }
  double row_cost() const override { return packed_.n_frequencies() * (2.0 * packed_.d() + 40.0); }
  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override {
    trig_features(packed_, x, ld_x, row_begin, row_end, out, ld_out);
  }

 private:
  PackedFeatureMap packed_;
};

class PeriodicFeatureMap : public FeatureMap {
 public:
  PeriodicFeatureMap(const double* omega, const double* dither, int d, int m,
                     std::unique_ptr<const PeriodicFunction> fun)
      : packed_(omega, dither, std::vector<double>(static_cast<std::size_t>(m), 1.0).data(), d, m),
        fun_(std::move(fun)),
        scale_(1.0 / std::sqrt(static_cast<double>(m))) {}
  int dimension() const override { return packed_.d(); }
  int n_columns() const override { return packed_.n_frequencies(); }
  double row_cost() const override { return packed_.n_frequencies() * (2.0 * packed_.d() + 40.0); }
  void rows(const double* x, std::size_t ld_x, std::size_t row_begin, std::size_t row_end, double* out,
            std::size_t ld_out) const override {
    periodic_features(packed_, *fun_, scale_, x, ld_x, row_begin, row_end, out, ld_out);
  }

 private:
  PackedFeatureMap packed_;
  std::unique_ptr<const PeriodicFunction> fun_;
  double scale_;
};

Projection projection_kind(const std::string& kind) {
  if (kind == "step") return Projection::step;
  if (kind == "relu") return Projection::relu;
  if (kind == "ntk") return Projection::ntk;
  throw std::invalid_argument("unknown feature kind '" + kind + "'");
}

}  // namespace

std::unique_ptr<FeatureMap> make_feature_map(const std::string& kind, const double* omega,
                                             const double* phase, const double* weight, int d,
                                             int n_frequencies) {
  if (d < 1 || n_frequencies < 1 || feature_columns(kind, d, n_frequencies) > INT_MAX) {
    throw std::invalid_argument("a feature map needs d >= 1 and 1 to 2^31 - 1 feature columns");
  }
  if (kind == "trig") return std::make_unique<TrigFeatureMap>(omega, phase, weight, d, n_frequencies);
  return std::make_unique<ProjectionFeatureMap>(projection_kind(kind), omega, weight, d, n_frequencies);
}

std::unique_ptr<FeatureMap> make_periodic_feature_map(const double* omega, const double* dither, int d, int m,
                                                      const std::string& fun) {
  if (d < 1 || m < 1) throw std::invalid_argument("a periodic map needs d >= 1 and a frequency");
  return std::make_unique<PeriodicFeatureMap>(omega, dither, d, m, make_periodic_function(fun));
}

void require_bounded(const double* out, std::size_t rows, int columns, std::size_t ld_out, const char* maker) {
  for (int j = 0; j < columns; ++j) {
    const double* column = out + static_cast<std::size_t>(j) * ld_out;
    for (std::size_t i = 0; i < rows; ++i) {
      if (!(std::abs(column[i]) <= kFeatureBound)) {
        throw std::invalid_argument(std::string("the features of the map overflow (beyond 1e150) on these data; make "
                                                "the map again with ") + maker);
      }
    }
  }
}

std::int64_t feature_columns(const std::string& kind, int d, int n_frequencies) {
  if (kind == "trig") return 2 * static_cast<std::int64_t>(n_frequencies);
  if (kind == "ntk") return (static_cast<std::int64_t>(d) + 1) * n_frequencies;
  projection_kind(kind);
  return n_frequencies;
}

}  // namespace askrff
