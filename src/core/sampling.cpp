#include "sampling.h"

#include <algorithm>
#include <stdexcept>

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

}  // namespace

Eigen::MatrixXd sample_frequencies(const PartSampler& law, int d, int n_features, Method method,
                                   std::uint64_t seed, int part_index) {
  if (method == Method::orthogonal && !law.supports_orthogonal()) {
    throw std::invalid_argument("this measure does not support orthogonal features");
  }
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
