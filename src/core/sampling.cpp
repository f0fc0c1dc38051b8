#include "sampling.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "radial_laws.h"

namespace askrff {

namespace {

Eigen::MatrixXd haar_orthogonal(int d, Stream& stream) {
  Eigen::MatrixXd gaussian(d, d);
  for (Eigen::Index j = 0; j < d; ++j)
    for (Eigen::Index i = 0; i < d; ++i) gaussian(i, j) = stream.normal();
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(gaussian);
  Eigen::MatrixXd q = qr.householderQ();
  const Eigen::MatrixXd& r = qr.matrixQR();
  for (Eigen::Index j = 0; j < d; ++j) {
    if (r(j, j) < 0.0) q.col(j) = -q.col(j);
  }
  return q;
}

// Systematic allocation: n points (k + U) / n, k = 0..n-1, on the cumulative
// probabilities; stratum j receives floor or ceil of n p_j, n p_j on average.
std::vector<int> systematic_counts(const std::vector<RadialStratum>& strata, int n, Stream& stream) {
  std::vector<int> counts(strata.size(), 0);
  const double u = stream.uniform();
  double upper = 0.0;
  int assigned = 0;
  for (std::size_t j = 0; j < strata.size(); ++j) {
    upper += strata[j].probability * n;
    const int through = j + 1 == strata.size() ? n : std::min(n, static_cast<int>(std::ceil(upper - u)));
    counts[j] = std::max(0, through - assigned);
    assigned += counts[j];
  }
  return counts;
}

// Block key of the allocation's stream, far from any block index.
constexpr std::uint64_t kAllocationBlock = 0x7FFFFFFFFFFFFFFFULL;

// Frequencies of a radial mixture, grouped by stratum: each stratum's share
// comes in chunks of at most d directions, each chunk from its own stream and,
// for "orthogonal", the columns of its own Haar block, so directions sharing
// an atom are orthogonal (SPEC 3.4). Every frequency is marginally a uniform
// direction times the stratum's radius, and stratum j holds n p_j frequencies
// on average, so weights mass / n keep the estimator unbiased.
Eigen::MatrixXd sample_stratified(const std::vector<RadialStratum>& strata, int d, int n_features,
                                  Method method, std::uint64_t seed, int part_index) {
  Stream allocation(seed, static_cast<std::uint64_t>(part_index), kAllocationBlock);
  const std::vector<int> counts = systematic_counts(strata, n_features, allocation);
  Eigen::MatrixXd omega(d, n_features);
  Eigen::VectorXd direction(d);
  int column = 0;
  std::uint64_t block = 0;
  for (std::size_t j = 0; j < strata.size(); ++j) {
    for (int first = 0; first < counts[j]; first += d, ++block) {
      Stream stream(seed, static_cast<std::uint64_t>(part_index), block);
      const int count = std::min(d, counts[j] - first);
      const Eigen::MatrixXd q = method == Method::orthogonal ? haar_orthogonal(d, stream) : Eigen::MatrixXd();
      for (int i = 0; i < count; ++i, ++column) {
        if (method == Method::orthogonal) {
          direction = q.col(i);
        } else {
          uniform_direction(stream, d, direction.data());
        }
        if (strata[j].law) {
          strata[j].law->sample_along(stream, direction.data(), omega.col(column).data());
        } else {
          omega.col(column) = direction * strata[j].radius;
        }
      }
    }
  }
  return omega;
}

}  // namespace

Eigen::MatrixXd sample_frequencies(const PartSampler& law, int d, int n_features, Method method,
                                   std::uint64_t seed, int part_index) {
  if (method == Method::orthogonal && !law.supports_orthogonal()) {
    throw std::invalid_argument("this measure does not support orthogonal features");
  }
  if (const auto* strata = law.strata()) return sample_stratified(*strata, d, n_features, method, seed, part_index);
  Eigen::MatrixXd omega(d, n_features);
  const int n_blocks = (n_features + d - 1) / d;
  for (int block = 0; block < n_blocks; ++block) {
    Stream stream(seed, static_cast<std::uint64_t>(part_index), static_cast<std::uint64_t>(block));
    const int first = block * d;
    const int count = std::min(d, n_features - first);
    if (method == Method::iid) {
      for (int j = 0; j < count; ++j) law.sample(stream, omega.col(first + j).data());
    } else {
      const Eigen::MatrixXd q = haar_orthogonal(d, stream);
      for (int j = 0; j < count; ++j) law.sample_along(stream, q.col(j).data(), omega.col(first + j).data());
    }
  }
  return omega;
}

}  // namespace askrff
