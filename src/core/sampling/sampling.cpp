#include "core/sampling/sampling.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/laws/elementary_laws.h"
#include "core/laws/radial_laws.h"
#include "core/sampling/low_discrepancy.h"
#include "core/sampling/structured_directions.h"

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

// Block key of the quasi-Monte Carlo points' randomization.
constexpr std::uint64_t kPointsBlock = 0x7FFFFFFFFFFFFFFEULL;

// For a Method that a function's switch does not handle: a source added to
// the table without its branch there fails, naming both.
[[noreturn]] void unhandled(Method method, const char* where) {
  throw std::logic_error(std::string(where) + " has no branch for the frequency source \"" + source_name(method) + "\"");
}

// Whether a source maps randomized quasi-Monte Carlo points through the
// laws' inverse CDFs; the others draw blocks of at most d frequencies, along
// block_directions() for a blocked source and independently otherwise.
bool maps_points(Method method, const char* where) {
  switch (method) {
    case Method::qmc: return true;
    case Method::iid:
    case Method::orthogonal:
    case Method::structured: return false;
  }
  unhandled(method, where);
}

// The directions of one block of `count` <= d frequencies of a blocked
// source: the columns of a Haar block, or the rows of a SORF block.
Eigen::MatrixXd block_directions(Method method, int d, int count, Stream& stream, const Poll& poll) {
  switch (method) {
    case Method::orthogonal: return haar_columns(d, count, stream, poll);
    case Method::structured: return structured_directions(d, count, stream);
    case Method::iid:
    case Method::qmc: break;
  }
  unhandled(method, "block_directions()");
}

