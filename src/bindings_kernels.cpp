// Exact Gram matrices, exported to R.
#include <Rcpp.h>

#include <vector>

#include "adapters.h"
#include "core/kernels/kernel_family.h"
#include "guards.h"
#include "parallel.h"
#include "result_matrix.h"

// Every kernel askrff has depends on x - y only, so both sets are centred on
// the midrange of their coordinates first: a common offset of any size then
// costs no accuracy in the distance expansion, and every centred coordinate
// stays finite (at most half the range), so differences never form Inf - Inf.
// The result is computed in tiles of rows of x by columns (rows of y), sized
// by the kernel's cost so that each tile takes milliseconds.
// [[Rcpp::export(.cpp_kernel_matrix)]]
Rcpp::NumericMatrix cpp_kernel_matrix(Rcpp::List kernel, Rcpp::NumericMatrix x,
                                      Rcpp::NumericMatrix y, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require(x.nrow() >= 1 && y.nrow() >= 1 && x.ncol() >= 1 && x.ncol() == y.ncol(),
                  "x and y must have rows and the same number of columns");
  const std::unique_ptr<askrff::Kernel> k = askrff::make_kernel(askrff::kernel_spec(kernel));
  // Wide data make these passes take a while: poll between them.
  askrff::InterruptPoll poll;
  const askrff::ConstMatrixMap x_in = askrff::as_map(x), y_in = askrff::as_map(y);
  const Eigen::RowVectorXd lo = x_in.colwise().minCoeff().cwiseMin(y_in.colwise().minCoeff());
  poll();
  const Eigen::RowVectorXd hi = x_in.colwise().maxCoeff().cwiseMax(y_in.colwise().maxCoeff());
  poll();
  const Eigen::RowVectorXd centre = 0.5 * lo + 0.5 * hi;
  const Eigen::MatrixXd xc = x_in.rowwise() - centre;
  poll();
  const askrff::ConstMatrixMap xm(xc.data(), xc.rows(), xc.cols());

  const Eigen::Index n_x = x.nrow(), n_y = y.nrow();
  // rows enough that the product's copy of the tile's points serves many
  constexpr Eigen::Index kTileRows = 256;
  const double cost = k->entry_cost(x.ncol());
  const Eigen::Index tile_cols = static_cast<Eigen::Index>(
      std::min<double>(n_y, std::max(1.0, std::floor(askrff::kBlockFlops / (kTileRows * cost)))));
  struct Columns {
    Eigen::Index begin;
    Eigen::MatrixXd points;
    Eigen::VectorXd sqnorm;
  };
  std::vector<Columns> tiles;
  for (Eigen::Index begin = 0; begin < n_y; begin += tile_cols) {
    const Eigen::Index width = std::min(tile_cols, n_y - begin);
    Eigen::MatrixXd points = y_in.middleRows(begin, width).rowwise() - centre;
    Eigen::VectorXd sqnorm = points.rowwise().squaredNorm();
    tiles.push_back({begin, std::move(points), std::move(sqnorm)});
    poll();
  }
  const std::size_t rows = askrff::rows_per_block(cost * static_cast<double>(tile_cols), kTileRows);
  const std::size_t row_tiles = (static_cast<std::size_t>(n_x) + rows - 1) / rows;

  Rcpp::NumericMatrix out = askrff::uninitialized_matrix(x.nrow(), y.nrow());
  double* op = out.begin();
  askrff::run_blocks(row_tiles * tiles.size(), n_threads, [&](std::size_t b) {
    const Columns& tile = tiles[b % tiles.size()];
    const Eigen::Index begin = static_cast<Eigen::Index>((b / tiles.size()) * rows);
    const askrff::ConstMatrixMap ym(tile.points.data(), tile.points.rows(), tile.points.cols());
    k->gram_rows(xm, ym, tile.sqnorm, begin, std::min<Eigen::Index>(n_x, begin + rows), op + tile.begin * n_x);
  });
  return out;
}

namespace {
Rcpp::List setting_list(const askrff::Setting& setting) {
  Rcpp::List out = Rcpp::List::create(Rcpp::Named("needs") = Rcpp::wrap(setting.needs));
  if (!setting.choices.empty()) {
    out["choices"] = Rcpp::wrap(setting.choices);
  } else {
    out["default"] = setting.default_number;
    out["lower"] = setting.lower;
    out["upper"] = setting.upper;
    out["upper_open"] = setting.upper_open;
  }
  return out;
}
}  // namespace

// What the kernel's family declares, under its parameters and settings.
// [[Rcpp::export(.cpp_kernel_traits)]]
Rcpp::List cpp_kernel_traits(Rcpp::List kernel) {
  const askrff::KernelTraits traits = askrff::kernel_traits(askrff::kernel_spec(kernel));
  Rcpp::List settings(traits.settings.size());
  Rcpp::CharacterVector setting_names(traits.settings.size());
  for (std::size_t i = 0; i < traits.settings.size(); ++i) {
    settings[i] = setting_list(traits.settings[i]);
    setting_names[i] = traits.settings[i].name;
  }
  settings.names() = setting_names;
  std::vector<std::string> scaled_names;
  std::vector<int> scaled_powers;
  for (const askrff::ScaledParam& p : traits.scaled_params) {
    scaled_names.push_back(p.name);
    scaled_powers.push_back(p.power);
  }
  return Rcpp::List::create(
      Rcpp::Named("coordinate_params") = Rcpp::wrap(traits.coordinate_params),
      Rcpp::Named("scaled_params") = Rcpp::List::create(Rcpp::Named("name") = Rcpp::wrap(scaled_names),
                                                        Rcpp::Named("power") = Rcpp::wrap(scaled_powers)),
      Rcpp::Named("measure") = traits.measure, Rcpp::Named("radial") = traits.radial,
      Rcpp::Named("on_sphere") = traits.on_sphere, Rcpp::Named("periodic") = traits.periodic,
      Rcpp::Named("settings") = settings,
      Rcpp::Named("features") = traits.features);
}

// c_0, c_1, ... of the kernel's expansion in x'y on the sphere
// (Kernel::dot_product_series()), empty for a kernel without a finite one.
// [[Rcpp::export(.cpp_dot_product_series)]]
Rcpp::NumericVector cpp_dot_product_series(Rcpp::List kernel) {
  return Rcpp::wrap(askrff::make_kernel(askrff::kernel_spec(kernel))->dot_product_series());
}

// [[Rcpp::export(.cpp_kernel_families)]]
Rcpp::CharacterVector cpp_kernel_families() {
  Rcpp::CharacterVector out;
  for (const askrff::KernelFamily& family : askrff::kernel_families()) out.push_back(family.name);
  return out;
}

// [[Rcpp::export(.cpp_check_kernel_dimension)]]
bool cpp_check_kernel_dimension(Rcpp::List kernel, int d) {
  askrff::require(d >= 1, "d must be at least 1");
  askrff::check_kernel_dimension(askrff::kernel_spec(kernel), d);
  return true;
}
