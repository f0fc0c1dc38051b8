// Random Maclaurin features of a dot-product kernel (Kar and Karnick, 2012):
// column j is scale_j times the product of degree_j projections rho'x on
// Rademacher vectors rho, a column of degree 0 the constant scale_j.
#pragma once
#include <Eigen/Dense>
#include <memory>
#include <vector>

#include "core/features/feature_map.h"

namespace askrff {

// `rademacher` (d by the sum of the degrees) holds the vectors of column 1,
// then those of column 2, and so on; `scale` has one entry per column.
std::unique_ptr<FeatureMap> make_maclaurin_feature_map(Eigen::MatrixXd rademacher, std::vector<int> degree,
                                                       std::vector<double> scale);

}  // namespace askrff
