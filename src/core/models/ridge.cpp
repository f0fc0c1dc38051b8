#include "core/models/ridge.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

namespace askrff {

RidgePath ridge_path(const CrossProducts& sums, const Eigen::VectorXd& z_shift, const Eigen::VectorXd& y_shift,
                     Eigen::VectorXd lambda, const Poll& poll, const Progress& progress) {
  const double n = sums.n, total = sums.weight;
  if (!(n >= 2.0)) throw std::invalid_argument("ridge regression needs at least two rows of positive weight");
  if (!(total > 0.0) || !std::isfinite(total)) throw std::invalid_argument("the weights must have a positive finite sum");
  // weighted means of the shifted values
  const Eigen::VectorXd z_mean = sums.z_sum / total, y_mean = sums.y_sum / total;
  Eigen::MatrixXd gram = sums.zz;
  gram.triangularView<Eigen::Lower>() -= total * z_mean * z_mean.transpose();
  const Eigen::MatrixXd zy = sums.zy - total * z_mean * y_mean.transpose();
  const Eigen::VectorXd yy = (sums.y_squares - total * y_mean.cwiseProduct(y_mean)).cwiseMax(0.0);

  const Eigen::Index d = gram.cols();
  const SymmetricEigen eigen = symmetric_eigen(std::move(gram), true, poll, progress);
  // The eigenvalues come increasing; rounding may leave tiny negative values. The
  // centered Z has rank at most n - 1: its other eigenvalues, and the
  // projections of Z'y on their vectors, are zeros, which rounding would
  // turn into noise divided by lambda. Only the first n - 1 are kept.
  const Eigen::Index rank = std::min<Eigen::Index>(d, static_cast<Eigen::Index>(n - 1.0));
  const Eigen::ArrayXd s = eigen.values.reverse().head(rank).cwiseMax(0.0).array();
  const Eigen::MatrixXd v = eigen.vectors.rowwise().reverse().leftCols(rank);
  const Eigen::MatrixXd c = v.transpose() * zy;
  const Eigen::ArrayXXd c2 = c.array().square();
  const Eigen::Index columns = s.size();
  // Eigenvalues above D eps s_1 are resolved; what their directions cannot
  // fit for any lambda, y'y - sum c^2 / s over them, is computed once.
  const double resolved_floor = columns > 0 ? s(0) * columns * std::numeric_limits<double>::epsilon() : 0.0;
  Eigen::Index resolved = 0;
  while (resolved < columns && s(resolved) > resolved_floor) ++resolved;
  const Eigen::ArrayXd sr = s.head(resolved), su = s.tail(columns - resolved);
  const Eigen::VectorXd unexplained =
      (yy.array() - (c2.topRows(resolved).colwise() / sr).colwise().sum().transpose()).matrix();

  RidgePath path;
  path.eigenvalues = Eigen::VectorXd::Zero(d);
  path.eigenvalues.head(rank) = s.matrix();
  if (lambda.size() == 0) {
    const double top = columns > 0 && s(0) > 0.0 ? s(0) : 1.0;
    lambda.resize(kGridSize);
    for (int i = 0; i < kGridSize; ++i) lambda(i) = top * std::pow(10.0, 1.0 - 11.0 * i / (kGridSize - 1));
  }
  std::sort(lambda.data(), lambda.data() + lambda.size(), std::greater<double>());
  path.lambda = lambda;
  path.df.resize(lambda.size());
  path.gcv.resize(lambda.size());
  // RSS = unexplained + sum_resolved c^2 lambda^2 / (s (s + lambda)^2)
  //       - sum_unresolved c^2 (s + 2 lambda) / (s + lambda)^2,
  // n - df = (n - 1 - rank) + sum lambda / (s + lambda): the large terms are
  // nonnegative, so neither cancels as df approaches n.
  const auto rss_at = [&](double l) -> Eigen::VectorXd {
    const Eigen::ArrayXd kept = (l / (sr + l)).square() / sr;
    const Eigen::ArrayXd fitted = (su + 2.0 * l) / (su + l).square();
    return (unexplained.array() + (c2.topRows(resolved).colwise() * kept).colwise().sum().transpose() -
            (c2.bottomRows(columns - resolved).colwise() * fitted).colwise().sum().transpose())
        .cwiseMax(0.0)
        .matrix();
  };
  const double q = static_cast<double>(zy.cols());
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    const double l = lambda(i);
    path.df(i) = 1.0 + (s / (s + l)).sum();
    const double slack = (n - 1.0 - static_cast<double>(rank)) + (l / (s + l)).sum();
    const double rss = rss_at(l).sum();
    path.gcv(i) = slack > 0.0 ? rss / (n * q) / ((slack / n) * (slack / n)) : std::numeric_limits<double>::infinity();
    if (path.gcv(i) < path.gcv(path.chosen)) path.chosen = i;
  }
  const double l = lambda(path.chosen);
  path.coefficients = v * (c.array().colwise() / (s + l)).matrix();
  path.rss = rss_at(l);
  path.vectors = v;
  path.z_mean = z_shift + z_mean;
  path.weight = total;
  // b0 = mean(y) - mean(z)'b, with the means of the unshifted values.
  path.intercept = (y_shift + y_mean) - path.coefficients.transpose() * path.z_mean;
  return path;
}

}  // namespace askrff
