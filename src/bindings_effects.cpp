// Derivatives of a fit's function by a variable of the data: the features'
// directional derivatives (directional_derivative.h) of a sampled
// trigonometric map's left side, a block of rows at a time.
#include <Rcpp.h>

#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "adapters.h"
#include "blocked_jobs.h"
#include "core/features/directional_derivative.h"
#include "core/sampling/sampled_map.h"
#include "guards.h"

namespace {

// The derivative map along the rows' directions: coordinates (from 1) of
// the map's data and the jacobian (rows of x by coordinates, finite).
std::unique_ptr<askrff::FeatureMap> directional_map(const Rcpp::List& map, const Rcpp::NumericMatrix& x,
                                                    const Rcpp::IntegerVector& coordinates,
                                                    const Rcpp::NumericMatrix& jacobian) {
  askrff::require(Rf_inherits(map, "rff_map"), "derivatives need a map of rff_map()");
  const askrff::SampledMapList sampled = askrff::sampled_map_list(map);
  askrff::require_data(x, sampled.view.d, "x");
  askrff::require(jacobian.nrow() == x.nrow() && jacobian.ncol() == coordinates.size() && coordinates.size() >= 1,
                  "the jacobian must have one row per row of x and one column per coordinate");
  for (const double v : jacobian) askrff::require(std::isfinite(v), "the jacobian must be finite");
  std::vector<std::unique_ptr<askrff::FeatureMap>> partials;
  for (const int c : coordinates) {
    askrff::require(c >= 1 && c <= sampled.view.d, "the coordinates must be columns of the map's data");
    partials.push_back(askrff::left_partial_derivative_map(sampled.view, c - 1));
  }
  return askrff::make_directional_derivative_map(std::move(partials), jacobian.begin(),
                                                 static_cast<std::size_t>(x.nrow()));
}

}  // namespace

// The rows' directional derivatives of the features: rows by feature
// columns, for a block of rows (R does the algebra of the effects on them).
// [[Rcpp::export(.cpp_effect_features)]]
Rcpp::NumericMatrix cpp_effect_features(Rcpp::List map, Rcpp::NumericMatrix x, Rcpp::IntegerVector coordinates,
                                        Rcpp::NumericMatrix jacobian, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> derivative = directional_map(map, x, coordinates, jacobian);
  return askrff::features(x, *derivative, n_threads);
}
