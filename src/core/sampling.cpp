#include "sampling.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "radial_laws.h"

namespace askrff {

namespace {

// The first `count` columns of a Haar orthogonal d by d matrix: Q of G = QR
// for a d by count Gaussian G (drawn column by column, as the first columns of
// the square one), with R's diagonal positive, which makes Q unique and its
// law Haar. Blocked Gram-Schmidt, twice against the finished columns in
// chunks, then a Householder QR inside each panel: memory d x count, never
// d x d for a few columns, and a poll after every chunk's matrix product.
Eigen::MatrixXd haar_columns(int d, int count, Stream& stream, const Poll& poll) {
  constexpr int kPanel = 32, kChunk = 256;
  Eigen::MatrixXd q(d, count);
  for (Eigen::Index j = 0; j < count; ++j)
    for (Eigen::Index i = 0; i < d; ++i) q(i, j) = stream.normal();
  for (int first = 0; first < count; first += kPanel) {
    const int width = std::min(kPanel, count - first);
    auto panel = q.middleCols(first, width);
    for (int pass = 0; pass < 2; ++pass) {
      for (int done = 0; done < first; done += kChunk) {
        const auto basis = q.middleCols(done, std::min(kChunk, first - done));
        const Eigen::MatrixXd coefficients = basis.transpose() * panel;
        panel.noalias() -= basis * coefficients;
        poll();
      }
    }
    const Eigen::HouseholderQR<Eigen::MatrixXd> qr(panel);
    Eigen::MatrixXd orthonormal = qr.householderQ() * Eigen::MatrixXd::Identity(d, width);
    for (int j = 0; j < width; ++j) {
      if (qr.matrixQR()(j, j) < 0.0) orthonormal.col(j) = -orthonormal.col(j);
    }
    panel = orthonormal;
    poll();
  }
  return q;
}

// Block key of the allocation's stream, far from any block index.
constexpr std::uint64_t kAllocationBlock = 0x7FFFFFFFFFFFFFFFULL;

// Frequencies of a radial mixture, grouped by stratum: each stratum's share
// comes in chunks of at most d directions, each chunk from its own stream and,
// for "orthogonal", the columns of its own Haar block, so directions sharing
// an atom are orthogonal (SPEC 3.4). Every frequency is marginally a uniform
// direction times the stratum's radius, and stratum j holds n p_j frequencies
// on average, so weights mass / n keep the estimator unbiased.
void sample_stratified(const std::vector<RadialStratum>& strata, int d, int n_features, Method method,
                       std::uint64_t seed, int part_index, Eigen::Map<Eigen::MatrixXd> omega, const Poll& poll) {
  Stream allocation(seed, static_cast<std::uint64_t>(part_index), kAllocationBlock);
  std::vector<double> probability;
  for (const RadialStratum& stratum : strata) probability.push_back(stratum.probability);
  const std::vector<int> counts = systematic_counts(probability, n_features, allocation);
  Eigen::VectorXd direction(d);
  int column = 0;
  std::uint64_t block = 0;
  for (std::size_t j = 0; j < strata.size(); ++j) {
    for (int first = 0; first < counts[j]; first += d, ++block) {
      Stream stream(seed, static_cast<std::uint64_t>(part_index), block);
      const int count = std::min(d, counts[j] - first);
      const Eigen::MatrixXd q = method == Method::orthogonal ? haar_columns(d, count, stream, poll) : Eigen::MatrixXd();
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
      poll();
    }
  }
}

}  // namespace

std::vector<int> systematic_counts(const std::vector<double>& probability, int n, Stream& stream) {
  std::vector<int> counts(probability.size(), 0);
  std::size_t last = probability.size();
  for (std::size_t j = 0; j < probability.size(); ++j) {
    if (probability[j] > 0.0) last = j;
  }
  if (last == probability.size()) throw std::invalid_argument("systematic allocation needs a positive probability");
  const double u = stream.uniform();
  double upper = 0.0;
  int assigned = 0;
  for (std::size_t j = 0; j <= last; ++j) {
    if (!(probability[j] > 0.0)) continue;
    upper += probability[j] * n;
    const int through = j == last ? n : std::min(n, static_cast<int>(std::ceil(upper - u)));
    counts[j] = std::max(0, through - assigned);
    assigned += counts[j];
  }
  return counts;
}

void sample_frequencies(const PartSampler& law, int d, int n_features, Method method, std::uint64_t seed,
                        int part_index, double* omega_out, const Poll& poll) {
  if (d < 1 || n_features < 1) throw std::invalid_argument("sampling needs d >= 1 and n_features >= 1");
  if (method == Method::orthogonal && !law.supports_orthogonal()) {
    throw std::invalid_argument("this measure does not support orthogonal features");
  }
  Eigen::Map<Eigen::MatrixXd> omega(omega_out, d, n_features);
  if (const auto* strata = law.strata()) {
    sample_stratified(*strata, d, n_features, method, seed, part_index, omega, poll);
    return;
  }
  const int n_blocks = static_cast<int>((static_cast<long long>(n_features) + d - 1) / d);
  for (int block = 0; block < n_blocks; ++block) {
    Stream stream(seed, static_cast<std::uint64_t>(part_index), static_cast<std::uint64_t>(block));
    const int first = block * d;
    const int count = std::min(d, n_features - first);
    if (method == Method::iid) {
      for (int j = 0; j < count; ++j) law.sample(stream, omega.col(first + j).data());
    } else {
      const Eigen::MatrixXd q = haar_columns(d, count, stream, poll);
      for (int j = 0; j < count; ++j) law.sample_along(stream, q.col(j).data(), omega.col(first + j).data());
    }
    poll();
  }
}

}  // namespace askrff
