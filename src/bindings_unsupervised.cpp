// Unsupervised methods on features: one Lloyd step of k-means, and the
// features' transposed products with a matrix, over rows whose features are
// computed a block at a time and never stored.
#include <Rcpp.h>

#include <cmath>
#include <memory>
#include <string>

#include "adapters.h"
#include "core/models/model_passes.h"
#include "core/statistics/kmeans_pass.h"
#include "guards.h"
#include "model_glue.h"
#include "parallel.h"

using askrff::as_matrix;
using askrff::as_vector;
using askrff::to_r;

// The sums of kmeans_pass.h over the rows of x with weights w (finite,
// nonnegative) for `centers` (groups k by feature columns, finite); with
// `keep`, each row's cluster in each group (counted from 1, rows by groups).
// [[Rcpp::export(.cpp_kmeans_pass)]]
Rcpp::List cpp_kmeans_pass(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x, Rcpp::NumericVector w,
                           Rcpp::NumericMatrix centers, int k, Rcpp::NumericVector shift, bool keep, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> left = askrff::feature_map(map, askrff::Side::left, fun);
  askrff::require_data(x, left->dimension(), "x");
  askrff::require(w.size() == x.nrow(), "w must have one weight per row of x");
  for (const double wi : w) askrff::require(std::isfinite(wi) && wi >= 0.0, "the weights must be finite and nonnegative");
  askrff::require(k >= 1 && centers.nrow() >= k && centers.nrow() % k == 0,
                  "the centres must be whole groups of k rows");
  askrff::require(centers.ncol() == left->n_columns() && shift.size() == left->n_columns(),
                  "the centres and the shift must have one column per feature column");
  for (const double c : centers) askrff::require(std::isfinite(c), "the centres must be finite");
  for (const double s : shift) askrff::require(std::isfinite(s), "the shift must be finite");
  const askrff::KmeansSums sums = askrff::kmeans_pass(*left, x.begin(), static_cast<std::size_t>(x.nrow()), as_vector(w),
                                                      as_matrix(centers), k, as_vector(shift), keep,
                                                      askrff::thread_runner(n_threads));
  const int groups = centers.nrow() / k;
  Rcpp::IntegerMatrix cluster(keep ? x.nrow() : 0, keep ? groups : 0);
  for (std::size_t i = 0; i < sums.cluster.size(); ++i) cluster[static_cast<R_xlen_t>(i)] = sums.cluster[i] + 1;
  return Rcpp::List::create(Rcpp::Named("sums") = to_r(sums.sums), Rcpp::Named("weight") = to_r(sums.weight),
                            Rcpp::Named("withinss") = to_r(sums.withinss), Rcpp::Named("size") = to_r(sums.size),
                            Rcpp::Named("total") = to_r(sums.total), Rcpp::Named("squares") = sums.squares,
                            Rcpp::Named("cluster") = cluster);
}

// The sum over the rows of x of (z_i - z_shift) y_i' (feature columns by
// y's columns) and of w_i |z_i - z_shift|^2, of model_passes.h; y finite,
// w finite and nonnegative, each one row per row of x.
// [[Rcpp::export(.cpp_transposed_products)]]
Rcpp::List cpp_transposed_products(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x, Rcpp::NumericMatrix y,
                                   Rcpp::NumericVector w, Rcpp::NumericVector z_shift, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> left = askrff::feature_map(map, askrff::Side::left, fun);
  askrff::require_data(x, left->dimension(), "x");
  askrff::require(y.nrow() == x.nrow() && w.size() == x.nrow(), "y and w must have one row per row of x");
  for (const double v : y) askrff::require(std::isfinite(v), "y must be finite");
  for (const double wi : w) askrff::require(std::isfinite(wi) && wi >= 0.0, "the weights must be finite and nonnegative");
  askrff::require(z_shift.size() == left->n_columns(), "the shift must have one entry per feature column");
  for (const double s : z_shift) askrff::require(std::isfinite(s), "the shift must be finite");
  const askrff::TransposedProducts sums =
      askrff::sum_transposed_products(*left, x.begin(), static_cast<std::size_t>(x.nrow()), as_matrix(y), as_vector(w),
                                      as_vector(z_shift), askrff::thread_runner(n_threads));
  return Rcpp::List::create(Rcpp::Named("products") = to_r(sums.products), Rcpp::Named("squares") = sums.squares);
}
