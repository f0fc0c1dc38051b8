// What the bindings of the models share: Eigen results as R objects, the
// sums of cross_products.h as an R list, and the shifted features of a
// block of rows.
#pragma once
#include <Rcpp.h>

#include <Eigen/Dense>
#include <algorithm>

#include "blocked_jobs.h"
#include "core/features/feature_map.h"
#include "core/models/cross_products.h"
#include "guards.h"

namespace askrff {

inline Rcpp::NumericMatrix to_r(const Eigen::MatrixXd& m) {
  Rcpp::NumericMatrix out(static_cast<int>(m.rows()), static_cast<int>(m.cols()));
  std::copy(m.data(), m.data() + m.size(), out.begin());
  return out;
}

inline Rcpp::NumericVector to_r(const Eigen::VectorXd& v) { return Rcpp::NumericVector(v.data(), v.data() + v.size()); }

inline Rcpp::List to_r(const CrossProducts& sums) {
  return Rcpp::List::create(Rcpp::Named("zz") = to_r(sums.zz), Rcpp::Named("zy") = to_r(sums.zy),
                            Rcpp::Named("z_sum") = to_r(sums.z_sum), Rcpp::Named("y_sum") = to_r(sums.y_sum),
                            Rcpp::Named("y_squares") = to_r(sums.y_squares), Rcpp::Named("weight") = sums.weight,
                            Rcpp::Named("log_weight") = sums.log_weight,
                            Rcpp::Named("n") = sums.n);
}

// The sums of cross_products.h from the list of to_r(), checked.
inline CrossProducts cross_products_from_r(const Rcpp::List& sums) {
  const Rcpp::NumericMatrix zz = sums["zz"], zy = sums["zy"];
  const Rcpp::NumericVector z_sum = sums["z_sum"], y_sum = sums["y_sum"], y_squares = sums["y_squares"];
  const int columns = zz.ncol(), responses = zy.ncol();
  require(zz.nrow() == columns && zy.nrow() == columns && z_sum.size() == columns && y_sum.size() == responses &&
              y_squares.size() == responses,
          "the sums of cross-products must agree in their sizes");
  CrossProducts c(columns, responses);
  c.zz = Eigen::Map<const Eigen::MatrixXd>(zz.begin(), columns, columns);
  c.zy = Eigen::Map<const Eigen::MatrixXd>(zy.begin(), columns, responses);
  c.z_sum = Eigen::Map<const Eigen::VectorXd>(z_sum.begin(), columns);
  c.y_sum = Eigen::Map<const Eigen::VectorXd>(y_sum.begin(), responses);
  c.y_squares = Eigen::Map<const Eigen::VectorXd>(y_squares.begin(), responses);
  c.weight = Rcpp::as<double>(sums["weight"]);
  c.log_weight = Rcpp::as<double>(sums["log_weight"]);
  c.n = Rcpp::as<double>(sums["n"]);
  return c;
}

// Rows per block: at most about 32 MB of features, and at most 1024 rows.
inline std::size_t block_rows(int columns) {
  return static_cast<std::size_t>(std::clamp(4000000 / std::max(columns, 1), 64, 1024));
}

// The features of rows [begin, begin + rows) of x (n rows in all), computed
// on n_threads threads in blocks fixed by the sizes, less the shift.
template <class Shift>
void shifted_features(const FeatureMap& map, const double* x, std::size_t n, std::size_t begin, std::size_t rows,
                      const Shift& shift, int n_threads, Eigen::MatrixXd& z) {
  z.resize(static_cast<Eigen::Index>(rows), map.n_columns());
  double* zp = z.data();
  run_row_blocks(rows, map.row_cost(), kFeatureBlockRows, n_threads,
                 [&](std::size_t b, std::size_t e) { map.rows(x, n, begin + b, begin + e, zp + b, rows); });
  z.rowwise() -= shift.transpose();
}

}  // namespace askrff