// Frequencies of a radial mixture, grouped by stratum: each stratum's share
// comes in chunks of at most d directions, each chunk from its own stream and,
// for a blocked source ("orthogonal", "structured"), the directions of its
// own block, so directions sharing an atom are orthogonal; for "qmc" each
// stratum has its own randomized points, mapped to a uniform direction (an
// atom) or through the stratum's law. Every frequency is marginally a
// uniform direction times the stratum's radius, and stratum j holds n p_j
// frequencies on average, so weights mass / n keep the estimator unbiased.
void sample_stratified(const std::vector<RadialStratum>& strata, int d, int n_features, Method method,
                       std::uint64_t seed, int part_index, Eigen::Map<Eigen::MatrixXd> omega, const Poll& poll) {
  Stream allocation(seed, static_cast<std::uint64_t>(part_index), kAllocationBlock);
  std::vector<double> probability;
  for (const RadialStratum& stratum : strata) probability.push_back(stratum.probability);
  const std::vector<int> counts = systematic_counts(probability, n_features, allocation);
  Eigen::VectorXd direction(d);
  int column = 0;
  std::uint64_t block = 0;
  const bool points = maps_points(method, "sample_stratified()"), blocked = frequency_source(method).blocked;
  for (std::size_t j = 0; j < strata.size(); ++j) {
    if (points) {
      Stream stream(seed, static_cast<std::uint64_t>(part_index), kPointsBlock - 1 - j);
      const RandomizedHalton points(strata[j].law ? strata[j].law->uniform_dimension() : d, stream);
      std::vector<double> u(static_cast<std::size_t>(points.dimension()));
      for (int i = 0; i < counts[j]; ++i, ++column) {
        points.point(static_cast<std::uint64_t>(i), u.data());
        if (strata[j].law) {
          strata[j].law->from_uniforms(u.data(), omega.col(column).data());
        } else {
          direction_from_uniforms(d, u.data(), direction.data());
          omega.col(column) = direction * strata[j].radius;
        }
        if (i % 1024 == 1023) poll();
      }
      continue;
    }
    for (int first = 0; first < counts[j]; first += d, ++block) {
      Stream stream(seed, static_cast<std::uint64_t>(part_index), block);
      const int count = std::min(d, counts[j] - first);
      const Eigen::MatrixXd q = blocked ? block_directions(method, d, count, stream, poll) : Eigen::MatrixXd();
      for (int i = 0; i < count; ++i, ++column) {
        if (blocked) {
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
  return systematic_counts_at(probability, n, stream.uniform());
}

std::vector<int> systematic_counts_at(const std::vector<double>& probability, int n, double u) {
  std::vector<int> counts(probability.size(), 0);
  std::size_t last = probability.size();
  for (std::size_t j = 0; j < probability.size(); ++j) {
    if (probability[j] > 0.0) last = j;
  }
  if (last == probability.size()) throw std::invalid_argument("systematic allocation needs a positive probability");
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

const std::vector<FrequencySource>& frequency_sources() {
  // method, name, blocked, exact, independent
  static const std::vector<FrequencySource> sources = {{Method::iid, "iid", false, true, true},
                                                       {Method::orthogonal, "orthogonal", true, true, false},
                                                       {Method::structured, "structured", true, false, false},
                                                       {Method::qmc, "qmc", false, true, false}};
  return sources;
}

const FrequencySource& frequency_source(Method method) {
  for (const FrequencySource& source : frequency_sources()) {
    if (source.method == method) return source;
  }
  throw std::logic_error("a frequency source without a row in frequency_sources()");
}

const char* source_name(Method method) { return frequency_source(method).name; }

std::vector<double> systematic_count_covariance(const std::vector<double>& probability, int n) {
  std::vector<double> breaks{0.0, 1.0};
  double upper = 0.0;  // accumulated as systematic_counts_at() does
  for (double p : probability) {
    if (!(p > 0.0)) continue;
    upper += p * n;
    breaks.push_back(upper - std::floor(upper));
  }
  std::sort(breaks.begin(), breaks.end());
  std::vector<double> width;
  std::vector<std::vector<int>> counts;
  for (std::size_t k = 0; k + 1 < breaks.size(); ++k) {
    const double w = breaks[k + 1] - breaks[k];
    if (!(w > 0.0)) continue;
    width.push_back(w);
    counts.push_back(systematic_counts_at(probability, n, breaks[k] + 0.5 * w));
  }
  // centred before the products, which would otherwise cancel to n^2 eps
  const std::size_t parts = probability.size();
  std::vector<double> mean(parts, 0.0), covariance(parts * parts, 0.0);
  for (std::size_t k = 0; k < width.size(); ++k)
    for (std::size_t j = 0; j < parts; ++j) mean[j] += width[k] * counts[k][j];
  for (std::size_t k = 0; k < width.size(); ++k) {
    for (std::size_t l = 0; l < parts; ++l) {
      const double deviation = counts[k][l] - mean[l];
      if (deviation == 0.0) continue;
      for (std::size_t j = 0; j < parts; ++j) covariance[l * parts + j] += width[k] * (counts[k][j] - mean[j]) * deviation;
    }
  }
  return covariance;
}

Method method_named(const std::string& name) {
  std::string names;
  for (const FrequencySource& source : frequency_sources()) {
    if (name == source.name) return source.method;
    names += std::string(names.empty() ? "" : ", ") + "\"" + source.name + "\"";
  }
  throw std::invalid_argument("method must be one of " + names);
}

bool law_takes(const PartSampler& law, Method method) {
  switch (method) {
    case Method::iid: return true;
    case Method::orthogonal:
    case Method::structured: return law.supports_orthogonal();
    case Method::qmc: return law.strata() != nullptr || law.uniform_dimension() > 0;
  }
  unhandled(method, "law_takes()");
}

std::vector<Method> measure_sources(const Measure& measure) {
  std::vector<Method> takes;
  for (const FrequencySource& source : frequency_sources()) {
    if (std::all_of(measure.begin(), measure.end(),
                    [&](const Part& part) { return law_takes(*part.sampler, source.method); })) {
      takes.push_back(source.method);
    }
  }
  return takes;
}

void sample_frequencies(const PartSampler& law, int d, int n_features, Method method, std::uint64_t seed,
                        int part_index, double* omega_out, const Poll& poll) {
  if (d < 1 || n_features < 1) throw std::invalid_argument("sampling needs d >= 1 and n_features >= 1");
  if (!law_takes(law, method)) throw std::invalid_argument("this measure does not support the requested method");
  Eigen::Map<Eigen::MatrixXd> omega(omega_out, d, n_features);
  if (const auto* strata = law.strata()) {
    sample_stratified(*strata, d, n_features, method, seed, part_index, omega, poll);
    return;
  }
  if (maps_points(method, "sample_frequencies()")) {
    Stream stream(seed, static_cast<std::uint64_t>(part_index), kPointsBlock);
    const RandomizedHalton points(law.uniform_dimension(), stream);
    std::vector<double> u(static_cast<std::size_t>(points.dimension()));
    for (int j = 0; j < n_features; ++j) {
      points.point(static_cast<std::uint64_t>(j), u.data());
      law.from_uniforms(u.data(), omega.col(j).data());
      if (j % 1024 == 1023) poll();
    }
    return;
  }
  const bool blocked = frequency_source(method).blocked;
  const int n_blocks = static_cast<int>((static_cast<long long>(n_features) + d - 1) / d);
  for (int block = 0; block < n_blocks; ++block) {
    Stream stream(seed, static_cast<std::uint64_t>(part_index), static_cast<std::uint64_t>(block));
    const int first = block * d;
    const int count = std::min(d, n_features - first);
    if (blocked) {
      const Eigen::MatrixXd q = block_directions(method, d, count, stream, poll);
      for (int j = 0; j < count; ++j) law.sample_along(stream, q.col(j).data(), omega.col(first + j).data());
    } else {
      for (int j = 0; j < count; ++j) law.sample(stream, omega.col(first + j).data());
    }
    poll();
  }
}

}  // namespace askrff
