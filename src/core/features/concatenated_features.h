// Several maps side by side, each reading its own consecutive columns of the
// data: the features of rows (x, y, z) are [phi_x(x), phi_y(y), phi_z(z)], so
// that one pass of cross-products sums every block of a kernel test's
// covariances (Zx'Zx, Zx'Zy, ...) at once. A part without a map passes its
// columns through: features computed elsewhere (residuals, say) given as
// data.
#pragma once
#include <memory>
#include <vector>

#include "core/features/feature_map.h"

namespace askrff {

struct MapPart {
  std::unique_ptr<FeatureMap> map;  // null: the part's `columns` columns as they are
  int columns = 0;
};

std::unique_ptr<FeatureMap> make_concatenated_feature_map(std::vector<MapPart> parts);

}  // namespace askrff
