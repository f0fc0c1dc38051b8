// The table of model families (model_family.h) for R: names and traits, and
// each family's rows and means on matrices of linear predictors.
#include <Rcpp.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/models/model_family.h"
#include "guards.h"
#include "model_glue.h"

namespace {

int predictors_of(const askrff::ModelFamily& family, int columns) {
  askrff::require(askrff::takes_predictors(family, columns),
                  "eta must have one column, or one per class or level for a family of several predictors");
  return columns;
}

}  // namespace

// Every family: list(name, label, response (its kind), mean (what
// predict(type = "response") gives, "" for none), likelihood (whether its
// deviance is twice a negative log-likelihood), kinked (whether its loss
// has kinks, smoothed in its fits), and the functions it lacks of those it
// needs (for the registry's tests)).
// [[Rcpp::export(.cpp_model_families)]]
Rcpp::List cpp_model_families() {
  Rcpp::List out;
  for (const askrff::ModelFamily& family : askrff::model_families()) {
    std::vector<std::string> missing;
    if (family.row == nullptr) missing.push_back("row");
    if (family.null_model == nullptr) missing.push_back("null_model");
    if ((family.mean == nullptr) != (std::string(family.mean_name).empty())) missing.push_back("mean");
    out.push_back(Rcpp::List::create(Rcpp::Named("name") = family.name, Rcpp::Named("label") = family.label,
                                     Rcpp::Named("response") = askrff::response_kind_name(family.response),
                                     Rcpp::Named("mean") = family.mean_name,
                                     Rcpp::Named("likelihood") = family.likelihood,
                                     Rcpp::Named("kinked") = family.kinked,
                                     Rcpp::Named("missing") = Rcpp::CharacterVector(missing.begin(), missing.end())),
                  family.name);
  }
  return out;
}

// For rows of linear predictors eta and encoded responses y (rows x K),
// with the family's levels tau (for a family of values), epsilon (of real
// numbers) and smoothing width: list(half (the half losses), residual, curvature (rows x K)).
// [[Rcpp::export(.cpp_model_family_rows)]]
Rcpp::List cpp_model_family_rows(std::string name, Rcpp::NumericMatrix eta, Rcpp::NumericMatrix y,
                                 Rcpp::NumericVector tau, double epsilon, double width) {
  const askrff::ModelFamily& family = askrff::model_family(name);
  const int k = predictors_of(family, eta.ncol()), n = eta.nrow();
  const askrff::FamilyParameters parameters = askrff::family_parameters(family, tau, epsilon, width, k);
  askrff::require(y.nrow() == n && y.ncol() == k, "y must have the rows and columns of eta");
  Rcpp::NumericVector half(n);
  Rcpp::NumericMatrix residual(n, k), curvature(n, k);
  std::vector<double> e(static_cast<std::size_t>(k)), v(e), r(e), c(e);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < k; ++j) {
      e[j] = eta(i, j);
      v[j] = y(i, j);
    }
    half[i] = family.row(e.data(), v.data(), k, parameters, r.data(), c.data());
    for (int j = 0; j < k; ++j) {
      residual(i, j) = r[j];
      curvature(i, j) = c[j];
    }
  }
  return Rcpp::List::create(Rcpp::Named("half") = half, Rcpp::Named("residual") = residual,
                            Rcpp::Named("curvature") = curvature);
}

// The means of the rows of eta (NA rows stay NA).
// [[Rcpp::export(.cpp_model_family_mean)]]
Rcpp::NumericMatrix cpp_model_family_mean(std::string name, Rcpp::NumericMatrix eta) {
  const askrff::ModelFamily& family = askrff::model_family(name);
  askrff::require(family.mean != nullptr, "the " + name + " family has no mean");
  const int k = predictors_of(family, eta.ncol()), n = eta.nrow();
  Rcpp::NumericMatrix out(n, k);
  std::vector<double> e(static_cast<std::size_t>(k)), mu(e);
  for (int i = 0; i < n; ++i) {
    bool missing = false;
    for (int j = 0; j < k; ++j) missing = missing || std::isnan(e[j] = eta(i, j));
    if (missing) {
      for (int j = 0; j < k; ++j) out(i, j) = NA_REAL;
      continue;
    }
    family.mean(e.data(), k, mu.data());
    for (int j = 0; j < k; ++j) out(i, j) = mu[j];
  }
  return out;
}
