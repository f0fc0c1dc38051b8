// Tensor Sketch features of a dot-product kernel (Pham and Pagh, 2013): an
// optional constant column, then per kept degree p a block of D columns, the
// circular convolution of p independent count sketches of x of dimension D,
// times the block's scale. The convolution is the inverse transform of the
// product of the sketches' discrete Fourier transforms (fft.h).
#pragma once
#include <memory>
#include <vector>

#include "core/features/feature_map.h"

namespace askrff {

struct SketchBlock {
  int degree = 0, columns = 0;
  double scale = 0.0;
  // d by degree, column-major: the 0-based bucket and the sign of each
  // coordinate in each of the block's count sketches.
  std::vector<int> hash;
  std::vector<double> sign;
};

// `constant` present or not, with the value of its column.
std::unique_ptr<FeatureMap> make_tensor_sketch_feature_map(int d, bool has_constant, double constant,
                                                           std::vector<SketchBlock> blocks);

}  // namespace askrff
