#include "core/statistics/permutation_nulls.h"

#include <algorithm>
#include <complex>
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

Eigen::VectorXd permuted_joint_distances(const std::vector<ConstMatrixView>& parts, std::uint64_t seed,
                                         int n_permutations, const BlockRunner& run) {
  if (parts.size() < 2) throw std::invalid_argument("a joint test needs at least two variables");
  const Eigen::Index n = parts[0].rows(), frequencies = parts[0].cols() / 2;
  for (const ConstMatrixView& part : parts) {
    if (part.rows() != n || part.cols() != 2 * frequencies || frequencies < 1) {
      throw std::invalid_argument("the variables' features must have the same rows and frequencies");
    }
  }
  // the product of the means, which no permutation changes
  Eigen::ArrayXcd product_of_means = Eigen::ArrayXcd::Ones(frequencies);
  for (const ConstMatrixView& part : parts) {
    const Eigen::ArrayXd c = part.leftCols(frequencies).colwise().mean().transpose();
    const Eigen::ArrayXd s = part.rightCols(frequencies).colwise().mean().transpose();
    product_of_means *= c.cast<std::complex<double>>() + std::complex<double>(0.0, 1.0) * s.cast<std::complex<double>>();
  }
  const std::size_t d = parts.size();
  // each variable's rows as contiguous columns: a row's F cosines, then its F sines
  std::vector<Eigen::MatrixXd> rows(d);
  for (std::size_t j = 0; j < d; ++j) rows[j] = parts[j].transpose();
  Eigen::VectorXd out(n_permutations);
  run(static_cast<std::size_t>(n_permutations), [&](std::size_t draw) {
    std::vector<std::vector<int>> orders(d, std::vector<int>(static_cast<std::size_t>(n)));
    std::iota(orders[0].begin(), orders[0].end(), 0);
    for (std::size_t j = 1; j < d; ++j) random_permutation(seed, draw * d + j, orders[j]);
    Eigen::ArrayXd sum_re = Eigen::ArrayXd::Zero(frequencies), sum_im = Eigen::ArrayXd::Zero(frequencies);
    Eigen::ArrayXd re(frequencies), im(frequencies), next_re(frequencies);
    for (Eigen::Index a = 0; a < n; ++a) {
      const auto first = rows[0].col(a).array();
      re = first.head(frequencies);
      im = first.tail(frequencies);
      for (std::size_t j = 1; j < d; ++j) {
        const auto other = rows[j].col(orders[j][static_cast<std::size_t>(a)]).array();
        next_re = re * other.head(frequencies) - im * other.tail(frequencies);
        im = re * other.tail(frequencies) + im * other.head(frequencies);
        re = next_re;
      }
      sum_re += re;
      sum_im += im;
    }
    const Eigen::ArrayXcd mean = (sum_re.cast<std::complex<double>>() +
                                  std::complex<double>(0.0, 1.0) * sum_im.cast<std::complex<double>>()) /
                                 static_cast<double>(n);
    out[static_cast<Eigen::Index>(draw)] = (mean - product_of_means).abs2().sum();
  });
  return out;
}

}  // namespace askrff
