// Models on features that are never stored: the sums of a ridge regression,
// accumulated a block of rows at a time, its solution path, and predictions.
#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "adapters.h"
#include "blocked_jobs.h"
#include "core/models/cross_products.h"
#include "core/models/ridge.h"
#include "core/models/ridge_loo.h"
#include "core/models/ridge_posterior.h"
#include "guards.h"
#include "model_glue.h"
#include "progress.h"

namespace {

using askrff::block_rows;
using askrff::to_r;

// Adds the rows of x and y with their weights w, a block at a time, to sums:
// the features of the block computed on n_threads threads and shifted by
// z_shift, the responses shifted by y_shift. Panels are updated on n_threads threads; each entry
// sums its blocks in row order, so the result is the same for any thread
// count.
askrff::CrossProducts sum_cross_products(const askrff::FeatureMap& map, const Rcpp::NumericMatrix& x,
                                         const Rcpp::NumericMatrix& y, const Rcpp::NumericVector& w,
                                         const Rcpp::NumericVector& z_shift, const Rcpp::NumericVector& y_shift,
                                         int n_threads) {
  const int columns = map.n_columns(), responses = y.ncol();
  askrff::require(y.ncol() >= 1, "y must have at least one column");
  askrff::require(z_shift.size() == columns && y_shift.size() == responses, "the shifts must match the columns");
  const Eigen::Map<const Eigen::VectorXd> zs(z_shift.begin(), columns), ys(y_shift.begin(), responses);
  const Eigen::Map<const Eigen::MatrixXd> y_all(y.begin(), y.nrow(), responses);
  const Eigen::Map<const Eigen::VectorXd> w_all(w.begin(), w.size());
  const std::size_t n = y.nrow(), block = block_rows(columns);
  askrff::CrossProducts sums(columns, responses);
  Eigen::MatrixXd z, weighted_z, y_block;
  Eigen::VectorXd w_block;
  for (std::size_t begin = 0; begin < n; begin += block) {
    const std::size_t rows = std::min(block, n - begin);
    askrff::shifted_features(map, x.begin(), n, begin, rows, zs, n_threads, z);
    y_block = y_all.middleRows(static_cast<Eigen::Index>(begin), static_cast<Eigen::Index>(rows)).rowwise() - ys.transpose();
    w_block = w_all.segment(static_cast<Eigen::Index>(begin), static_cast<Eigen::Index>(rows));
    weighted_z = z.array().colwise() * w_block.array();
    askrff::run_blocks(static_cast<std::size_t>(askrff::n_panels(columns)), n_threads, [&](std::size_t p) {
      askrff::add_panel(sums, z, weighted_z, y_block, static_cast<int>(p));
    });
    askrff::add_responses(sums, y_block, w_block);
  }
  return sums;
}

}  // namespace

// The sums of cross_products.h over the rows of x and y (one column per
// response) with row weights w (nonnegative, finite), with the features of the map computed a block at a time on
// n_threads threads and never stored.
// [[Rcpp::export(.cpp_cross_products)]]
Rcpp::List cpp_cross_products(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x, Rcpp::NumericMatrix y,
                              Rcpp::NumericVector w, Rcpp::NumericVector z_shift, Rcpp::NumericVector y_shift,
                              int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> left = askrff::feature_map(map, askrff::Side::left, fun);
  askrff::require_data(x, left->dimension(), "x");
  askrff::require(y.nrow() == x.nrow(), "y must have one row per row of x");
  askrff::require(w.size() == x.nrow(), "w must have one weight per row of x");
  for (const double wi : w) askrff::require(std::isfinite(wi) && wi >= 0.0, "the weights must be finite and nonnegative");
  return to_r(sum_cross_products(*left, x, y, w, z_shift, y_shift, n_threads));
}

