#include "structured_directions.h"

#include <bitset>
#include <stdexcept>
#include <vector>

namespace askrff {

Eigen::MatrixXd structured_directions(int d, int count, Stream& stream) {
  if (d < 1 || count < 1 || count > d) throw std::invalid_argument("a structured block needs 1 to d directions");
  int size = 1;
  while (size < d) size *= 2;
  std::vector<double> signs(3 * static_cast<std::size_t>(size));
  for (double& s : signs) s = stream.uniform() < 0.5 ? -1.0 : 1.0;
  // Column i is row i of M = H D1 H D2 H D3, that is M' e_i = D3 H D2 H D1 H e_i
  // (H symmetric). All columns at once, the matrix stored by rows: each
  // butterfly adds and subtracts two whole rows, which vectorizes. The three
  // 1/sqrt(size) of the normalized H are left out: the columns are
  // normalized at the end anyway.
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  // The first transform of e_i is column i of the Hadamard matrix,
  // (-1)^popcount(k & i), written directly.
  RowMajor block(size, count);
  for (int k = 0; k < size; ++k) {
    for (int i = 0; i < count; ++i) block(k, i) = std::bitset<32>(static_cast<unsigned>(k & i)).count() % 2 ? -1.0 : 1.0;
  }
  for (int round = 0; round < 3; ++round) {
    for (int half = 1; round > 0 && half < size; half *= 2) {
      for (int start = 0; start < size; start += 2 * half) {
        for (int i = start; i < start + half; ++i) {
          auto a = block.row(i);
          auto b = block.row(i + half);
          a += b;
          b = a - 2.0 * b;
        }
      }
    }
    const double* diagonal = signs.data() + static_cast<std::size_t>(round) * size;
    for (int k = 0; k < size; ++k) {
      if (diagonal[k] < 0.0) block.row(k) = -block.row(k);
    }
  }
  Eigen::MatrixXd out = block.topRows(d);
  for (int i = 0; i < count; ++i) {
    const double norm = out.col(i).norm();
    // A cut row of zeros is impossible for d = size and has probability
    // zero otherwise; the first axis stands in.
    if (norm > 0.0) {
      out.col(i) /= norm;
    } else {
      out.col(i) = Eigen::VectorXd::Unit(d, 0);
    }
  }
  return out;
}

}  // namespace askrff
