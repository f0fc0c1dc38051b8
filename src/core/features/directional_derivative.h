// The derivative of a map's features along a direction that may differ by
// row: row i is sum over j of J(i, j) times the features' partial derivative
// along coordinate c_j at x_i, for the partial derivative maps of those
// coordinates (sampled_map.h) and the weights J (x's rows by the
// coordinates). With J the derivative of each (standardized) design column
// by one variable of the data, it is the derivative of the features by that
// variable, through the formula's transformations and the standardization;
// any pass of the core (products with coefficients, posterior quadratic
// forms, sums) then runs on it as on features.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "core/features/feature_map.h"

namespace askrff {

// `jacobian` (n_rows by partials.size(), column-major) must outlive the map;
// the partial maps share one dimension and one number of columns.
std::unique_ptr<FeatureMap> make_directional_derivative_map(std::vector<std::unique_ptr<FeatureMap>> partials,
                                                            const double* jacobian, std::size_t n_rows);

}  // namespace askrff
