#include "core/models/ridge.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace askrff {

void require_ridge_rows(double n, double weight) {
  if (!(n >= 2.0)) throw std::invalid_argument("ridge regression needs at least two rows of positive weight");
  if (!(weight > 0.0) || !std::isfinite(weight)) throw std::invalid_argument("the weights must have a positive finite sum");
}

Eigen::Index resolved_eigenvalues(const Eigen::ArrayXd& s) {
  const Eigen::Index columns = s.size();
  const double floor = columns > 0 ? s(0) * columns * std::numeric_limits<double>::epsilon() : 0.0;
  Eigen::Index resolved = 0;
  while (resolved < columns && s(resolved) > floor) ++resolved;
  return resolved;
}

RidgePath ridge_path(const CrossProducts& sums, const Eigen::VectorXd& z_shift, const Eigen::VectorXd& y_shift,
                     Eigen::VectorXd lambda, Criterion criterion, Sharing sharing, const Poll& poll,
                     const Progress& progress) {
  const double n = sums.n, total = sums.weight;
  require_ridge_rows(n, total);
  // weighted means of the shifted values
  const Eigen::VectorXd z_mean = sums.z_sum / total, y_mean = sums.y_sum / total;
  Eigen::MatrixXd gram = sums.zz;
  gram.triangularView<Eigen::Lower>() -= total * z_mean * z_mean.transpose();
  const Eigen::MatrixXd zy = sums.zy - total * z_mean * y_mean.transpose();

  const Eigen::Index d = gram.cols();
  const SymmetricEigen eigen = symmetric_eigen(std::move(gram), true, poll, progress);
  // The eigenvalues come increasing; rounding may leave tiny negative values. The
  // centered Z has rank at most n - 1: its other eigenvalues, and the
  // projections of Z'y on their vectors, are zeros, which rounding would
  // turn into noise divided by lambda. Only the first n - 1 are kept.
  const Eigen::Index rank = std::min<Eigen::Index>(d, static_cast<Eigen::Index>(n - 1.0));
  RidgeSpectrum spectrum;
  spectrum.values = eigen.values.reverse().head(rank).cwiseMax(0.0).array();
  Eigen::MatrixXd v = eigen.vectors.rowwise().reverse().leftCols(rank);
  spectrum.projections = v.transpose() * zy;
  const Eigen::VectorXd yy = (sums.y_squares - total * y_mean.cwiseProduct(y_mean)).cwiseMax(0.0);
  const Eigen::Index resolved = resolved_eigenvalues(spectrum.values);
  const Eigen::ArrayXXd c2 = spectrum.projections.topRows(resolved).array().square();
  spectrum.unexplained = yy - (c2.colwise() / spectrum.values.head(resolved)).colwise().sum().transpose().matrix();
  spectrum.columns = d;
  spectrum.n = n;
  spectrum.weight = total;
  spectrum.log_weight = sums.log_weight;
  RidgePath path = ridge_path_of(spectrum, std::move(lambda), criterion, sharing);
  set_ridge_solution(path, std::move(v), z_shift + z_mean, y_shift + y_mean, total);
  return path;
}

namespace {

// The row of the largest merit among `values` (the first among ties: the
// largest lambda).
Eigen::Index best_of(const Eigen::VectorXd& values, const std::function<double(double)>& merit) {
  Eigen::Index best = 0;
  double top = -std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    const double m = merit(values(i));
    if (m > top || i == 0) {
      top = m;
      best = i;
    }
  }
  return best;
}

// The grid `lambda` (decreasing) with the best value's refinement: golden-
// section search for the largest merit on log lambda between its
// neighbours, to 1e-4 (closer, the merits differ by their rounding, and
// chunks or threads, which change that rounding, would change lambda),
// added to the grid when it is better.
Eigen::VectorXd refined_grid(const Eigen::VectorXd& lambda, const std::function<double(double)>& merit) {
  const Eigen::Index best = best_of(lambda, merit);
  if (best == 0 || best + 1 >= lambda.size()) return lambda;
  const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
  double a = std::log(lambda(best + 1)), b = std::log(lambda(best - 1));
  double u = b - ratio * (b - a), v = a + ratio * (b - a);
  double mu = merit(std::exp(u)), mv = merit(std::exp(v));
  while (b - a > 1e-4) {
    if (mu >= mv) {
      b = v;
      v = u;
      mv = mu;
      u = b - ratio * (b - a);
      mu = merit(std::exp(u));
    } else {
      a = u;
      u = v;
      mu = mv;
      v = a + ratio * (b - a);
      mv = merit(std::exp(v));
    }
  }
  const double refined = std::exp(mu >= mv ? u : v);
  if (!(std::max(mu, mv) > merit(lambda(best))) || refined == lambda(best)) return lambda;
  Eigen::VectorXd longer(lambda.size() + 1);
  const Eigen::Index at = refined > lambda(best) ? best : best + 1;
  longer << lambda.head(at), refined, lambda.tail(lambda.size() - at);
  return longer;
}

}  // namespace

