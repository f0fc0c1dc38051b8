#include "core/sampling/sampled_map.h"

#include <cmath>
#include <stdexcept>

#include "core/sampling/random.h"

namespace askrff {

namespace {

// Block key of the allocation's stream, apart from every part's blocks.
constexpr std::uint64_t kAllocationPart = 0xFFFFFFFFFFFFFFFFULL;
constexpr std::uint64_t kAllocationBlock = 0x7FFFFFFFFFFFFFFFULL;

std::vector<int> part_counts(const Measure& measure, int n, Allocation allocation, std::vector<double>& share,
                             std::uint64_t seed) {
  const std::size_t n_parts = measure.size();
  std::vector<int> counts(n_parts, 0);
  share.assign(n_parts, 0.0);
  if (allocation == Allocation::equal) {
    if (n < static_cast<int>(n_parts)) {
      throw std::invalid_argument("allocation = \"equal\" needs at least one frequency per part: n_features >= " +
                                  std::to_string(n_parts));
    }
    for (std::size_t p = 0; p < n_parts; ++p) {
      counts[p] = n / static_cast<int>(n_parts) + (static_cast<int>(p) < n % static_cast<int>(n_parts) ? 1 : 0);
      share[p] = static_cast<double>(counts[p]) / n;
    }
    return counts;
  }
  double total = 0.0;
  for (const Part& part : measure) total += std::abs(part.coefficient) * part.mass;
  if (!(total > 0.0) || !std::isfinite(total)) throw std::invalid_argument("the measure's parts have no mass to share");
  std::vector<double> probability(n_parts);
  for (std::size_t p = 0; p < n_parts; ++p) probability[p] = std::abs(measure[p].coefficient) * measure[p].mass / total;
  Stream stream(seed, kAllocationPart, kAllocationBlock);
  counts = systematic_counts(probability, n, stream);
  share = probability;
  return counts;
}

}  // namespace

std::unique_ptr<FeatureMap> side_map(const MapView& map, Side side) {
  std::vector<double> phase(static_cast<std::size_t>(map.n)), weight(static_cast<std::size_t>(map.n));
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

}  // namespace askrff
