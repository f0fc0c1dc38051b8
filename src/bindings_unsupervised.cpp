// Unsupervised methods on features: one Lloyd step of k-means, and one
// step of a subspace iteration on the features' second moments, over rows
// whose features are computed a block at a time and never stored.
#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "adapters.h"
#include "core/models/model_passes.h"
#include "core/statistics/gram_pass.h"
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

// The sums of gram_pass.h over the rows of x: with u_i = z_i - z_shift,
// of w_i u_i u_i' g (feature columns by g's columns), of w_i u_i and of
// w_i |u_i|^2, and with `keep` each row's u_i' g (else a matrix of no
// rows); g and z_shift finite, w finite and nonnegative, one per row of x.
// [[Rcpp::export(.cpp_gram_products)]]
Rcpp::List cpp_gram_products(Rcpp::List map, std::string fun, Rcpp::NumericMatrix x, Rcpp::NumericMatrix g,
                             Rcpp::NumericVector w, Rcpp::NumericVector z_shift, bool keep, int n_threads) {
  askrff::require_threads(n_threads);
  const std::unique_ptr<askrff::FeatureMap> left = askrff::feature_map(map, askrff::Side::left, fun);
  askrff::require_data(x, left->dimension(), "x");
  askrff::require(w.size() == x.nrow(), "w must have one weight per row of x");
  for (const double wi : w) askrff::require(std::isfinite(wi) && wi >= 0.0, "the weights must be finite and nonnegative");
  askrff::require(g.nrow() == left->n_columns() && z_shift.size() == left->n_columns(),
                  "g and the shift must have one row per feature column");
  for (const double v : g) askrff::require(std::isfinite(v), "g must be finite");
  for (const double s : z_shift) askrff::require(std::isfinite(s), "the shift must be finite");
  const askrff::GramProducts sums =
      askrff::sum_gram_products(*left, x.begin(), static_cast<std::size_t>(x.nrow()), as_matrix(g), as_vector(w),
                                as_vector(z_shift), keep, askrff::thread_runner(n_threads));
  Rcpp::NumericMatrix projections(keep ? x.nrow() : 0, g.ncol());
  if (keep) std::copy(sums.projections.data(), sums.projections.data() + sums.projections.size(), projections.begin());
  return Rcpp::List::create(Rcpp::Named("products") = to_r(sums.products), Rcpp::Named("sum") = to_r(sums.sum),
                            Rcpp::Named("squares") = sums.squares, Rcpp::Named("projections") = projections);
}