Eigen::VectorXd chosen_lambdas(const RidgePath& path, Eigen::Index responses) {
  Eigen::VectorXd out(responses);
  const Eigen::Index groups = path.lambda.cols();
  for (Eigen::Index j = 0; j < responses; ++j) {
    const Eigen::Index g = response_group(groups, j);
    out(j) = path.lambda(path.chosen[static_cast<std::size_t>(g)], g);
  }
  return out;
}

DistinctLambdas distinct_lambdas(const Eigen::MatrixXd& lambda) {
  std::vector<double> values(lambda.data(), lambda.data() + lambda.size());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  DistinctLambdas out;
  out.values = Eigen::Map<const Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
  out.slot.resize(lambda.rows(), lambda.cols());
  for (Eigen::Index g = 0; g < lambda.cols(); ++g) {
    for (Eigen::Index l = 0; l < lambda.rows(); ++l) {
      out.slot(l, g) = std::lower_bound(values.begin(), values.end(), lambda(l, g)) - values.begin();
    }
  }
  return out;
}

RidgePath ridge_path_of(const RidgeSpectrum& spectrum, Eigen::VectorXd lambda, Criterion criterion, Sharing sharing) {
  const double n = spectrum.n, total = spectrum.weight;
  const Eigen::ArrayXd& s = spectrum.values;
  const Eigen::MatrixXd& c = spectrum.projections;
  const Eigen::Index d = spectrum.columns, rank = s.size(), responses = c.cols();
  const Eigen::ArrayXXd c2 = c.array().square();
  const Eigen::Index resolved = resolved_eigenvalues(s);
  const Eigen::ArrayXd sr = s.head(resolved), su = s.tail(rank - resolved);
  const Eigen::VectorXd& unexplained = spectrum.unexplained;

  RidgePath path;
  path.eigenvalues = Eigen::VectorXd::Zero(d);
  path.eigenvalues.head(rank) = s.matrix();
  const bool grid = lambda.size() == 0;
  if (grid) {
    const double top = rank > 0 && s(0) > 0.0 ? s(0) : 1.0;
    lambda.resize(kGridSize);
    for (int i = 0; i < kGridSize; ++i) lambda(i) = top * std::pow(10.0, 1.0 - 11.0 * i / (kGridSize - 1));
  }
  std::sort(lambda.data(), lambda.data() + lambda.size(), std::greater<double>());
  // For the responses [first, first + count):
  // RSS = unexplained + sum_resolved c^2 lambda^2 / (s (s + lambda)^2)
  //       - sum_unresolved c^2 (s + 2 lambda) / (s + lambda)^2 (computed as
  //       (1 + lambda / (s + lambda)) / (s + lambda), whose square cannot
  //       underflow to 0 at lambda near the smallest double),
  // n - df = (n - 1 - rank) + sum lambda / (s + lambda): the large terms are
  // nonnegative, so neither cancels as df approaches n. The evidence's
  // P = RSS + lambda ||b||^2 likewise:
  // P = unexplained + sum_resolved c^2 lambda / (s (s + lambda)) - sum_unresolved c^2 / (s + lambda).
  const auto rss_at = [&](double l, bool penalized, Eigen::Index first, Eigen::Index count) -> Eigen::VectorXd {
    const Eigen::ArrayXd kept = penalized ? (l / (sr * (sr + l))).eval() : ((l / (sr + l)).square() / sr).eval();
    const Eigen::ArrayXd fitted = penalized ? (su + l).inverse().eval() : ((1.0 + l / (su + l)) / (su + l)).eval();
    const auto block = c2.middleCols(first, count);
    return (unexplained.segment(first, count).array() +
            (block.topRows(resolved).colwise() * kept).colwise().sum().transpose() -
            (block.bottomRows(rank - resolved).colwise() * fitted).colwise().sum().transpose())
        .cwiseMax(0.0)
        .matrix();
  };
  const double pi = 3.141592653589793238462643383279502884;
  // the evidence's terms that depend on neither lambda nor y, per response
  const double weight_term = 0.5 * (spectrum.log_weight - std::log(total)) - 0.5 * (n - 1.0);
  struct Scores {
    double df, gcv, evidence;
  };
  const auto score_at = [&](double l, Eigen::Index first, Eigen::Index count) {
    const double q = static_cast<double>(count);
    Scores out;
    out.df = 1.0 + (s / (s + l)).sum();
    const double slack = (n - 1.0 - static_cast<double>(rank)) + (l / (s + l)).sum();
    const double rss = rss_at(l, false, first, count).sum();
    out.gcv = slack > 0.0 ? rss / (n * q) / ((slack / n) * (slack / n)) : std::numeric_limits<double>::infinity();
    const Eigen::ArrayXd penalized = rss_at(l, true, first, count).array();
    out.evidence = (penalized > 0.0).all()
                       ? q * (weight_term - 0.5 * (s / l).log1p().sum()) -
                             0.5 * (n - 1.0) * (2.0 * pi * penalized / (n - 1.0)).log().sum()
                       : -std::numeric_limits<double>::infinity();
    return out;
  };
  // each group's path, from its own criterion (to maximize)
  const Eigen::Index groups = sharing == Sharing::shared ? 1 : responses;
  std::vector<Eigen::VectorXd> lambdas(static_cast<std::size_t>(groups));
  path.chosen.resize(static_cast<std::size_t>(groups));
  path.lengths.resize(static_cast<std::size_t>(groups));
  Eigen::Index longest = 0;
  for (Eigen::Index g = 0; g < groups; ++g) {
    const Eigen::Index first = groups == 1 ? 0 : g, count = groups == 1 ? responses : 1;
    const std::function<double(double)> merit = [&](double l) {
      const Scores x = score_at(l, first, count);
      return criterion == Criterion::gcv ? -x.gcv : x.evidence;
    };
    const std::size_t at = static_cast<std::size_t>(g);
    lambdas[at] = grid ? refined_grid(lambda, merit) : lambda;
    path.chosen[at] = best_of(lambdas[at], merit);
    path.lengths[at] = lambdas[at].size();
    longest = std::max(longest, lambdas[at].size());
  }
  path.lambda.resize(longest, groups);
  path.df.resize(longest, groups);
  path.gcv.resize(longest, groups);
  path.evidence.resize(longest, groups);
  for (Eigen::Index g = 0; g < groups; ++g) {
    const Eigen::Index first = groups == 1 ? 0 : g, count = groups == 1 ? responses : 1;
    const Eigen::VectorXd& own = lambdas[static_cast<std::size_t>(g)];
    for (Eigen::Index i = 0; i < longest; ++i) {
      const double l = own(std::min(i, own.size() - 1));
      const Scores x = score_at(l, first, count);
      path.lambda(i, g) = l;
      path.df(i, g) = x.df;
      path.gcv(i, g) = x.gcv;
      path.evidence(i, g) = x.evidence;
    }
  }
  path.rss.resize(responses);
  const Eigen::VectorXd chosen = chosen_lambdas(path, responses);
  for (Eigen::Index j = 0; j < responses; ++j) path.rss(j) = rss_at(chosen(j), false, j, 1)(0);
  path.projections = c;
  return path;
}

