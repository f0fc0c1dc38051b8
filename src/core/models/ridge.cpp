#include "core/models/ridge.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

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
                     Eigen::VectorXd lambda, Criterion criterion, const Poll& poll, const Progress& progress) {
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
  RidgePath path = ridge_path_of(spectrum, std::move(lambda), criterion);
  set_ridge_solution(path, std::move(v), z_shift + z_mean, y_shift + y_mean, total);
  return path;
}

RidgePath ridge_path_of(const RidgeSpectrum& spectrum, Eigen::VectorXd lambda, Criterion criterion) {
  const double n = spectrum.n, total = spectrum.weight;
  const Eigen::ArrayXd& s = spectrum.values;
  const Eigen::MatrixXd& c = spectrum.projections;
  const Eigen::Index d = spectrum.columns, rank = s.size();
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
  // RSS = unexplained + sum_resolved c^2 lambda^2 / (s (s + lambda)^2)
  //       - sum_unresolved c^2 (s + 2 lambda) / (s + lambda)^2 (computed as
  //       (1 + lambda / (s + lambda)) / (s + lambda), whose square cannot
  //       underflow to 0 at lambda near the smallest double),
  // n - df = (n - 1 - rank) + sum lambda / (s + lambda): the large terms are
  // nonnegative, so neither cancels as df approaches n. The evidence's
  // P = RSS + lambda ||b||^2 likewise:
  // P = unexplained + sum_resolved c^2 lambda / (s (s + lambda)) - sum_unresolved c^2 / (s + lambda).
  const auto rss_at = [&](double l, bool penalized) -> Eigen::VectorXd {
    const Eigen::ArrayXd kept = penalized ? (l / (sr * (sr + l))).eval() : ((l / (sr + l)).square() / sr).eval();
    const Eigen::ArrayXd fitted = penalized ? (su + l).inverse().eval() : ((1.0 + l / (su + l)) / (su + l)).eval();
    return (unexplained.array() + (c2.topRows(resolved).colwise() * kept).colwise().sum().transpose() -
            (c2.bottomRows(rank - resolved).colwise() * fitted).colwise().sum().transpose())
        .cwiseMax(0.0)
        .matrix();
  };
  const double q = static_cast<double>(c.cols());
  const double pi = 3.141592653589793238462643383279502884;
  // the evidence's terms that depend on neither lambda nor y, per response
  const double weight_term = 0.5 * (spectrum.log_weight - std::log(total)) - 0.5 * (n - 1.0);
  struct Scores {
    double df, gcv, evidence;
  };
  const auto score_at = [&](double l) {
    Scores out;
    out.df = 1.0 + (s / (s + l)).sum();
    const double slack = (n - 1.0 - static_cast<double>(rank)) + (l / (s + l)).sum();
    const double rss = rss_at(l, false).sum();
    out.gcv = slack > 0.0 ? rss / (n * q) / ((slack / n) * (slack / n)) : std::numeric_limits<double>::infinity();
    const Eigen::ArrayXd penalized = rss_at(l, true).array();
    out.evidence = (penalized > 0.0).all()
                       ? q * (weight_term - 0.5 * (s / l).log1p().sum()) -
                             0.5 * (n - 1.0) * (2.0 * pi * penalized / (n - 1.0)).log().sum()
                       : -std::numeric_limits<double>::infinity();
    return out;
  };
  // the criterion to maximize
  const auto merit = [&](const Scores& x) { return criterion == Criterion::gcv ? -x.gcv : x.evidence; };
  const auto best_of = [&](const Eigen::VectorXd& values) {
    Eigen::Index best = 0;
    double top = -std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < values.size(); ++i) {
      const double m = merit(score_at(values(i)));
      if (m > top || i == 0) {
        top = m;
        best = i;
      }
    }
    return best;
  };
  if (grid) {
    const Eigen::Index best = best_of(lambda);
    if (best > 0 && best + 1 < lambda.size()) {
      // golden-section search for the largest merit on log lambda between the
      // neighbours, to 1e-4: closer, the merits differ by their rounding, and
      // chunks or threads (which change that rounding) would change lambda
      const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
      double a = std::log(lambda(best + 1)), b = std::log(lambda(best - 1));
      double u = b - ratio * (b - a), v = a + ratio * (b - a);
      double mu = merit(score_at(std::exp(u))), mv = merit(score_at(std::exp(v)));
      while (b - a > 1e-4) {
        if (mu >= mv) {
          b = v;
          v = u;
          mv = mu;
          u = b - ratio * (b - a);
          mu = merit(score_at(std::exp(u)));
        } else {
          a = u;
          u = v;
          mu = mv;
          v = a + ratio * (b - a);
          mv = merit(score_at(std::exp(v)));
        }
      }
      const double refined = std::exp(mu >= mv ? u : v);
      if (std::max(mu, mv) > merit(score_at(lambda(best))) && refined != lambda(best)) {
        Eigen::VectorXd longer(lambda.size() + 1);
        const Eigen::Index at = refined > lambda(best) ? best : best + 1;
        longer << lambda.head(at), refined, lambda.tail(lambda.size() - at);
        lambda = longer;
      }
    }
  }
  path.lambda = lambda;
  path.df.resize(lambda.size());
  path.gcv.resize(lambda.size());
  path.evidence.resize(lambda.size());
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    const Scores x = score_at(lambda(i));
    path.df(i) = x.df;
    path.gcv(i) = x.gcv;
    path.evidence(i) = x.evidence;
  }
  path.chosen = best_of(lambda);
  path.rss = rss_at(lambda(path.chosen), false);
  path.projections = c;
  return path;
}

void set_ridge_solution(RidgePath& path, Eigen::MatrixXd vectors, const Eigen::VectorXd& z_mean,
                        const Eigen::VectorXd& y_mean, double weight) {
  const Eigen::ArrayXd s = path.eigenvalues.head(vectors.cols()).array();
  const double l = path.lambda(path.chosen);
  path.coefficients = vectors * (path.projections.array().colwise() / (s + l)).matrix();
  if (path.remainder_values.size() > 0) {
    path.coefficients += path.remainder_vectors *
                         (path.remainder_projections.array().colwise() / (path.remainder_values.array() + l)).matrix();
  }
  path.vectors = std::move(vectors);
  path.z_mean = z_mean;
  path.weight = weight;
  path.y_mean = y_mean;
  // b0 = mean(y) - mean(z)'b, with the means of the unshifted values.
  path.intercept = y_mean - path.coefficients.transpose() * z_mean;
}

}  // namespace askrff
