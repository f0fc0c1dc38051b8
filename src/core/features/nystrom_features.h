// Nystrom features K(x, Z) W: the kernel's exact values at the landmarks Z
// times fixed weights W (landmarks by feature columns), which R/map-nystrom.R
// takes from a decomposition of K_ZZ.
#pragma once
#include <Eigen/Dense>
#include <memory>

#include "core/features/feature_map.h"
#include "core/kernels/kernels.h"

namespace askrff {

// `kernel` evaluates K on a block of rows at a time; `transposed` takes
// K(Z, x)' in place of K(x, Z), the right side of an asymmetric kernel.
// Without a kernel (one R evaluates, such as a radial kernel given as an R
// function) the data are the rows of K(x, Z) themselves.
std::unique_ptr<FeatureMap> make_nystrom_feature_map(std::unique_ptr<const Kernel> kernel, Eigen::MatrixXd landmarks,
                                                     Eigen::MatrixXd weights, bool transposed);

}  // namespace askrff
