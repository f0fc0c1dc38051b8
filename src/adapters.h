// Conversions between R objects and the core's types.
#pragma once
#include <Rcpp.h>

#include <cstdint>
#include <stdexcept>

#include "core/kernels.h"

namespace askrff {

// R's kernel object: list(name = "gaussian", params = list(sigma = 1), ...),
// optionally with `settings`, a map's validated kernel-specific settings:
// words become options, numbers join the parameters.
inline KernelSpec kernel_spec(const Rcpp::List& kernel) {
  KernelSpec spec;
  spec.name = Rcpp::as<std::string>(kernel["name"]);
  const Rcpp::List params = kernel["params"];
  if (params.size() > 0) {
    const Rcpp::CharacterVector names = params.names();
    for (R_xlen_t i = 0; i < params.size(); ++i) {
      spec.params[Rcpp::as<std::string>(names[i])] = Rcpp::as<std::vector<double>>(params[i]);
    }
  }
  const Rcpp::List settings =
      kernel.containsElementNamed("settings") ? Rcpp::List(kernel["settings"]) : Rcpp::List();
  if (settings.size() > 0) {
    const Rcpp::CharacterVector setting_names = settings.names();
    for (R_xlen_t i = 0; i < settings.size(); ++i) {
      const std::string key = Rcpp::as<std::string>(setting_names[i]);
      if (Rf_isString(settings[i])) {
        spec.options[key] = Rcpp::as<std::string>(settings[i]);
      } else {
        spec.params[key] = Rcpp::as<std::vector<double>>(settings[i]);
      }
    }
  }
  return spec;
}

// Two 32-bit words drawn in R (from its RNG or from `seed`) make the 64-bit seed.
inline std::uint64_t seed_from_words(const Rcpp::NumericVector& words) {
  if (words.size() != 2 || !(words[0] >= 0 && words[0] < 4294967296.0) || !(words[1] >= 0 && words[1] < 4294967296.0)) {
    throw std::invalid_argument("a seed is two whole numbers in [0, 2^32)");
  }
  return (static_cast<std::uint64_t>(words[0]) << 32) | static_cast<std::uint64_t>(words[1]);
}

inline ConstMatrixMap as_map(const Rcpp::NumericMatrix& m) {
  return ConstMatrixMap(m.begin(), m.nrow(), m.ncol());
}

}  // namespace askrff
