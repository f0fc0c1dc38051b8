#include "core/sampling/structured_directions.h"

#include <algorithm>
#include <bitset>
#include <stdexcept>
#include <vector>

#include "core/numerics/walsh_hadamard.h"

namespace askrff {

Eigen::MatrixXd structured_directions(int d, int count, Stream& stream) {
  if (d < 1 || count < 1 || count > d) throw std::invalid_argument("a structured block needs 1 to d directions");
  int size = 1;
  while (size < d) size *= 2;
  std::vector<double> signs(3 * static_cast<std::size_t>(size));
  for (double& s : signs) s = stream.uniform() < 0.5 ? -1.0 : 1.0;
  // Column i is row i of M = H D1 H D2 H D3, that is M' e_i = D3 H D2 H D1 H e_i
  // (H symmetric). The columns are independent, so they go in panels of
  // kPanel, each transformed whole while it stays in cache (a panel at
  // size 1024 is 128 kB; the whole block, 8 MB, would stream through memory
  // at every butterfly stage). A panel is stored by rows: each butterfly adds
  // and subtracts two rows of kPanel values (walsh_hadamard.h). The entries
  // stay integers, so the arithmetic is exact. The three 1/sqrt(size) of the
  // normalized H are left out: the columns are normalized at the end anyway.
  constexpr int kPanel = 16;
  using Row = Eigen::Map<Eigen::Array<double, kPanel, 1>>;
  Eigen::MatrixXd out(d, count);
  std::vector<double> panel(static_cast<std::size_t>(size) * kPanel);
  for (int first = 0; first < count; first += kPanel) {
    const int width = std::min(kPanel, count - first);
    // The first transform of e_i is column i of the Hadamard matrix,
    // (-1)^popcount(k & i), written directly (columns past `count` are zero).
    for (int k = 0; k < size; ++k) {
      double* row = panel.data() + static_cast<std::size_t>(k) * kPanel;
      for (int i = 0; i < kPanel; ++i) {
        row[i] = i >= width ? 0.0 : std::bitset<32>(static_cast<unsigned>(k & (first + i))).count() % 2 ? -1.0 : 1.0;
      }
    }
    for (int round = 0; round < 3; ++round) {
      if (round > 0) walsh_hadamard(panel.data(), size, kPanel);
      const double* diagonal = signs.data() + static_cast<std::size_t>(round) * size;
      for (int k = 0; k < size; ++k) {
        if (diagonal[k] > 0.0) continue;
        Row row(panel.data() + static_cast<std::size_t>(k) * kPanel);
        row = -row;
      }
    }
    for (int i = 0; i < width; ++i) {
      for (int k = 0; k < d; ++k) out(k, first + i) = panel[static_cast<std::size_t>(k) * kPanel + i];
    }
  }
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
