// Models on features: the sums of a ridge regression, accumulated a block of
// rows at a time without storing the features, its solution path, its dual
// path on rows in memory, and predictions.
#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "adapters.h"
#include "blocked_jobs.h"
#include "core/models/model_passes.h"
#include "core/models/ridge.h"
#include "core/models/ridge_dual.h"
#include "guards.h"
#include "model_glue.h"
#include "progress.h"

using askrff::as_matrix;
using askrff::as_vector;
using askrff::to_r;

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
  const int columns = left->n_columns(), responses = y.ncol();
  askrff::require(responses >= 1, "y must have at least one column");
  askrff::require(z_shift.size() == columns && y_shift.size() == responses, "the shifts must match the columns");
  return to_r(askrff::sum_cross_products(*left, x.begin(), x.nrow(), as_matrix(y), as_vector(w), as_vector(z_shift),
                                         as_vector(y_shift), askrff::thread_runner(n_threads)));
}

namespace {

// A path of ridge.h as an R list (`chosen` counted from 1).
Rcpp::List path_to_r(const askrff::RidgePath& path) {
  Rcpp::IntegerVector chosen(path.chosen.size()), lengths(path.lengths.size());
  for (std::size_t g = 0; g < path.chosen.size(); ++g) {
    chosen[static_cast<R_xlen_t>(g)] = static_cast<int>(path.chosen[g]) + 1;
    lengths[static_cast<R_xlen_t>(g)] = static_cast<int>(path.lengths[g]);
  }
  return Rcpp::List::create(Rcpp::Named("lambda") = to_r(path.lambda), Rcpp::Named("lengths") = lengths,
                            Rcpp::Named("df") = to_r(path.df), Rcpp::Named("gcv") = to_r(path.gcv),
                            Rcpp::Named("evidence") = to_r(path.evidence),
                            Rcpp::Named("eigenvalues") = to_r(path.eigenvalues), Rcpp::Named("chosen") = chosen,
                            Rcpp::Named("coefficients") = to_r(path.coefficients),
                            Rcpp::Named("intercept") = to_r(path.intercept), Rcpp::Named("rss") = to_r(path.rss),
                            Rcpp::Named("vectors") = to_r(path.vectors), Rcpp::Named("z_mean") = to_r(path.z_mean),
                            Rcpp::Named("weight") = path.weight, Rcpp::Named("projections") = to_r(path.projections),
                            Rcpp::Named("y_mean") = to_r(path.y_mean),
                            Rcpp::Named("remainder_vectors") = to_r(path.remainder_vectors),
                            Rcpp::Named("remainder_projections") = to_r(path.remainder_projections),
                            Rcpp::Named("remainder_values") = to_r(path.remainder_values));
}

askrff::Criterion criterion_named(const std::string& criterion) {
  askrff::require(criterion == "gcv" || criterion == "evidence", "criterion must be \"gcv\" or \"evidence\"");
  return criterion == "gcv" ? askrff::Criterion::gcv : askrff::Criterion::evidence;
}

template <typename Values>
void require_lambda(const Values& lambda) {
  for (const double l : lambda) askrff::require(std::isfinite(l) && l > 0.0, "lambda must be positive and finite");
}

askrff::Sharing sharing_of(bool shared) { return shared ? askrff::Sharing::shared : askrff::Sharing::each; }

}  // namespace

// The ridge path of ridge.h from sums of .cpp_cross_products (added over
// chunks in R); `lambda` empty for the grid; `criterion` "gcv" or
// "evidence"; `shared` for one lambda for all responses, else one each.
// The eigendecomposition stops on a user interrupt and reports its percents
// to `progress` (see progress.h).
// [[Rcpp::export(.cpp_ridge_path)]]
Rcpp::List cpp_ridge_path(Rcpp::List sums, Rcpp::NumericVector z_shift, Rcpp::NumericVector y_shift,
                          Rcpp::NumericVector lambda, std::string criterion, bool shared, SEXP progress) {
  const askrff::Criterion chosen_by = criterion_named(criterion);
  require_lambda(lambda);
  const askrff::CrossProducts c = askrff::cross_products_from_r(sums);
  const int columns = static_cast<int>(c.zz.cols()), responses = static_cast<int>(c.zy.cols());
  askrff::require(z_shift.size() == columns && y_shift.size() == responses,
                  "the shifts must have one value per feature column and response");
  return path_to_r(askrff::ridge_path(c, Eigen::Map<const Eigen::VectorXd>(z_shift.begin(), columns),
                                      Eigen::Map<const Eigen::VectorXd>(y_shift.begin(), responses),
                                      Eigen::Map<const Eigen::VectorXd>(lambda.begin(), lambda.size()), chosen_by,
                                      sharing_of(shared), askrff::InterruptPoll(), askrff::RProgress(progress)));
}

