// The unnormalized Walsh-Hadamard transform, in place: x <- H x with H the
// Sylvester matrix of order `size` (a power of two), entries +-1, H H = size I.
// The structured frequencies (structured_directions.h) and Fastfood's
// features (fastfood_features.h) apply it in O(size log size).
#pragma once

namespace askrff {

// `data` holds `size` entries, each a row of `width` contiguous doubles
// (width 1: a vector); every column of the rows is transformed.
void walsh_hadamard(double* data, int size, int width = 1);

}  // namespace askrff
