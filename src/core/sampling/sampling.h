// Frequencies for one positive part, in blocks of d columns. Block b draws
// from Stream(seed, part_index, b), so the result depends on the seed only.
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "core/laws/measure.h"
#include "core/numerics/poll.h"

namespace askrff {

// Where frequencies come from (the frequency sources of rff_map()):
//   iid         independent draws from the part's law;
//   orthogonal  blocks of d directions from a Haar orthogonal matrix, each
//               completed by the law with an independent radius;
//   structured  the same with the rows of a SORF block (structured_directions.h);
//   qmc         randomized Halton points through the law's inverse CDFs
//               (low_discrepancy.h, PartSampler::from_uniforms()).
// Every source keeps each frequency's law, so estimators stay unbiased,
// except that a SORF row is only close to a uniform direction.
enum class Method { iid, orthogonal, structured, qmc };

// The sources, in the order R lists them: the one table of them (rff_map(),
// rpf_map() and approximation_study() ask for it, .cpp_frequency_sources()),
// with what R needs to know of each:
//   blocked      it draws blocks of d directions (block_directions() in
//                sampling.cpp), which R's memory estimate counts;
//   exact        every frequency has exactly its part's law, so the
//                estimators are unbiased (tests check it);
//   independent  the frequencies are independent draws, which the closed-form
//                variances of approximation_study() assume.
// A new Method needs its row here and its branch in every switch over
// Method in sampling.cpp (law_takes(), block_directions(),
// sample_frequencies(), sample_stratified()). They have no default, so a
// compiler warning for switches (-Wall) names one that lacks it, and each
// throws for a Method it does not handle, which the tests reach by drawing
// from every source of this table.
struct FrequencySource {
  Method method;
  const char* name;
  bool blocked, exact, independent;
};
const std::vector<FrequencySource>& frequency_sources();
// The row of a Method; throws std::logic_error for a Method without one.
const FrequencySource& frequency_source(Method method);
const char* source_name(Method method);

// Throws for a name no source has.
Method method_named(const std::string& name);

// Whether a part's law can be sampled by the method.
bool law_takes(const PartSampler& law, Method method);

// The sources every part of the measure takes: a kernel's sources follow
// from its laws, so families do not list them.
std::vector<Method> measure_sources(const Measure& measure);

// Systematic allocation of n points to categories of the given probabilities
// (summing to one): the points (k + U) / n, k = 0..n-1, fall on the
// cumulative probabilities, so category j receives floor or ceil of n p_j,
// n p_j on average, and a category of probability zero receives none.
std::vector<int> systematic_counts(const std::vector<double>& probability, int n, Stream& stream);

// The same for a given offset U = u in [0, 1).
std::vector<int> systematic_counts_at(const std::vector<double>& probability, int n, double u);

// The covariance of those counts over the offset (P by P, column-major), for
// approximation_study()'s closed-form variance: the counts are constant
// between the fractional parts of the cumulative n p_j, so it is an exact
// finite sum over those intervals, each read by systematic_counts_at() at
// its middle.
std::vector<double> systematic_count_covariance(const std::vector<double>& probability, int n);

// Writes the d by n_features matrix of frequencies (one per column,
// column-major) to omega. Orthogonal: each block of d frequencies takes the
// columns of a Haar-distributed orthogonal d by d matrix (Q of the QR of a
// Gaussian matrix with R's diagonal positive, so the law is exactly Haar; a
// last block of k < d frequencies draws only the k columns it needs, which
// are the first k columns of such a matrix), each column completed to a frequency by the part's law: scaled by an
// independent radius for a rotation-invariant law (Yu et al. 2016;
// vignette "mathematics", "Orthogonal directions"),
// used as the Gaussian direction of the lift for the asymmetric kernels'
// parts. Every frequency keeps its exact marginal law, so the estimator is
// unbiased for any n_features, below or above d. Radial mixtures (the LP
// measures) are sampled stratified instead: see sampling.cpp.
// poll is called every few milliseconds of work.
void sample_frequencies(const PartSampler& law, int d, int n_features, Method method, std::uint64_t seed,
                        int part_index, double* omega, const Poll& poll = no_poll);

}  // namespace askrff
