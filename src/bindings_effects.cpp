// The passes of rff_effects(): the features of a sampled trigonometric
// map's left side and their partial derivatives, weighted row by row and
// summed (weighted_map_sum.h), times fixed columns g, and their sum over
// the rows (projection_pass.h).
#include <Rcpp.h>

#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "adapters.h"
#include "core/features/weighted_map_sum.h"
#include "core/sampling/sampled_map.h"
#include "core/statistics/projection_pass.h"
#include "guards.h"
#include "model_glue.h"
#include "parallel.h"

using askrff::to_r;

// Row i of the weighted map is sum over j of weights(i, j) M_j(x_i), M_j
// the map's left features (coordinates[j] = 0) or their derivative along
// coordinate coordinates[j] (from 1), on x's block of columns blocks[j]
// (from 1; x holds blocks of the map's dimension side by side); a single
// component of the features weighted by 1 is the map itself. Returns the
// rows' products with g (rows by g's columns) and the sums over the rows
// weighted by 1 and by each column of a (feature columns by 1 + a's).
// [[Rcpp::export(.cpp_effect_pass)]]
Rcpp::List cpp_effect_pass(Rcpp::List map, Rcpp::NumericMatrix x, Rcpp::IntegerVector blocks,
                           Rcpp::IntegerVector coordinates, Rcpp::NumericMatrix weights, Rcpp::NumericMatrix g,
                           Rcpp::NumericMatrix a, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::require(Rf_inherits(map, "rff_map"), "effects need a map of rff_map()");
  const askrff::SampledMapList sampled = askrff::sampled_map_list(map);
  const int d = sampled.view.d;
  askrff::require(x.ncol() >= d && x.ncol() % d == 0, "x must hold blocks of the map's dimension side by side");
  for (const double v : x) askrff::require(std::isfinite(v), "x must be finite");
  askrff::require(blocks.size() == coordinates.size() && blocks.size() >= 1 && weights.ncol() == blocks.size() &&
                      weights.nrow() == x.nrow(),
                  "the weights must have one row per row of x and one column per component");
  for (const double v : weights) askrff::require(std::isfinite(v), "the weights must be finite");
  std::vector<askrff::WeightedComponent> components;
  for (R_xlen_t j = 0; j < blocks.size(); ++j) {
    askrff::require(blocks[j] >= 1 && blocks[j] <= x.ncol() / d, "the blocks must be blocks of x's columns");
    askrff::require(coordinates[j] >= 0 && coordinates[j] <= d, "the coordinates must be columns of the map's data");
    std::unique_ptr<askrff::FeatureMap> component =
        coordinates[j] == 0 ? askrff::side_map(sampled.view, askrff::Side::left)
                            : askrff::left_partial_derivative_map(sampled.view, coordinates[j] - 1);
    components.push_back({std::move(component), (blocks[j] - 1) * d});
  }
  bool plain = components.size() == 1 && coordinates[0] == 0 && blocks[0] == 1 && x.ncol() == d;
  for (const double v : weights) plain = plain && v == 1.0;
  const std::unique_ptr<askrff::FeatureMap> sum =
      plain ? std::move(components[0].map)
            : askrff::make_weighted_map_sum(std::move(components), x.ncol(), weights.begin(),
                                            static_cast<std::size_t>(x.nrow()));
  askrff::require(g.nrow() == sum->n_columns(), "g must have one row per feature column");
  for (const double v : g) askrff::require(std::isfinite(v), "g must be finite");
  askrff::require(a.nrow() == x.nrow(), "a must have one row per row of x");
  for (const double v : a) askrff::require(std::isfinite(v), "a must be finite");
  const askrff::RowProjections pass =
      askrff::project_rows(*sum, x.begin(), static_cast<std::size_t>(x.nrow()),
                           Eigen::Map<const Eigen::MatrixXd>(g.begin(), g.nrow(), g.ncol()),
                           Eigen::Map<const Eigen::MatrixXd>(a.begin(), a.nrow(), a.ncol()), askrff::thread_runner(n_threads));
  return Rcpp::List::create(Rcpp::Named("projections") = to_r(pass.projections), Rcpp::Named("sums") = to_r(pass.sums));
}