void set_ridge_solution(RidgePath& path, Eigen::MatrixXd vectors, const Eigen::VectorXd& z_mean,
                        const Eigen::VectorXd& y_mean, double weight) {
  const Eigen::ArrayXd s = path.eigenvalues.head(vectors.cols()).array();
  const Eigen::Index responses = path.projections.cols();
  const Eigen::VectorXd l = chosen_lambdas(path, responses);
  Eigen::MatrixXd along(vectors.cols(), responses);
  for (Eigen::Index j = 0; j < responses; ++j) along.col(j) = (path.projections.col(j).array() / (s + l(j))).matrix();
  path.coefficients = vectors * along;
  if (path.remainder_values.size() > 0) {
    Eigen::MatrixXd remainder(path.remainder_values.size(), responses);
    for (Eigen::Index j = 0; j < responses; ++j) {
      remainder.col(j) = (path.remainder_projections.col(j).array() / (path.remainder_values.array() + l(j))).matrix();
    }
    path.coefficients += path.remainder_vectors * remainder;
  }
  path.vectors = std::move(vectors);
  path.z_mean = z_mean;
  path.weight = weight;
  path.y_mean = y_mean;
  // b0 = mean(y) - mean(z)'b, with the means of the unshifted values.
  path.intercept = y_mean - path.coefficients.transpose() * z_mean;
}

}  // namespace askrff
