// A map whose row i is sum over j of W(i, j) M_j(x_i), each component map
// M_j reading its own block of x's columns. With M_j the partial
// derivative maps of the coordinates a variable moves (sampled_map.h) and
// W the design's Jacobian, it is the derivative of the features by that
// variable, through the formula's transformations and the
// standardization; with M_j one map on two versions of the rows (x's two
// blocks of columns) and W = (1, -1), the difference of their features;
// with the inverse link's slopes in W, the gradient of a GLM's effect on
// the mean. Any pass of the core then runs on it as on features.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "core/features/feature_map.h"

namespace askrff {

struct WeightedComponent {
  std::unique_ptr<FeatureMap> map;
  int first_column = 0;  // of x, where the component's columns begin
};

// `weights` (n_rows by components.size(), column-major) must outlive the
// map; the components share one number of columns and read columns of x
// within [0, dimension).
std::unique_ptr<FeatureMap> make_weighted_map_sum(std::vector<WeightedComponent> components, int dimension,
                                                  const double* weights, std::size_t n_rows);

}  // namespace askrff
