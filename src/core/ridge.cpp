#include "ridge.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

namespace askrff {

RidgePath ridge_path(const CrossProducts& sums, const Eigen::VectorXd& z_shift, const Eigen::VectorXd& y_shift,
                     Eigen::VectorXd lambda) {
  const double n = sums.n;
  if (!(n >= 2.0)) throw std::invalid_argument("ridge regression needs at least two rows");
  const Eigen::VectorXd z_mean = sums.z_sum / n, y_mean = sums.y_sum / n;  // of the shifted values
  Eigen::MatrixXd gram = sums.zz;
  gram.triangularView<Eigen::Lower>() -= n * z_mean * z_mean.transpose();
  const Eigen::MatrixXd zy = sums.zy - n * z_mean * y_mean.transpose();
  const Eigen::VectorXd yy = (sums.y_squares - n * y_mean.cwiseProduct(y_mean)).cwiseMax(0.0);

  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(gram, Eigen::ComputeEigenvectors);
  if (eigen.info() != Eigen::Success) throw std::runtime_error("the eigendecomposition of Z'Z did not converge");
  // Eigen sorts increasingly; rounding may leave tiny negative values.
  const Eigen::VectorXd s = eigen.eigenvalues().reverse().cwiseMax(0.0);
  const Eigen::MatrixXd v = eigen.eigenvectors().rowwise().reverse();
  const Eigen::MatrixXd c = v.transpose() * zy;
  const Eigen::VectorXd c2 = c.rowwise().squaredNorm();  // summed over responses

  RidgePath path;
  path.eigenvalues = s;
  if (lambda.size() == 0) {
    const double top = s.size() > 0 && s(0) > 0.0 ? s(0) : 1.0;
    lambda.resize(kGridSize);
    for (int i = 0; i < kGridSize; ++i) lambda(i) = top * std::pow(10.0, 1.0 - 11.0 * i / (kGridSize - 1));
  }
  std::sort(lambda.data(), lambda.data() + lambda.size(), std::greater<double>());
  path.lambda = lambda;
  path.df.resize(lambda.size());
  path.gcv.resize(lambda.size());
  const double q = static_cast<double>(zy.cols());
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    const double l = lambda(i);
    const Eigen::ArrayXd denominator = s.array() + l;
    path.df(i) = 1.0 + (s.array() / denominator).sum();
    const double rss = std::max(0.0, yy.sum() - (c2.array() * (s.array() + 2.0 * l) / denominator.square()).sum());
    const double fraction = 1.0 - path.df(i) / n;
    path.gcv(i) = fraction > 0.0 ? rss / (n * q) / (fraction * fraction) : std::numeric_limits<double>::infinity();
    if (path.gcv(i) < path.gcv(path.chosen)) path.chosen = i;
  }
  const double l = lambda(path.chosen);
  const Eigen::ArrayXd denominator = s.array() + l;
  const Eigen::MatrixXd scaled = c.array().colwise() / denominator;
  path.coefficients = v * scaled;
  path.rss.resize(zy.cols());
  for (Eigen::Index j = 0; j < zy.cols(); ++j) {
    path.rss(j) = std::max(0.0, yy(j) - (c.col(j).array().square() * (s.array() + 2.0 * l) / denominator.square()).sum());
  }
  // b0 = mean(y) - mean(z)'b, with the means of the unshifted values.
  path.intercept = (y_shift + y_mean) - path.coefficients.transpose() * (z_shift + z_mean);
  return path;
}

}  // namespace askrff
