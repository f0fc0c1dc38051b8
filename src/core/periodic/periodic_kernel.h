// The expected kernel of random periodic features (periodic_kernel.cpp),
// evaluated at single distances for tests of its accuracy and its work.
#pragma once
#include <vector>

#include "core/kernels/kernels.h"

namespace askrff {

struct ExpectedKernelValue {
  double value;
  long terms;  // series terms summed over the components; 0 where closed forms apply
};

// The rpf_expected kernel `spec` at distances r from the origin, in data
// units: ||u|| for Gaussian bases, ||u||_1 for the Laplace kernel.
std::vector<ExpectedKernelValue> expected_kernel_at(const KernelSpec& spec, const std::vector<double>& distances);

}  // namespace askrff
