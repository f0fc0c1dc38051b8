// What the bindings of the models share: Eigen results as R objects and the
// sums of cross_products.h as an R list.
#pragma once
#include <Rcpp.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/models/cross_products.h"
#include "core/models/model_family.h"
#include "guards.h"

namespace askrff {

// R's matrices and vectors as Eigen's, without a copy.
inline Eigen::Map<const Eigen::MatrixXd> as_matrix(const Rcpp::NumericMatrix& m) {
  return Eigen::Map<const Eigen::MatrixXd>(m.begin(), m.nrow(), m.ncol());
}

inline Eigen::Map<const Eigen::VectorXd> as_vector(const Rcpp::NumericVector& v) {
  return Eigen::Map<const Eigen::VectorXd>(v.begin(), v.size());
}

inline Rcpp::NumericMatrix to_r(const Eigen::MatrixXd& m) {
  Rcpp::NumericMatrix out(static_cast<int>(m.rows()), static_cast<int>(m.cols()));
  std::copy(m.data(), m.data() + m.size(), out.begin());
  return out;
}

inline Rcpp::NumericVector to_r(const Eigen::VectorXd& v) { return Rcpp::NumericVector(v.data(), v.data() + v.size()); }

// A family's parameters from R, checked: the levels tau, one per predictor
// and increasing within (0, 1) for a family of values and none for the
// others, and a finite nonnegative smoothing width.
inline FamilyParameters family_parameters(const ModelFamily& family, const Rcpp::NumericVector& tau, double width,
                                          int predictors) {
  const bool values = family.response == ResponseKind::values;
  require(tau.size() == (values ? predictors : 0), "a family of values needs a level tau per predictor, the others none");
  for (R_xlen_t j = 0; j < tau.size(); ++j) {
    require(tau[j] > 0.0 && tau[j] < 1.0 && (j == 0 || tau[j] > tau[j - 1]), "the levels tau must increase within (0, 1)");
  }
  require(std::isfinite(width) && width >= 0.0, "the smoothing width must be finite and nonnegative");
  return FamilyParameters{std::vector<double>(tau.begin(), tau.end()), width};
}

// A Cox model's rows from R, checked: one time rank in [0, times] per row
// (cox_risk.h) and one event indicator (0 or 1) per row in y's one column.
inline std::vector<int> survival_ranks(const Rcpp::NumericMatrix& y, const Rcpp::IntegerVector& rank, int times) {
  require(times >= 0 && y.ncol() == 1 && rank.size() == y.nrow(),
          "a Cox model's rows need one event indicator and one time rank each");
  for (R_xlen_t i = 0; i < rank.size(); ++i) {
    require(rank[i] != NA_INTEGER && rank[i] >= 0 && rank[i] <= times, "the time ranks must lie between 0 and the number of event times");
    require(y[i] == 0.0 || y[i] == 1.0, "a Cox model's events must be 0 (censored) or 1");
  }
  return std::vector<int>(rank.begin(), rank.end());
}

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

}  // namespace askrff
