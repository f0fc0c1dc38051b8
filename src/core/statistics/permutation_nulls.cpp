#include "core/statistics/permutation_nulls.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "core/features/feature_map.h"
#include "core/numerics/dense_product.h"
#include "core/numerics/random.h"

namespace askrff {

namespace {

constexpr std::uint64_t kPermutationPart = 0x7065726D75746573ULL;

}  // namespace

void random_permutation(std::uint64_t seed, std::uint64_t b, std::vector<int>& out) {
  std::iota(out.begin(), out.end(), 0);
  Stream stream(seed, kPermutationPart, b);
  for (std::size_t i = out.size(); i > 1; --i) {
    const auto j = std::min(i - 1, static_cast<std::size_t>(stream.uniform() * static_cast<double>(i)));
    std::swap(out[i - 1], out[j]);
  }
}

Eigen::VectorXd permuted_cross_norms(const ConstMatrixView& a, const ConstMatrixView& b, std::uint64_t seed,
                                     int n_permutations, const BlockRunner& run) {
  if (a.rows() != b.rows()) throw std::invalid_argument("the two feature matrices must have the same rows");
  const Eigen::Index n = a.rows(), block = static_cast<Eigen::Index>(kGramBlockRows);
  Eigen::VectorXd out(n_permutations);
  run(static_cast<std::size_t>(n_permutations), [&](std::size_t draw) {
    std::vector<int> order(static_cast<std::size_t>(n));
    random_permutation(seed, draw, order);
    Eigen::MatrixXd cross = Eigen::MatrixXd::Zero(a.cols(), b.cols()), rows(block, a.cols());
    for (Eigen::Index begin = 0; begin < n; begin += block) {
      const Eigen::Index r = std::min(block, n - begin);
      for (Eigen::Index i = 0; i < r; ++i) rows.row(i) = a.row(order[static_cast<std::size_t>(begin + i)]);
      gemm(1.0, strided(rows.topRows(r)).transpose(), strided(b.middleRows(begin, r)), 1.0, cross.data(), cross.rows());
    }
    out[static_cast<Eigen::Index>(draw)] = cross.squaredNorm();
  });
  return out;
}

Eigen::VectorXd permuted_mean_distances(const ConstMatrixView& z, int n1, std::uint64_t seed, int n_permutations,
                                        const BlockRunner& run) {
  const Eigen::Index n = z.rows();
  if (n1 < 1 || n1 >= n) throw std::invalid_argument("each sample must have at least one row");
  const Eigen::RowVectorXd total = z.colwise().sum();
  Eigen::VectorXd out(n_permutations);
  run(static_cast<std::size_t>(n_permutations), [&](std::size_t draw) {
    std::vector<int> order(static_cast<std::size_t>(n));
    random_permutation(seed, draw, order);
    Eigen::RowVectorXd first = Eigen::RowVectorXd::Zero(z.cols());
    for (int i = 0; i < n1; ++i) first += z.row(order[static_cast<std::size_t>(i)]);
    const Eigen::RowVectorXd difference = first / n1 - (total - first) / static_cast<double>(n - n1);
    out[static_cast<Eigen::Index>(draw)] = difference.squaredNorm();
  });
  return out;
}

}  // namespace askrff
