#include "core/sampling/sampled_map.h"

#include <cmath>
#include <stdexcept>

#include "core/numerics/random.h"

namespace askrff {

namespace {

// Block key of the allocation's stream, apart from every part's blocks.
constexpr std::uint64_t kAllocationPart = 0xFFFFFFFFFFFFFFFFULL;
constexpr std::uint64_t kAllocationBlock = 0x7FFFFFFFFFFFFFFFULL;

// Each part's probability under allocation = "mass": |c| m over the total.
std::vector<double> mass_probabilities(const Measure& measure) {
  double total = 0.0;
  for (const Part& part : measure) total += std::abs(part.coefficient) * part.mass;
  if (!(total > 0.0) || !std::isfinite(total)) throw std::invalid_argument("the measure's parts have no mass to share");
  std::vector<double> probability(measure.size());
  for (std::size_t p = 0; p < measure.size(); ++p) probability[p] = std::abs(measure[p].coefficient) * measure[p].mass / total;
  return probability;
}

// The counts of allocation = "equal": as even as possible, the first parts
// taking one more.
std::vector<int> equal_counts(std::size_t n_parts, int n) {
  if (n < static_cast<int>(n_parts)) {
    throw std::invalid_argument("allocation = \"equal\" needs at least one frequency per part: n_features >= " +
                                std::to_string(n_parts));
  }
  std::vector<int> counts(n_parts);
  for (std::size_t p = 0; p < n_parts; ++p) {
    counts[p] = n / static_cast<int>(n_parts) + (static_cast<int>(p) < n % static_cast<int>(n_parts) ? 1 : 0);
  }
  return counts;
}

std::vector<int> part_counts(const Measure& measure, int n, Allocation allocation, std::vector<double>& share,
                             std::uint64_t seed) {
  if (allocation == Allocation::equal) {
    const std::vector<int> counts = equal_counts(measure.size(), n);
    share.assign(counts.begin(), counts.end());
    for (double& s : share) s /= n;
    return counts;
  }
  share = mass_probabilities(measure);
  Stream stream(seed, kAllocationPart, kAllocationBlock);
  return systematic_counts(share, n, stream);
}

}  // namespace

namespace {

// Each frequency's phase and weight on one side.
void side_phases_weights(const MapView& map, Side side, std::vector<double>& phase, std::vector<double>& weight) {
  phase.resize(static_cast<std::size_t>(map.n));
  weight.resize(static_cast<std::size_t>(map.n));
  for (int f = 0; f < map.n; ++f) {
    const PartWeight& p = map.parts.at(static_cast<std::size_t>(map.part[f]));
    if (!(p.share > 0.0)) throw std::invalid_argument("a part with frequencies needs a positive share");
    const double magnitude = std::sqrt(std::abs(p.coefficient) * p.mass / (map.n * p.share));
    if (side == Side::left) {
      phase[f] = map.phase[f];
      weight[f] = magnitude;
    } else {
      phase[f] = p.right_phase;
      weight[f] = p.coefficient < 0.0 ? -magnitude : magnitude;
    }
  }
}

}  // namespace

std::unique_ptr<FeatureMap> side_map(const MapView& map, Side side) {
  std::vector<double> phase, weight;
  side_phases_weights(map, side, phase, weight);
  return make_feature_map(map.features, map.omega, phase.data(), weight.data(), map.d, map.n);
}

std::unique_ptr<FeatureMap> left_partial_derivative_map(const MapView& map, int coordinate) {
  if (map.features != "trig") {
    throw std::invalid_argument("derivatives need trigonometric features; this map's are '" + map.features + "'");
  }
  if (coordinate < 0 || coordinate >= map.d) throw std::invalid_argument("the coordinate must be one of the map's");
  std::vector<double> phase, weight;
  side_phases_weights(map, Side::left, phase, weight);
  const double quarter_turn = 2.0 * std::atan(1.0);
  for (int f = 0; f < map.n; ++f) {
    phase[f] += quarter_turn;
    weight[f] *= map.omega[static_cast<std::size_t>(f) * map.d + coordinate];
  }
  return make_feature_map(map.features, map.omega, phase.data(), weight.data(), map.d, map.n);
}

std::vector<double> sample_map(const Measure& measure, int d, int n, Method method, Allocation allocation,
                               std::uint64_t seed, double* omega, int* part, double* phase, const Poll& poll) {
  if (d < 1 || n < 1) throw std::invalid_argument("a map needs d >= 1 and n_features >= 1");
  for (const Part& part : measure) {
    if (!law_takes(*part.sampler, method)) {
      throw std::invalid_argument("the part '" + part.name + "' of this measure cannot take method = \"" +
                                  source_name(method) + "\"; use method = \"iid\"");
    }
  }
  std::vector<double> share;
  const std::vector<int> counts = part_counts(measure, n, allocation, share, seed);
  std::size_t first = 0;
  for (std::size_t p = 0; p < measure.size(); ++p) {
    const int count = counts[p];
    if (count == 0) continue;
    double* sampled = omega + first * d;
    sample_frequencies(*measure[p].sampler, d, count, method, seed, static_cast<int>(p), sampled, poll);
    for (int j = 0; j < count; ++j) {
      part[first + j] = static_cast<int>(p);
      phase[first + j] = measure[p].left_phase ? measure[p].left_phase(sampled + static_cast<std::size_t>(j) * d) : 0.0;
    }
    first += static_cast<std::size_t>(count);
  }
  return share;
}

AllocationLaw allocation_law(const Measure& measure, int n, Allocation allocation) {
  if (n < 1) throw std::invalid_argument("an allocation needs n_features >= 1");
  AllocationLaw law;
  if (allocation == Allocation::mass) {
    law.share = mass_probabilities(measure);
    law.covariance = systematic_count_covariance(law.share, n);
    return law;
  }
  part_counts(measure, n, allocation, law.share, 0);
  law.covariance.assign(measure.size() * measure.size(), 0.0);
  return law;
}

}  // namespace askrff
