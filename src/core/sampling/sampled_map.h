// A sampled map: frequencies drawn from every positive part of a measure, and
// the pair of feature maps they give, the left one for the first kernel
// argument and the right one for the second.
//
// Part p with coefficient c, total mass m and share s (the expected
// fraction of the map's n frequencies it receives) contributes
//   c * m / (n s) * sum over its frequencies of cos(w'(x - y) + phase_left(w) - right_phase),
// which is unbiased whether the part's count is fixed (s = count / n) or
// drawn by systematic sampling with mean n s. So the left side carries
// sqrt(|c| m / (n s)) and the phase of mu when the part samples |mu|; the
// right side the sign of c, the same magnitude and the part's right phase.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/features/feature_map.h"
#include "core/laws/measure.h"
#include "core/numerics/poll.h"
#include "core/sampling/sampling.h"

namespace askrff {

// How the map's n frequencies are shared among the parts: in proportion to
// |c| m by systematic sampling (every part's estimator stays unbiased and a
// part of zero mass gets none), or as evenly as possible.
enum class Allocation { mass, equal };

struct PartWeight {
  double coefficient, mass, right_phase, share;
};

// A map's frequencies (d by n, column-major) with the part (0-based) and left
// phase of each: memory owned by the caller (R's vectors).
struct MapView {
  int d = 0, n = 0;
  const double* omega = nullptr;
  const int* part = nullptr;
  const double* phase = nullptr;
  std::vector<PartWeight> parts;
  std::string features = "trig";
};

enum class Side { left, right };

std::unique_ptr<FeatureMap> side_map(const MapView& map, Side side);

// The partial derivatives of the left side's features along coordinate j
// (0-based) of trigonometric features: d/dx_j of a cos(x'w + p) is
// -a w_j sin(x'w + p) = a w_j cos(x'w + p + pi/2), and of a sin(x'w + p)
// likewise a w_j sin(x'w + p + pi/2), so they are the same features with
// the phases moved by pi/2 and the weights times w_j. Throws for other
// feature kinds.
std::unique_ptr<FeatureMap> left_partial_derivative_map(const MapView& map, int coordinate);

// What the allocation does with n frequencies, for approximation_study()'s
// closed-form variance: each part's share, and the covariance of the parts'
// counts (P by P, column-major; 0 for "equal", whose counts are fixed).
struct AllocationLaw {
  std::vector<double> share, covariance;
};

AllocationLaw allocation_law(const Measure& measure, int n, Allocation allocation);

// Draws the n frequencies of a map from the measure's parts into omega
// (d by n), part (0-based) and phase, grouped by part in the measure's order;
// returns each part's share. Part p draws from streams keyed by (seed, p).
std::vector<double> sample_map(const Measure& measure, int d, int n, Method method, Allocation allocation,
                               std::uint64_t seed, double* omega, int* part, double* phase,
                               const Poll& poll = no_poll);

}  // namespace askrff
