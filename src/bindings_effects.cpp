// Derivatives of a fit's function by a variable of the data: the features'
// directional derivatives (directional_derivative.h) of a sampled
// trigonometric map's left side, through the passes the fits' predictions
// and standard errors use.
#include <Rcpp.h>

#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "adapters.h"
#include "blocked_jobs.h"
#include "core/features/directional_derivative.h"
#include "core/models/model_passes.h"
#include "core/sampling/sampled_map.h"
#include "core/statistics/gram_pass.h"
#include "guards.h"
#include "model_glue.h"
#include "parallel.h"

using askrff::as_vector;
using askrff::to_r;

namespace {

// The derivative map along the rows' directions: coordinates (from 1) of
// the map's data and the jacobian (rows of x by coordinates, finite).
std::unique_ptr<askrff::FeatureMap> directional_map(const Rcpp::List& map, const Rcpp::NumericMatrix& x,
                                                    const Rcpp::IntegerVector& coordinates,
                                                    const Rcpp::NumericMatrix& jacobian) {
  askrff::require(Rf_inherits(map, "rff_map"), "derivatives need a map of rff_map()");
  const askrff::SampledMapList sampled = askrff::sampled_map_list(map);
  askrff::require_data(x, sampled.view.d, "x");
  askrff::require(jacobian.nrow() == x.nrow() && jacobian.ncol() == coordinates.size() && coordinates.size() >= 1,
                  "the jacobian must have one row per row of x and one column per coordinate");
  for (const double v : jacobian) askrff::require(std::isfinite(v), "the jacobian must be finite");
  std::vector<std::unique_ptr<askrff::FeatureMap>> partials;
  for (const int c : coordinates) {
    askrff::require(c >= 1 && c <= sampled.view.d, "the coordinates must be columns of the map's data");
    partials.push_back(askrff::left_partial_derivative_map(sampled.view, c - 1));
  }
  return askrff::make_directional_derivative_map(std::move(partials), jacobian.begin(),
                                                 static_cast<std::size_t>(x.nrow()));
}

}  // namespace

// The rows' directional derivatives of the features times coefficients B
// (given as t(B)): rows by B's columns.
// [[Rcpp::export(.cpp_effect_products)]]
Rcpp::NumericMatrix cpp_effect_products(Rcpp::List map, Rcpp::NumericMatrix x, Rcpp::IntegerVector coordinates,
                                        Rcpp::NumericMatrix jacobian, Rcpp::NumericMatrix coefficients_t,
                                        int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> derivative = directional_map(map, x, coordinates, jacobian);
  askrff::require(coefficients_t.ncol() == derivative->n_columns(), "the coefficients must have one row per feature column");
  for (const double v : coefficients_t) askrff::require(std::isfinite(v), "the coefficients must be finite");
  return askrff::gram_by_left_rows(askrff::MappedRows(*derivative, x.begin(), static_cast<std::size_t>(x.nrow())),
                                   askrff::as_features(coefficients_t), 1.0, n_threads);
}

// The posterior quadratic form of ridge_posterior.h of each row's
// directional derivative of the features, about 0 (a derivative has no
// intercept): rows by lambdas.
// [[Rcpp::export(.cpp_effect_posterior)]]
Rcpp::NumericMatrix cpp_effect_posterior(Rcpp::List map, Rcpp::NumericMatrix x, Rcpp::IntegerVector coordinates,
                                         Rcpp::NumericMatrix jacobian, Rcpp::NumericMatrix vectors,
                                         Rcpp::NumericVector values, Rcpp::NumericVector lambda, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> derivative = directional_map(map, x, coordinates, jacobian);
  const int columns = derivative->n_columns();
  askrff::require(vectors.nrow() == columns && vectors.ncol() <= columns && values.size() == vectors.ncol(),
                  "the posterior must have one row of eigenvectors per feature column");
  askrff::require(lambda.size() >= 1, "lambda must hold at least one value");
  for (const double l : lambda) askrff::require(std::isfinite(l) && l > 0.0, "lambda must be positive and finite");
  askrff::RidgePosterior posterior;
  posterior.vectors = Eigen::Map<const Eigen::MatrixXd>(vectors.begin(), columns, vectors.ncol());
  posterior.values = Eigen::Map<const Eigen::VectorXd>(values.begin(), values.size());
  posterior.z_mean = Eigen::VectorXd::Zero(columns);
  posterior.lambda = as_vector(lambda);
  Rcpp::NumericMatrix out(x.nrow(), lambda.size());
  askrff::posterior_quadratic_forms(*derivative, x.begin(), static_cast<std::size_t>(x.nrow()), posterior,
                                    askrff::thread_runner(n_threads), out.begin());
  return out;
}

// The sum over the rows of their directional derivatives of the features.
// [[Rcpp::export(.cpp_effect_sum)]]
Rcpp::NumericVector cpp_effect_sum(Rcpp::List map, Rcpp::NumericMatrix x, Rcpp::IntegerVector coordinates,
                                   Rcpp::NumericMatrix jacobian, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> derivative = directional_map(map, x, coordinates, jacobian);
  const Eigen::Index columns = derivative->n_columns();
  const askrff::GramProducts sums = askrff::sum_gram_products(
      *derivative, x.begin(), static_cast<std::size_t>(x.nrow()), Eigen::MatrixXd(columns, 0),
      Eigen::VectorXd::Ones(x.nrow()), Eigen::VectorXd::Zero(columns), false, askrff::thread_runner(n_threads));
  return to_r(sums.sum);
}
