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
// others, a finite nonnegative smoothing width, and the tube's half-width
// epsilon, finite and nonnegative for a family of real numbers (support
// vector regression's) and 0 for the others.
inline FamilyParameters family_parameters(const ModelFamily& family, const Rcpp::NumericVector& tau, double epsilon,
                                          double width, int predictors) {
  const bool values = family.response == ResponseKind::values;
  require(tau.size() == (values ? predictors : 0), "a family of values needs a level tau per predictor, the others none");
  for (R_xlen_t j = 0; j < tau.size(); ++j) {
    require(tau[j] > 0.0 && tau[j] < 1.0 && (j == 0 || tau[j] > tau[j - 1]), "the levels tau must increase within (0, 1)");
  }
  require(std::isfinite(width) && width >= 0.0, "the smoothing width must be finite and nonnegative");
  require(family.response == ResponseKind::real ? std::isfinite(epsilon) && epsilon >= 0.0 : epsilon == 0.0,
          "a family of real numbers needs a finite nonnegative epsilon, the others 0");
  return FamilyParameters{std::vector<double>(tau.begin(), tau.end()), width, epsilon};
}

inline bool all_finite(const Rcpp::NumericVector& v) {
  return std::all_of(v.begin(), v.end(), [](double value) { return std::isfinite(value); });
}

// A GLM pass's rows and models from R, checked: finite nonnegative weights
// w and finite offsets (one column per predictor of `classes`, or none), a
// row of each per row of x; the rows' first index `first_row` (a whole
// number, which fixes their folds) and the folds; one shift per feature
// column; 1 + D rows of finite coefficients, one column per model and
// predictor, with a fold each (0 or a fold), and references of whole models.
inline void require_pass_input(const Rcpp::NumericMatrix& x, const Rcpp::NumericVector& w,
                               const Rcpp::NumericMatrix& offset, int classes, double first_row, int n_folds,
                               const Rcpp::NumericVector& z_shift, int columns, const Rcpp::NumericMatrix& coefficients,
                               const Rcpp::IntegerVector& model_fold, const Rcpp::NumericMatrix& references) {
  require(w.size() == x.nrow() && all_finite(w) && std::all_of(w.begin(), w.end(), [](double v) { return v >= 0.0; }),
          "w must be finite and nonnegative, one per row of x");
  require(offset.ncol() == 0 || (offset.nrow() == x.nrow() && offset.ncol() == classes && all_finite(offset)),
          "the offsets must be finite, with one row per row of x and one column per predictor");
  require(std::isfinite(first_row) && first_row >= 0.0 && first_row == std::floor(first_row) && first_row < 9e15,
          "first_row must be a whole number");
  require(n_folds == 0 || (n_folds >= 2 && n_folds <= 1000), "n_folds must be 0 or between 2 and 1000");
  require(z_shift.size() == columns, "the shift must have one value per feature column");
  require(coefficients.nrow() == 1 + columns && references.nrow() == 1 + columns,
          "the coefficients must have 1 + D rows");
  require(coefficients.ncol() == model_fold.size() * classes && references.ncol() % classes == 0,
          "the coefficients must have one column per model and class");
  require(all_finite(coefficients) && all_finite(references), "the coefficients must be finite");
  for (const int f : model_fold) require(f >= 0 && f <= n_folds, "each model's fold must be 0 or a fold");
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