// The ridge path of ridge.h from sums of .cpp_cross_products (added over
// chunks in R); `lambda` empty for the grid; `criterion` "gcv" or
// "evidence". The eigendecomposition stops on a user interrupt and reports
// its percents to `progress` (see progress.h).
// [[Rcpp::export(.cpp_ridge_path)]]
Rcpp::List cpp_ridge_path(Rcpp::List sums, Rcpp::NumericVector z_shift, Rcpp::NumericVector y_shift,
                          Rcpp::NumericVector lambda, std::string criterion, SEXP progress) {
  askrff::require(criterion == "gcv" || criterion == "evidence", "criterion must be \"gcv\" or \"evidence\"");
  const askrff::CrossProducts c = askrff::cross_products_from_r(sums);
  const int columns = static_cast<int>(c.zz.cols()), responses = static_cast<int>(c.zy.cols());
  askrff::require(z_shift.size() == columns && y_shift.size() == responses,
                  "the shifts must have one value per feature column and response");
  const askrff::RidgePath path =
      askrff::ridge_path(c, Eigen::Map<const Eigen::VectorXd>(z_shift.begin(), columns),
                         Eigen::Map<const Eigen::VectorXd>(y_shift.begin(), responses),
                         Eigen::Map<const Eigen::VectorXd>(lambda.begin(), lambda.size()),
                         criterion == "gcv" ? askrff::Criterion::gcv : askrff::Criterion::evidence,
                         askrff::InterruptPoll(), askrff::RProgress(progress));
  return Rcpp::List::create(Rcpp::Named("lambda") = to_r(path.lambda), Rcpp::Named("df") = to_r(path.df),
                            Rcpp::Named("gcv") = to_r(path.gcv), Rcpp::Named("evidence") = to_r(path.evidence),
                            Rcpp::Named("eigenvalues") = to_r(path.eigenvalues),
                            Rcpp::Named("chosen") = static_cast<int>(path.chosen) + 1,
                            Rcpp::Named("coefficients") = to_r(path.coefficients),
                            Rcpp::Named("intercept") = to_r(path.intercept), Rcpp::Named("rss") = to_r(path.rss),
                            Rcpp::Named("vectors") = to_r(path.vectors), Rcpp::Named("z_mean") = to_r(path.z_mean),
                            Rcpp::Named("weight") = path.weight, Rcpp::Named("projections") = to_r(path.projections),
                            Rcpp::Named("y_mean") = to_r(path.y_mean));
}

// Z(x) B for coefficients B (given as t(B), responses by columns), in blocks
// of rows, without storing Z(x).
// [[Rcpp::export(.cpp_feature_products)]]
Rcpp::NumericMatrix cpp_feature_products(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x,
                                         Rcpp::NumericMatrix coefficients_t, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> left = askrff::feature_map(map, askrff::Side::left, fun);
  askrff::require_data(x, left->dimension(), "x");
  askrff::require(coefficients_t.ncol() == left->n_columns(), "the coefficients must have one row per feature column");
  const askrff::LinearForm linear = left->linear_form();
  if (!linear.base) {
    return askrff::gram_by_left_rows(askrff::MappedRows(*left, x.begin(), x.nrow()),
                                     askrff::as_features(coefficients_t), 1.0, n_threads);
  }
  // b(x) (W B): the coefficients of the base features first
  const Eigen::MatrixXd base_coefficients_t = askrff::as_features(coefficients_t) * linear.weights->transpose();
  return askrff::gram_by_left_rows(
      askrff::MappedRows(*linear.base, x.begin(), x.nrow()),
      askrff::ConstFeatures(base_coefficients_t.data(), base_coefficients_t.rows(), base_coefficients_t.cols()), 1.0,
      n_threads);
}

// For each row of x, q(z(x)) of ridge_posterior.h: the posterior variance
// of the fit at x in units of s2, less 1 / sum w. Rows are taken in blocks
// on n_threads threads; their features are never stored whole.
// [[Rcpp::export(.cpp_ridge_posterior)]]
Rcpp::NumericVector cpp_ridge_posterior(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x,
                                        Rcpp::NumericMatrix vectors, Rcpp::NumericVector values,
                                        Rcpp::NumericVector z_mean, double lambda, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> left = askrff::feature_map(map, askrff::Side::left, fun);
  askrff::require_data(x, left->dimension(), "x");
  const int columns = left->n_columns();
  askrff::require(vectors.nrow() == columns && vectors.ncol() <= columns && values.size() == vectors.ncol() &&
                      z_mean.size() == columns,
                  "the posterior must have one row of eigenvectors and one mean per feature column");
  askrff::require(std::isfinite(lambda) && lambda > 0.0, "lambda must be positive and finite");
  askrff::RidgePosterior posterior;
  posterior.vectors = Eigen::Map<const Eigen::MatrixXd>(vectors.begin(), columns, vectors.ncol());
  posterior.values = Eigen::Map<const Eigen::VectorXd>(values.begin(), values.size());
  posterior.z_mean = Eigen::Map<const Eigen::VectorXd>(z_mean.begin(), columns);
  posterior.lambda = lambda;
  const std::size_t n = x.nrow();
  Rcpp::NumericVector out(n);
  double* op = out.begin();
  const double* xp = x.begin();
  const double row_cost = left->row_cost() + askrff::kProductWeight * 2.0 * columns * vectors.ncol();
  askrff::run_row_blocks(n, row_cost, askrff::kGramBlockRows, n_threads, [&](std::size_t begin, std::size_t end) {
    Eigen::MatrixXd z(static_cast<Eigen::Index>(end - begin), columns);
    left->rows(xp, n, begin, end, z.data(), end - begin);
    const Eigen::VectorXd q = askrff::posterior_quadratic_form(z, posterior);
    std::copy(q.data(), q.data() + q.size(), op + begin);
  });
  return out;
}

