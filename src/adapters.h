// Conversions between R objects and the core's types.
#pragma once
#include <Rcpp.h>

#include <cstdint>
#include <stdexcept>

#include "core/features/feature_map.h"
#include "core/kernels/kernels.h"
#include "core/sampling/sampled_map.h"
#include "guards.h"

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
      // A parameter that is an R function (radial_kernel()'s fun) stays in R,
      // which hands the core its values instead.
      if (Rf_isFunction(params[i])) continue;
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
  if (kernel.containsElementNamed("terms")) {
    const Rcpp::List terms = kernel["terms"];
    for (R_xlen_t i = 0; i < terms.size(); ++i) spec.terms.push_back(kernel_spec(Rcpp::List(terms[i])));
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

// A validated map of rff_map() as the core reads it: views of its
// frequencies and phases, its parts' weights, and 0-based part indices.
struct RMap {
  std::vector<int> part;
  MapView view;
};

inline RMap r_map(const Rcpp::List& map) {
  const Rcpp::NumericMatrix omega = map["omega"];
  const Rcpp::IntegerVector part = map["part"];
  const Rcpp::NumericVector phase = map["phase"];
  const Rcpp::List parts = map["parts"];
  const Rcpp::NumericVector coefficient = parts["coefficient"], mass = parts["mass"],
                            right_phase = parts["right_phase"], share = parts["share"];
  const Rcpp::CharacterVector features = parts["features"];
  require(omega.nrow() >= 1 && omega.ncol() >= 1, "a map needs at least one frequency");
  require_whole(omega, "omega");
  require(coefficient.size() >= 1 && mass.size() == coefficient.size() && right_phase.size() == coefficient.size() &&
              share.size() == coefficient.size() && features.size() == coefficient.size(),
          "a map's parts table needs one coefficient, mass, right phase, share and feature kind per part");
  require_length(part.size(), omega.ncol(), "part");
  require_length(phase.size(), omega.ncol(), "phase");
  RMap out;
  out.view.d = omega.nrow();
  out.view.n = omega.ncol();
  out.view.omega = omega.begin();
  out.view.phase = phase.begin();
  out.view.features = Rcpp::as<std::string>(features[0]);
  for (R_xlen_t p = 0; p < coefficient.size(); ++p) {
    out.view.parts.push_back(PartWeight{coefficient[p], mass[p], right_phase[p], share[p]});
  }
  out.part.resize(static_cast<std::size_t>(part.size()));
  for (R_xlen_t f = 0; f < part.size(); ++f) {
    require(part[f] >= 1 && part[f] <= coefficient.size(), "part indices must name a part of the map");
    out.part[f] = part[f] - 1;
  }
  out.view.part = out.part.data();
  return out;
}

// The random periodic features fun(x'w + dither) of a map of rpf_map().
inline std::unique_ptr<FeatureMap> periodic_map(const Rcpp::NumericMatrix& omega, const Rcpp::NumericVector& dither,
                                                const std::string& fun) {
  require(omega.nrow() >= 1 && omega.ncol() >= 1, "a periodic map needs at least one frequency");
  require_whole(omega, "omega");
  require_length(dither.size(), omega.ncol(), "dither");
  return make_periodic_feature_map(omega.begin(), dither.begin(), omega.nrow(), omega.ncol(), fun);
}

inline ConstMatrixMap as_map(const Rcpp::NumericMatrix& m) {
  require_whole(m, "a matrix");
  return ConstMatrixMap(m.begin(), m.nrow(), m.ncol());
}

}  // namespace askrff
