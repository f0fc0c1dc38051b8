#include "core/numerics/walsh_hadamard.h"

#include <cstddef>

namespace askrff {

void walsh_hadamard(double* data, int size, int width) {
  const std::size_t w = static_cast<std::size_t>(width);
  for (int half = 1; half < size; half *= 2) {
    for (int start = 0; start < size; start += 2 * half) {
      for (int k = start; k < start + half; ++k) {
        double* a = data + static_cast<std::size_t>(k) * w;
        double* b = data + static_cast<std::size_t>(k + half) * w;
        // the butterfly: (a, b) <- (a + b, a - b), a row at a time
        for (std::size_t i = 0; i < w; ++i) {
          const double sum = a[i] + b[i];
          b[i] = a[i] - b[i];
          a[i] = sum;
        }
      }
    }
  }
}

}  // namespace askrff