// The dual ridge path of ridge_dual.h on the rows of x in memory, with
// responses y (one column each) and weights w: the path as .cpp_ridge_path
// gives it, with its eigenvectors and solution only when `solution`, plus
// `n` and `log_weight` of the rows of positive weight and, with `loo`, the
// leave-one-out sums as .cpp_ridge_loo gives them (`press`, `rss_loo`).
// [[Rcpp::export(.cpp_ridge_dual)]]
Rcpp::List cpp_ridge_dual(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x, Rcpp::NumericMatrix y,
                          Rcpp::NumericVector w, Rcpp::NumericVector lambda, std::string criterion, bool shared,
                          bool loo, bool solution, SEXP progress, int n_threads) {
  askrff::require_threads(n_threads);
  askrff::DualRequest request;
  request.criterion = criterion_named(criterion);
  request.sharing = sharing_of(shared);
  request.loo = loo;
  request.solution = solution;
  const std::unique_ptr<askrff::FeatureMap> left = askrff::feature_map(map, askrff::Side::left, fun);
  askrff::require_data(x, left->dimension(), "x");
  askrff::require(y.nrow() == x.nrow() && w.size() == x.nrow(), "y and w must have one row per row of x");
  askrff::require(y.ncol() >= 1, "y must have at least one column");
  for (const double wi : w) askrff::require(std::isfinite(wi) && wi >= 0.0, "the weights must be finite and nonnegative");
  require_lambda(lambda);
  const askrff::RidgeDual dual = askrff::ridge_dual_path(
      *left, x.begin(), static_cast<std::size_t>(x.nrow()), as_matrix(y), as_vector(w),
      Eigen::Map<const Eigen::VectorXd>(lambda.begin(), lambda.size()), request, askrff::thread_runner(n_threads),
      askrff::InterruptPoll(), askrff::RProgress(progress));
  Rcpp::List out = path_to_r(dual.path);
  if (!solution) {
    for (const char* name : {"vectors", "coefficients", "intercept", "remainder_vectors"}) out[name] = R_NilValue;
  }
  out["n"] = dual.n;
  out["log_weight"] = dual.log_weight;
  if (loo) {
    out["press"] = to_r(dual.press);
    out["rss_loo"] = to_r(dual.rss);
  }
  return out;
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

// For each row of x and each lambda, q(z(x)) of ridge_posterior.h: the
// posterior variance of the fit at x in units of s2, less 1 / sum w, on
// n_threads threads (model_passes.h); rows by lambdas.
// [[Rcpp::export(.cpp_ridge_posterior)]]
Rcpp::NumericMatrix cpp_ridge_posterior(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x,
                                        Rcpp::NumericMatrix vectors, Rcpp::NumericVector values,
                                        Rcpp::NumericVector z_mean, Rcpp::NumericVector lambda, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> left = askrff::feature_map(map, askrff::Side::left, fun);
  askrff::require_data(x, left->dimension(), "x");
  const int columns = left->n_columns();
  askrff::require(vectors.nrow() == columns && vectors.ncol() <= columns && values.size() == vectors.ncol() &&
                      z_mean.size() == columns,
                  "the posterior must have one row of eigenvectors and one mean per feature column");
  askrff::require(lambda.size() >= 1, "lambda must hold at least one value");
  require_lambda(lambda);
  askrff::RidgePosterior posterior;
  posterior.vectors = Eigen::Map<const Eigen::MatrixXd>(vectors.begin(), columns, vectors.ncol());
  posterior.values = Eigen::Map<const Eigen::VectorXd>(values.begin(), values.size());
  posterior.z_mean = Eigen::Map<const Eigen::VectorXd>(z_mean.begin(), columns);
  posterior.lambda = as_vector(lambda);
  Rcpp::NumericMatrix out(x.nrow(), lambda.size());
  askrff::posterior_quadratic_forms(*left, x.begin(), x.nrow(), posterior, askrff::thread_runner(n_threads), out.begin());
  return out;
}

// The sums over the rows of x, y and w of ridge_loo.h's terms for every
// lambda of the paths (`lambda`: one column, shared by the responses, or
// one per response; model_passes.h): list(press, rss), each responses by
// the paths' rows, on n_threads threads.
// [[Rcpp::export(.cpp_ridge_loo)]]
Rcpp::List cpp_ridge_loo(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x, Rcpp::NumericMatrix y,
                         Rcpp::NumericVector w, Rcpp::NumericMatrix vectors, Rcpp::NumericVector values,
                         Rcpp::NumericMatrix projections, Rcpp::NumericVector z_mean, Rcpp::NumericVector y_mean,
                         double weight, Rcpp::NumericMatrix lambda, int n_threads) {
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
  askrff::require(lambda.nrow() >= 1 && (lambda.ncol() == 1 || lambda.ncol() == responses),
                  "lambda must have one column, or one per response");
  require_lambda(lambda);
  askrff::RidgeLoo model;
  model.vectors = Eigen::Map<const Eigen::MatrixXd>(vectors.begin(), columns, vectors.ncol());
  model.values = Eigen::Map<const Eigen::VectorXd>(values.begin(), values.size());
  model.projections = Eigen::Map<const Eigen::MatrixXd>(projections.begin(), projections.nrow(), responses);
  model.z_mean = Eigen::Map<const Eigen::VectorXd>(z_mean.begin(), columns);
  model.y_mean = Eigen::Map<const Eigen::VectorXd>(y_mean.begin(), responses);
  model.weight = weight;
  model.lambda = as_matrix(lambda);
  const askrff::LooSums sums = askrff::ridge_loo_sums(*left, x.begin(), x.nrow(), as_matrix(y), as_vector(w), model,
                                                    askrff::thread_runner(n_threads));
  const auto by_response = [&](const Eigen::VectorXd& v) {
    Rcpp::NumericMatrix out(responses, lambda.nrow());
    std::copy(v.data(), v.data() + v.size(), out.begin());
    return out;
  };
  return Rcpp::List::create(Rcpp::Named("press") = by_response(sums.press), Rcpp::Named("rss") = by_response(sums.rss));
}