// The sums over the rows of x, y and w of ridge_loo.h's terms for every
// lambda: list(press, one entry per lambda; rss, responses by lambdas). Rows go in blocks of 1024
// whose features and terms are computed on n_threads threads; the blocks'
// terms are added in row order, so the sums do not depend on the threads.
// [[Rcpp::export(.cpp_ridge_loo)]]
Rcpp::List cpp_ridge_loo(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x, Rcpp::NumericMatrix y,
                         Rcpp::NumericVector w, Rcpp::NumericMatrix vectors, Rcpp::NumericVector values,
                         Rcpp::NumericMatrix projections, Rcpp::NumericVector z_mean, Rcpp::NumericVector y_mean,
                         double weight, Rcpp::NumericVector lambda, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> left = askrff::feature_map(map, askrff::Side::left, fun);
  askrff::require_data(x, left->dimension(), "x");
  const int columns = left->n_columns(), responses = y.ncol();
  askrff::require(y.nrow() == x.nrow() && w.size() == x.nrow(), "y and w must have one row per row of x");
  askrff::require(vectors.nrow() == columns && vectors.ncol() <= columns && values.size() == vectors.ncol() &&
                      projections.nrow() == vectors.ncol() && projections.ncol() == responses &&
                      z_mean.size() == columns && y_mean.size() == responses,
                  "the path's eigenvectors, projections and means must match the features and responses");
  askrff::require(std::isfinite(weight) && weight > 0.0, "the sum of the weights must be positive and finite");
  for (const double l : lambda) askrff::require(std::isfinite(l) && l > 0.0, "lambda must be positive and finite");
  askrff::RidgeLoo model;
  model.vectors = Eigen::Map<const Eigen::MatrixXd>(vectors.begin(), columns, vectors.ncol());
  model.values = Eigen::Map<const Eigen::VectorXd>(values.begin(), values.size());
  model.projections = Eigen::Map<const Eigen::MatrixXd>(projections.begin(), projections.nrow(), responses);
  model.z_mean = Eigen::Map<const Eigen::VectorXd>(z_mean.begin(), columns);
  model.y_mean = Eigen::Map<const Eigen::VectorXd>(y_mean.begin(), responses);
  model.weight = weight;
  model.lambda = Eigen::Map<const Eigen::VectorXd>(lambda.begin(), lambda.size());
  const Eigen::Map<const Eigen::MatrixXd> y_all(y.begin(), y.nrow(), responses);
  const Eigen::Map<const Eigen::VectorXd> w_all(w.begin(), w.size());
  const std::size_t n = x.nrow(), block = 1024;
  const Eigen::Index lambdas = lambda.size();
  Eigen::VectorXd press = Eigen::VectorXd::Zero(lambdas), rss = Eigen::VectorXd::Zero(lambdas * responses);
  const double row_cost = left->row_cost() + askrff::kProductWeight * 2.0 * columns * vectors.ncol() +
                          askrff::kProductWeight * 2.0 * lambdas * vectors.ncol() * (responses + 1);
  askrff::LooTerms terms;
  for (std::size_t begin = 0; begin < n; begin += block) {
    const std::size_t rows = std::min(block, n - begin);
    terms.press.resize(static_cast<Eigen::Index>(rows), lambdas);
    terms.rss.resize(static_cast<Eigen::Index>(rows), lambdas * responses);
    askrff::run_row_blocks(rows, row_cost, askrff::kGramBlockRows, n_threads, [&](std::size_t b, std::size_t e) {
      const Eigen::Index count = static_cast<Eigen::Index>(e - b), first = static_cast<Eigen::Index>(begin + b);
      Eigen::MatrixXd z(count, columns);
      left->rows(x.begin(), n, begin + b, begin + e, z.data(), e - b);
      const askrff::LooTerms part =
          askrff::loo_terms(z, y_all.middleRows(first, count), w_all.segment(first, count), model);
      terms.press.middleRows(static_cast<Eigen::Index>(b), count) = part.press;
      terms.rss.middleRows(static_cast<Eigen::Index>(b), count) = part.rss;
    });
    press += terms.press.colwise().sum().transpose();
    rss += terms.rss.colwise().sum().transpose();
  }
  Rcpp::NumericMatrix rss_matrix(responses, static_cast<int>(lambdas));
  std::copy(rss.data(), rss.data() + rss.size(), rss_matrix.begin());
  return Rcpp::List::create(Rcpp::Named("press") = to_r(press), Rcpp::Named("rss") = rss_matrix);
}
